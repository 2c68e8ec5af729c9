//===-- Finding.cpp - findings and the rule catalog -----------------------===//
//
// The table of implemented rules (expanded from Rules.def) and the text/JSON
// forms of a finding.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/Finding.h"

namespace kevin {

const std::vector<RuleInfo> &ruleCatalog() {
  static const std::vector<RuleInfo> Rules = {
#define RULE(Id, Kind, CatalogId, Summary, Hint, Cpu, Kevin, Strict)           \
  {Id, CatalogId, Summary, Hint, RuleKind::Kind},
#include "Rules.def"
  };
  return Rules;
}

const RuleInfo *findRule(const std::string &Id) {
  for (const RuleInfo &R : ruleCatalog())
    if (Id == R.Id)
      return &R;
  return nullptr;
}

Finding limitFinding(const Error &E, const LimitInfo &Limit,
                     const std::string &Path) {
  Finding F;
  F.Rule = Limit.Id;
  F.Sev = Severity::Error;
  F.Loc = E.location();
  if (F.Loc.File.empty())
    F.Loc.File = Path;
  F.Message = limitMessage(E);
  F.Hint = std::string("a check policy (--policy) raises the limit: "
                       "[limits] ") +
           Limit.Key + " = N";
  return F;
}

std::string formatFinding(const Finding &F) {
  std::string Text =
      formatDiagnostic(F.Loc, F.Sev, F.Message + " [" + F.Rule + "]");
  if (!F.Hint.empty())
    Text += "\n" + formatDiagnostic(F.Loc, Severity::Note, F.Hint);
  return Text;
}

Json findingToJson(const Finding &F) {
  Json J = Json::object();
  J["rule"] = F.Rule;
  J["catalog_id"] = F.CatalogId;
  J["severity"] = F.Sev == Severity::Warning ? "warning" : "error";
  J["file"] = F.Loc.File;
  J["line"] = F.Loc.Line;
  J["column"] = F.Loc.Column;
  J["message"] = F.Message;
  if (!F.Hint.empty())
    J["hint"] = F.Hint;
  return J;
}

Finding findingFromJson(const Json &J) {
  Finding F;
  F.Rule = J.value("rule", "");
  F.CatalogId = J.value("catalog_id", "");
  F.Sev = J.value("severity", "") == "warning" ? Severity::Warning
                                               : Severity::Error;
  F.Loc = {J.value("file", ""), J.value("line", 0u), J.value("column", 0u)};
  F.Message = J.value("message", "");
  F.Hint = J.value("hint", "");
  return F;
}

} // namespace kevin
