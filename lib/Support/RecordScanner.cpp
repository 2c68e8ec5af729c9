//===-- RecordScanner.cpp - reading a few fields of a record quickly -----===//
//
// A strict JSON scanner that validates a whole record line (structure,
// strings with their escapes and UTF-8, numbers, literals) while copying out
// only the spans of the fields asked for, which are then parsed on their own.
// Anything the scanner does not accept, including every malformed line, goes
// to parseRecordLine, so errors and corner cases (a byte-order mark, very
// deep nesting) behave exactly as they do there.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Record.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace kevin {

namespace {

class FieldScanner {
public:
  FieldScanner(std::string_view Line, const FieldPaths &Paths)
      : P(Line.data()), End(Line.data() + Line.size()), Paths(Paths),
        Spans(Paths.components().size()) {}

  /// Scans the line; false when it is not a record this scanner accepts.
  bool scan() {
    skipSpace();
    if (P == End || *P != '{')
      return false;
    uint64_t All =
        Spans.size() == 64 ? ~uint64_t(0) : (uint64_t(1) << Spans.size()) - 1;
    if (!scanObject(0, All))
      return false;
    skipSpace();
    return P == End;
  }
  /// The span of each path's value (empty when absent).
  const std::vector<std::string_view> &spans() const { return Spans; }

private:
  static constexpr unsigned MaxDepth = 256;

  void skipSpace() {
    while (P != End && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
      ++P;
  }

  bool scanValue(unsigned Depth) {
    if (P == End)
      return false;
    switch (*P) {
    case '{':
      return scanObject(Depth + 1, 0);
    case '[':
      return scanArray(Depth + 1);
    case '"':
      return scanString(nullptr);
    case 't':
      return scanLiteral("true");
    case 'f':
      return scanLiteral("false");
    case 'n':
      return scanLiteral("null");
    default:
      return scanNumber();
    }
  }

  /// Scans an object at nesting Depth (0: the record). Wanted has a bit for
  /// each path whose first Depth components lead to this object.
  bool scanObject(unsigned Depth, uint64_t Wanted) {
    if (Depth > MaxDepth)
      return false;
    ++P; // '{'
    skipSpace();
    if (P != End && *P == '}') {
      ++P;
      return true;
    }
    while (true) {
      skipSpace();
      if (P == End || *P != '"')
        return false;
      const char *KeyStart = P + 1;
      bool Escaped = false;
      if (!scanString(Wanted ? &KeyBuffer : nullptr, &Escaped))
        return false;
      std::string_view Key =
          Escaped ? std::string_view(KeyBuffer)
                  : std::string_view(KeyStart,
                                     static_cast<size_t>(P - 1 - KeyStart));
      skipSpace();
      if (P == End || *P != ':')
        return false;
      ++P;
      skipSpace();
      uint64_t Exact = 0, Through = 0;
      for (uint64_t Bits = Wanted; Bits; Bits &= Bits - 1) {
        unsigned I = static_cast<unsigned>(__builtin_ctzll(Bits));
        const std::vector<std::string> &Parts = Paths.components()[I];
        if (Parts[Depth] != Key)
          continue;
        if (Parts.size() == Depth + 1)
          Exact |= uint64_t(1) << I;
        else
          Through |= uint64_t(1) << I;
      }
      const char *Start = P;
      bool Ok = P != End && *P == '{' ? scanObject(Depth + 1, Through)
                                      : scanValue(Depth);
      if (!Ok)
        return false;
      for (; Exact; Exact &= Exact - 1)
        Spans[static_cast<size_t>(__builtin_ctzll(Exact))] =
            std::string_view(Start, static_cast<size_t>(P - Start));
      skipSpace();
      if (P == End)
        return false;
      if (*P == ',') {
        ++P;
        continue;
      }
      if (*P != '}')
        return false;
      ++P;
      return true;
    }
  }

  bool scanArray(unsigned Depth) {
    if (Depth > MaxDepth)
      return false;
    ++P; // '['
    skipSpace();
    if (P != End && *P == ']') {
      ++P;
      return true;
    }
    while (true) {
      skipSpace();
      if (!scanValue(Depth))
        return false;
      skipSpace();
      if (P == End)
        return false;
      if (*P == ',') {
        ++P;
        continue;
      }
      if (*P != ']')
        return false;
      ++P;
      return true;
    }
  }

  bool scanLiteral(std::string_view Word) {
    if (static_cast<size_t>(End - P) < Word.size() ||
        std::string_view(P, Word.size()) != Word)
      return false;
    P += Word.size();
    return true;
  }

  static bool isDigit(char C) { return C >= '0' && C <= '9'; }

  bool scanNumber() {
    const char *Start = P;
    bool HasExponent = false;
    if (P != End && *P == '-')
      ++P;
    if (P == End || !isDigit(*P))
      return false;
    if (*P == '0')
      ++P;
    else
      while (P != End && isDigit(*P))
        ++P;
    if (P != End && *P == '.') {
      ++P;
      if (P == End || !isDigit(*P))
        return false;
      while (P != End && isDigit(*P))
        ++P;
    }
    if (P != End && (*P == 'e' || *P == 'E')) {
      ++P;
      HasExponent = true;
      if (P != End && (*P == '+' || *P == '-'))
        ++P;
      if (P == End || !isDigit(*P))
        return false;
      while (P != End && isDigit(*P))
        ++P;
    }
    // Only an exponent or hundreds of digits can overflow a double, which is
    // an error for parseRecordLine.
    if (!HasExponent && P - Start < 300)
      return true;
    std::string Text(Start, P);
    return std::isfinite(std::strtod(Text.c_str(), nullptr));
  }

  static bool isHex(char C) {
    return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
  }

  bool scanHex4(unsigned &Code) {
    if (End - P < 4)
      return false;
    Code = 0;
    for (int I = 0; I < 4; ++I, ++P) {
      if (!isHex(*P))
        return false;
      Code = Code * 16 + static_cast<unsigned>(
                             isDigit(*P) ? *P - '0' : (*P | 0x20) - 'a' + 10);
    }
    return true;
  }

  static void appendUtf8(std::string &Out, unsigned Code) {
    if (Code < 0x80) {
      Out += static_cast<char>(Code);
    } else if (Code < 0x800) {
      Out += static_cast<char>(0xC0 | (Code >> 6));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    } else if (Code < 0x10000) {
      Out += static_cast<char>(0xE0 | (Code >> 12));
      Out += static_cast<char>(0x80 | ((Code >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    } else {
      Out += static_cast<char>(0xF0 | (Code >> 18));
      Out += static_cast<char>(0x80 | ((Code >> 12) & 0x3F));
      Out += static_cast<char>(0x80 | ((Code >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    }
  }

  /// One well-formed UTF-8 sequence of two to four bytes (Unicode table 3-7).
  bool scanUtf8() {
    auto Byte = [](const char *C) { return static_cast<unsigned char>(*C); };
    unsigned char Lead = Byte(P);
    int Length;
    unsigned char Low = 0x80, High = 0xBF;
    if (Lead >= 0xC2 && Lead <= 0xDF) {
      Length = 2;
    } else if (Lead >= 0xE0 && Lead <= 0xEF) {
      Length = 3;
      if (Lead == 0xE0)
        Low = 0xA0;
      if (Lead == 0xED)
        High = 0x9F;
    } else if (Lead >= 0xF0 && Lead <= 0xF4) {
      Length = 4;
      if (Lead == 0xF0)
        Low = 0x90;
      if (Lead == 0xF4)
        High = 0x8F;
    } else {
      return false;
    }
    if (End - P < Length)
      return false;
    if (Byte(P + 1) < Low || Byte(P + 1) > High)
      return false;
    for (int I = 2; I < Length; ++I)
      if (Byte(P + I) < 0x80 || Byte(P + I) > 0xBF)
        return false;
    P += Length;
    return true;
  }

  /// Scans a string. When Out is not null and the string has an escape, it
  /// is decoded into Out and *Escaped is set.
  bool scanString(std::string *Out, bool *Escaped = nullptr) {
    ++P; // '"'
    const char *First = P;
    while (P != End && *P != '"' && *P != '\\' &&
           static_cast<unsigned char>(*P) >= 0x20 &&
           static_cast<unsigned char>(*P) < 0x80)
      ++P;
    if (P != End && *P == '"') {
      ++P;
      return true;
    }
    if (Out) {
      if (Escaped)
        *Escaped = true;
      Out->assign(First, P);
    }
    while (true) {
      const char *Run = P;
      while (P != End && *P != '"' && *P != '\\' &&
             static_cast<unsigned char>(*P) >= 0x20 &&
             static_cast<unsigned char>(*P) < 0x80)
        ++P;
      if (Out)
        Out->append(Run, P);
      if (P == End)
        return false;
      unsigned char C = static_cast<unsigned char>(*P);
      if (C == '"') {
        ++P;
        return true;
      }
      if (C < 0x20)
        return false;
      if (C >= 0x80) {
        const char *Seq = P;
        if (!scanUtf8())
          return false;
        if (Out)
          Out->append(Seq, P);
        continue;
      }
      // An escape.
      ++P;
      if (P == End)
        return false;
      char E = *P++;
      char Plain = 0;
      switch (E) {
      case '"':
      case '\\':
      case '/':
        Plain = E;
        break;
      case 'b':
        Plain = '\b';
        break;
      case 'f':
        Plain = '\f';
        break;
      case 'n':
        Plain = '\n';
        break;
      case 'r':
        Plain = '\r';
        break;
      case 't':
        Plain = '\t';
        break;
      case 'u': {
        unsigned Code;
        if (!scanHex4(Code))
          return false;
        if (Code >= 0xDC00 && Code <= 0xDFFF)
          return false;
        if (Code >= 0xD800 && Code <= 0xDBFF) {
          unsigned LowCode;
          if (End - P < 2 || P[0] != '\\' || P[1] != 'u')
            return false;
          P += 2;
          if (!scanHex4(LowCode) || LowCode < 0xDC00 || LowCode > 0xDFFF)
            return false;
          Code = 0x10000 + ((Code - 0xD800) << 10) + (LowCode - 0xDC00);
        }
        if (Out)
          appendUtf8(*Out, Code);
        continue;
      }
      default:
        return false;
      }
      if (Out)
        *Out += Plain;
    }
  }

  const char *P;
  const char *End;
  const FieldPaths &Paths;
  std::vector<std::string_view> Spans;
  std::string KeyBuffer;
};

/// An empty object with room for a few fields. The fields of an ordered_json
/// object live in a vector whose growth copies them (their keys are const),
/// so reserving matters on the hot path.
Json objectWithRoom(size_t Fields) {
  Json Object = Json::object();
  Object.get_ref<Json::object_t &>().reserve(Fields);
  return Object;
}

/// Sets Value at a dotted path, creating the objects on the way.
void setPath(Json &Root, std::string_view Path, Json Value) {
  Json *Node = &Root;
  while (true) {
    auto Dot = Path.find('.');
    std::string Key(Path.substr(0, Dot));
    if (Dot == std::string_view::npos) {
      (*Node)[Key] = std::move(Value);
      return;
    }
    Json &Child = (*Node)[Key];
    if (Child.is_null())
      Child = objectWithRoom(4);
    Node = &Child;
    Path = Path.substr(Dot + 1);
  }
}

/// The value of a span the scanner validated. Scalars, the common case, are
/// built directly; anything else goes through the JSON parser.
Json spanValue(std::string_view Span) {
  if (Span == "true" || Span == "false")
    return Json(Span == "true");
  if (Span == "null")
    return Json(nullptr);
  if (Span == "[]")
    return Json::array();
  if (Span == "{}")
    return Json::object();
  char First = Span.front();
  if (First == '"' && Span.find('\\') == std::string_view::npos)
    return Json(std::string(Span.substr(1, Span.size() - 2)));
  if (First == '-' || (First >= '0' && First <= '9')) {
    const char *End = Span.data() + Span.size();
    if (Span.find_first_of(".eE") == std::string_view::npos) {
      int64_t Integer;
      auto [Ptr, Ec] = std::from_chars(Span.data(), End, Integer);
      if (Ec == std::errc() && Ptr == End)
        return Json(Integer);
    } else {
      double Number;
      auto [Ptr, Ec] = std::from_chars(Span.data(), End, Number);
      if (Ec == std::errc() && Ptr == End)
        return Json(Number);
    }
  }
  return Json::parse(Span, nullptr, /*allow_exceptions=*/false);
}

} // namespace

FieldPaths::FieldPaths(std::vector<std::string> Wanted)
    : Paths(std::move(Wanted)) {
  assert(Paths.size() < 64 && "at most 63 field paths");
  for (const std::string &Path : Paths) {
    std::vector<std::string> Parts;
    size_t Start = 0;
    while (true) {
      size_t Dot = Path.find('.', Start);
      Parts.push_back(Path.substr(Start, Dot - Start));
      if (Dot == std::string::npos)
        break;
      Start = Dot + 1;
    }
    Components.push_back(std::move(Parts));
  }
  // The scanner also finds the schema version, at the last index.
  Components.push_back({SchemaVersionKey});
}

Expected<Json> parseRecordFields(std::string_view Line,
                                 const SourceLocation &Where,
                                 const FieldPaths &Wanted) {
  const std::vector<std::string> &Paths = Wanted.paths();
  FieldScanner Scanner(Line, Wanted);
  Json Fields = objectWithRoom(Paths.size());
  bool Scanned = Scanner.scan();
  const std::vector<std::string_view> &Spans = Scanner.spans();
  for (size_t I = 0; Scanned && I < Paths.size(); ++I) {
    if (Spans[I].empty())
      continue;
    Json Value = spanValue(Spans[I]);
    Scanned = !Value.is_discarded();
    setPath(Fields, Paths[I], std::move(Value));
  }
  if (!Scanned) {
    auto Full = parseRecordLine(Line, Where);
    if (!Full)
      return Full.error();
    Fields = Json::object();
    for (const std::string &Path : Paths)
      if (const Json *Field = findField(*Full, Path))
        setPath(Fields, Path, *Field);
    return Fields;
  }
  if (!Spans.back().empty() && Spans.back() != "1") {
    // Let parseRecordLine judge the version, with its messages.
    std::string Probe = "{\"";
    Probe += SchemaVersionKey;
    Probe += "\":";
    Probe += Spans.back();
    Probe += '}';
    auto Checked = parseRecordLine(Probe, Where);
    if (!Checked)
      return Checked.error();
  }
  return Fields;
}

} // namespace kevin
