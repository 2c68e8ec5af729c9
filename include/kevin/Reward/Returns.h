//===-- kevin/Reward/Returns.h - discounted per-turn returns ----*- C++ -*-===//
//
// Kevin's credit assignment over the n turns of one trajectory: the return
// of turn t is the discounted sum R_t = sum_{i>=t} gamma^(i-t) S_i or the
// discounted max R_t = max_{i>=t} gamma^(i-t) S_i of the scores from t on.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REWARD_RETURNS_H
#define KEVIN_REWARD_RETURNS_H

#include <vector>

namespace kevin {

enum class ReturnMode { Sum, Max };

/// "sum" or "max".
const char *returnModeName(ReturnMode Mode);

/// The returns of Scores[0..n) (turn 1 first). Gamma must be >= 0, which
/// makes the max form computable backwards like the sum.
std::vector<double> discountedReturns(const std::vector<double> &Scores,
                                      ReturnMode Mode, double Gamma);

} // namespace kevin

#endif // KEVIN_REWARD_RETURNS_H
