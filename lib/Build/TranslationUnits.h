//===-- TranslationUnits.h - the split binding unit -------------*- C++ -*-===//
//
// Private to lib/Build: the binding unit of a load_inline extension split
// in two units, compiled side by side (writeTranslationUnits, in
// kevin/Build/Builder.h, writes the units as load_inline would).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_TRANSLATIONUNITS_H
#define KEVIN_LIB_BUILD_TRANSLATIONUNITS_H

#include "kevin/Build/Builder.h"

#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// The binding unit split in two, to be compiled side by side: the
/// candidate's code (load_inline's unit without the binding) followed by a
/// check, and a unit of kevin's text holding the bound functions'
/// prototypes and the binding. The binding calls each function through a
/// pointer the candidate's unit defines as `&::f`, so it binds exactly what
/// load_inline's binding would after the candidate's code (macros and
/// linkage included). The checks make either unit fail unless each
/// prototype means the same in both: no word of it is a macro in either,
/// and it names the one function `f` (same type, no overloads).
struct BindingSplitUnits {
  TranslationUnit Candidate;
  std::string BindingText;
  /// The bound functions' prototypes, in the binding's order.
  std::vector<std::string> Prototypes;
};

/// The split of Main (the binding unit); none when nothing is bound, or a
/// bound function has no prototype another unit could use. CandidateCpp is
/// the candidate's C++ sources, joined as in Main.
std::optional<BindingSplitUnits> splitBinding(const ExtensionSpec &Spec,
                                              const TranslationUnit &Main,
                                              const std::string &CandidateCpp);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_TRANSLATIONUNITS_H
