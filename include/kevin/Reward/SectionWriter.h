//===-- kevin/Reward/SectionWriter.h - record section text ------*- C++ -*-===//
//
// kevin-reward and kevin-grpo write one small section per record, a million
// records a run. SectionWriter builds the section's JSON text field by field,
// without a JSON tree. Numbers print with 15 significant digits (1.42, not
// 1.4200000000000002); a non-finite number prints as null.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REWARD_SECTIONWRITER_H
#define KEVIN_REWARD_SECTIONWRITER_H

#include <cstdint>
#include <string>
#include <string_view>

namespace kevin {

/// Appends V to Out as JSON with 15 significant digits, and a ".0" when it
/// reads as an integer (a double stays a double for readers).
void appendNumber(std::string &Out, double V);

/// Builds a JSON object. Keys are plain identifiers written as they are.
class SectionWriter {
public:
  SectionWriter() : Text("{") {}
  SectionWriter &number(std::string_view Key, double V);
  SectionWriter &integer(std::string_view Key, int64_t V);
  SectionWriter &boolean(std::string_view Key, bool V);
  SectionWriter &null(std::string_view Key);
  /// A value that is already JSON text.
  SectionWriter &raw(std::string_view Key, std::string_view JsonText);
  /// Closes the object and returns its text.
  std::string finish();

private:
  void key(std::string_view Key);
  std::string Text;
};

} // namespace kevin

#endif // KEVIN_REWARD_SECTIONWRITER_H
