//===-- Markdown.cpp - a run report as a markdown summary -----------------===//
//
// GitHub-flavoured markdown tables of a run's configuration, main metrics,
// levels, tasks, RL signal, cost and flagged kernels, to paste into an issue
// or a paper's notes.
//
//===----------------------------------------------------------------------===//
#include "Formatting.h"
#include "kevin/Report/Format.h"

#include <sstream>

namespace kevin {

using namespace report;

std::string formatReportMarkdown(const RunReport &Report,
                                 const ReportOptions &Opts,
                                 const RunInfo &Info) {
  std::ostringstream Out;
  Out << "## kevin report: " << markdownCell(Info.Name) << "\n\n"
      << Report.Records << " records, " << Report.Tasks.size() << " tasks, "
      << Report.Overall.Trajectories << " trajectories, up to "
      << Report.Turns.size() << " turns"
      << (Report.Timed ? "." : "; never timed, so speedups are n/a.") << "\n\n"
      << settingsTable(Info).markdown() << "\n### Overall (mean over tasks)\n\n"
      << overallTable(Report, Opts).markdown();
  if (hasLevels(Report))
    Out << "\n### Per level\n\n" << levelTable(Report).markdown();
  Out << "\n### Per task\n\n" << taskTable(Report).markdown();
  const RLSignal &S = Report.Signal;
  Out << "\n### RL signal\n\n"
      << signalTable(Report).markdown()
      << "\nZero-variance groups: " << S.ZeroVarianceGroups << " of "
      << S.Groups << " (" << percent(S.zeroVarianceShare()) << ").\n";
  if (Table Cost = costTable(Report); !Cost.Rows.empty())
    Out << "\n### Cost by stage\n\n" << Cost.markdown();
  if (!Report.Flagged.empty())
    Out << "\n### Look at these (kevin-bench review flags)\n\n"
        << flaggedTable(Report).markdown();
  if (!Report.Failures.empty())
    Out << "\n### Failures by stage\n\n"
        << countTable("stage/outcome", Report.Failures).markdown();
  return Out.str();
}

std::string formatComparisonMarkdown(const RunComparison &C, const RunInfo &A,
                                     const RunInfo &B) {
  std::ostringstream Out;
  Out << "## kevin report: " << markdownCell(A.Name) << " (A) vs "
      << markdownCell(B.Name) << " (B)\n\n"
      << "Deltas are B - A; pp are percentage points.\n\n"
      << "### Overall (mean over tasks)\n\n"
      << comparisonTable(C.Overall).markdown();
  if (!C.Levels.empty())
    Out << "\n### Per level\n\n"
        << comparisonByTask(C.Levels, "level").markdown();
  Out << "\n### Per task\n\n" << comparisonByTask(C.Tasks, "task").markdown();
  return Out.str();
}

} // namespace kevin
