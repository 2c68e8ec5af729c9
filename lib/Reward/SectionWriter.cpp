//===-- SectionWriter.cpp - the text of a record section ------------------===//
//
// Number formatting with std::to_chars and the field separators.
//
//===----------------------------------------------------------------------===//
#include "kevin/Reward/SectionWriter.h"

#include <charconv>
#include <cmath>

namespace kevin {

/// The number of significant digits in a number printed by to_chars.
static size_t significantDigits(std::string_view Text) {
  size_t Digits = 0;
  bool Leading = true;
  for (char C : Text) {
    if (C == 'e')
      break;
    if (C < '0' || C > '9')
      continue;
    if (Leading && C == '0')
      continue;
    Leading = false;
    ++Digits;
  }
  return Digits;
}

void appendNumber(std::string &Out, double V) {
  if (!std::isfinite(V)) {
    Out += "null";
    return;
  }
  char Buffer[32];
  // The shortest form is fast and usually short; only a value that needs
  // more than 15 digits (0.1 + 0.2) is printed again at 15.
  auto [End, Ec] = std::to_chars(Buffer, Buffer + sizeof(Buffer), V);
  std::string_view Text(Buffer, static_cast<size_t>(End - Buffer));
  if (significantDigits(Text) > 15) {
    End = std::to_chars(Buffer, Buffer + sizeof(Buffer), V,
                        std::chars_format::general, 15)
              .ptr;
    Text = std::string_view(Buffer, static_cast<size_t>(End - Buffer));
  }
  Out += Text;
  if (Text.find_first_of(".e") == std::string_view::npos)
    Out += ".0";
}

void SectionWriter::key(std::string_view Key) {
  if (Text.size() > 1)
    Text += ',';
  Text += '"';
  Text += Key;
  Text += "\":";
}

SectionWriter &SectionWriter::number(std::string_view Key, double V) {
  key(Key);
  appendNumber(Text, V);
  return *this;
}

SectionWriter &SectionWriter::integer(std::string_view Key, int64_t V) {
  key(Key);
  Text += std::to_string(V);
  return *this;
}

SectionWriter &SectionWriter::boolean(std::string_view Key, bool V) {
  key(Key);
  Text += V ? "true" : "false";
  return *this;
}

SectionWriter &SectionWriter::null(std::string_view Key) {
  key(Key);
  Text += "null";
  return *this;
}

SectionWriter &SectionWriter::raw(std::string_view Key,
                                  std::string_view JsonText) {
  key(Key);
  Text += JsonText;
  return *this;
}

std::string SectionWriter::finish() {
  Text += '}';
  return std::move(Text);
}

} // namespace kevin
