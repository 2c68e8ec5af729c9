//===-- Returns.cpp - discounted per-turn returns -------------------------===//
//
// Both forms are computed backwards in one pass: R_t = S_t + gamma * R_{t+1}
// and, since gamma >= 0, R_t = max(S_t, gamma * R_{t+1}).
//
//===----------------------------------------------------------------------===//
#include "kevin/Reward/Returns.h"

#include <algorithm>
#include <cassert>

namespace kevin {

const char *returnModeName(ReturnMode Mode) {
  return Mode == ReturnMode::Sum ? "sum" : "max";
}

std::vector<double> discountedReturns(const std::vector<double> &Scores,
                                      ReturnMode Mode, double Gamma) {
  assert(Gamma >= 0 && "the discount must not be negative");
  std::vector<double> Returns(Scores.size());
  for (size_t I = Scores.size(); I-- > 0;) {
    if (I + 1 == Scores.size()) {
      Returns[I] = Scores[I];
      continue;
    }
    double Later = Gamma * Returns[I + 1];
    Returns[I] = Mode == ReturnMode::Sum ? Scores[I] + Later
                                         : std::max(Scores[I], Later);
  }
  return Returns;
}

} // namespace kevin
