//===-- Compare.cpp - trusted comparison of outputs -----------------------===//
//
// All arithmetic is done in float64 on CPU copies, so a float16 output is
// judged with the same formula as a float32 one; LibTorch exceptions stop
// here and become outcomes or Errors.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Compare.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace kevin {

namespace {

std::string shapeText(const at::Tensor &T) {
  std::string S = "[";
  for (int64_t I = 0; I < T.dim(); ++I)
    S += (I ? ", " : "") + std::to_string(T.size(I));
  return S + "]";
}

std::string number(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "%.4g", V);
  return Buffer;
}

/// What compareTrial needs of one output, from one pass over both sides
/// (no temporaries: gpu-profile outputs run to hundreds of megabytes).
struct OutputScan {
  int64_t BadNonFinite = 0;     ///< reference finite, candidate NaN/Inf
  int64_t NonFiniteDiffer = 0;  ///< reference NaN/Inf, candidate different
  int64_t OutsideTolerance = 0; ///< |c - r| > |r| * rtol + atol
  double MaxAbs = 0, MaxRel = 0;
  double SumSquares = 0; ///< of the finite reference values
  double SumSquaredErrors = 0; ///< of c - r where both are finite
  void add(const OutputScan &O) {
    BadNonFinite += O.BadNonFinite;
    NonFiniteDiffer += O.NonFiniteDiffer;
    OutsideTolerance += O.OutsideTolerance;
    // NaN (0/0 relative errors with atol 0) wins, as in a tensor max.
    MaxAbs = std::isnan(O.MaxAbs) || O.MaxAbs > MaxAbs ? O.MaxAbs : MaxAbs;
    MaxRel = std::isnan(O.MaxRel) || O.MaxRel > MaxRel ? O.MaxRel : MaxRel;
    SumSquares += O.SumSquares;
    SumSquaredErrors += O.SumSquaredErrors;
  }
};

/// Scans contiguous R and C of element type T (float or double) in chunks
/// spread over ATen's threads; arithmetic in T, as tensor ops would do it.
template <typename T>
OutputScan scanOutputs(const at::Tensor &R, const at::Tensor &C,
                       const Tolerance &Tol, double Atol) {
  const T *RData = R.data_ptr<T>(), *CData = C.data_ptr<T>();
  const int64_t N = R.numel();
  const int64_t Chunk = 1 << 16;
  const int64_t Chunks = (N + Chunk - 1) / Chunk;
  const T Rtol = static_cast<T>(Tol.Rtol), Abs = static_cast<T>(Atol),
          RelFloor = static_cast<T>(Tol.Atol);
  std::vector<OutputScan> Partial(static_cast<size_t>(Chunks));
  at::parallel_for(0, Chunks, 1, [&](int64_t Begin, int64_t End) {
    for (int64_t K = Begin; K < End; ++K) {
      OutputScan S;
      T MaxAbs = 0, MaxRel = 0;
      bool RelNan = false;
      for (int64_t E = K * Chunk, Last = std::min(N, E + Chunk); E < Last;
           ++E) {
        T Ref = RData[E], Cand = CData[E];
        if (!std::isfinite(Ref)) {
          bool Same = std::isnan(Ref) ? std::isnan(Cand) : Cand == Ref;
          S.NonFiniteDiffer += !Same;
          continue;
        }
        if (!std::isfinite(Cand)) {
          ++S.BadNonFinite;
          continue;
        }
        T AbsRef = std::abs(Ref), Diff = std::abs(Cand - Ref);
        S.SumSquares += static_cast<double>(AbsRef) * AbsRef;
        S.SumSquaredErrors += static_cast<double>(Diff) * Diff;
        MaxAbs = std::max(MaxAbs, Diff);
        T Rel = Diff / std::max(AbsRef, RelFloor);
        RelNan |= std::isnan(Rel);
        MaxRel = std::max(MaxRel, Rel);
        S.OutsideTolerance += Diff > AbsRef * Rtol + Abs;
      }
      S.MaxAbs = MaxAbs;
      S.MaxRel = RelNan ? NAN : static_cast<double>(MaxRel);
      Partial[static_cast<size_t>(K)] = S;
    }
  });
  OutputScan Total;
  for (const OutputScan &S : Partial)
    Total.add(S);
  return Total;
}

/// Whether every element of R (float or double) is finite, without the
/// boolean temporary of at::isfinite.
bool allFinite(const at::Tensor &R) {
  at::Tensor C = R.contiguous();
  std::atomic<bool> Finite{true};
  AT_DISPATCH_FLOATING_TYPES(C.scalar_type(), "allFinite", [&] {
    const scalar_t *Data = C.data_ptr<scalar_t>();
    at::parallel_for(0, C.numel(), 1 << 16, [&](int64_t Begin, int64_t End) {
      for (int64_t E = Begin; E < End && Finite.load(std::memory_order_relaxed);
           E += 4096) {
        bool Chunk = true;
        for (int64_t K = E, Last = std::min(End, E + 4096); K < Last; ++K)
          Chunk &= std::isfinite(Data[K]);
        if (!Chunk)
          Finite = false;
      }
    });
  });
  return Finite;
}

} // namespace

Tolerance ToleranceTable::forDtype(const std::string &Dtype) const {
  auto It = PerDtype.find(Dtype);
  return It == PerDtype.end() ? Default : It->second;
}

Error ToleranceTable::addSpec(const std::string &Spec) {
  size_t Eq = Spec.find('='), Comma = Spec.find(',');
  if (Eq == std::string::npos || Comma == std::string::npos || Comma < Eq)
    return Error::make("tolerance '" + Spec + "' is not 'dtype=atol,rtol'");
  try {
    Tolerance T;
    T.Atol = std::stod(Spec.substr(Eq + 1, Comma - Eq - 1));
    T.Rtol = std::stod(Spec.substr(Comma + 1));
    PerDtype[Spec.substr(0, Eq)] = T;
  } catch (const std::exception &) {
    return Error::make("tolerance '" + Spec + "' has a bad number");
  }
  return Error::success();
}

std::string dtypeName(const at::Tensor &T) {
  switch (T.scalar_type()) {
  case at::kFloat:
    return "float32";
  case at::kDouble:
    return "float64";
  case at::kHalf:
    return "float16";
  case at::kBFloat16:
    return "bfloat16";
  case at::kLong:
    return "int64";
  case at::kInt:
    return "int32";
  case at::kShort:
    return "int16";
  case at::kChar:
    return "int8";
  case at::kByte:
    return "uint8";
  case at::kBool:
    return "bool";
  case at::kComplexFloat:
    return "complex64";
  case at::kComplexDouble:
    return "complex128";
  default:
    return c10::toString(T.scalar_type());
  }
}

TrialComparison compareTrial(const std::vector<at::Tensor> &Reference,
                             const std::vector<at::Tensor> &Candidate,
                             const ToleranceTable &Tolerances,
                             bool ScaleAware) {
  TrialComparison Result;
  try {
    for (size_t I = 0; I < Reference.size() && I < Candidate.size(); ++I) {
      const at::Tensor &R = Reference[I], &C = Candidate[I];
      std::string Which =
          Reference.size() > 1 ? "output " + std::to_string(I) + ": " : "";
      if (C.scalar_type() != R.scalar_type()) {
        Result.Result = Outcome::DtypeMismatch;
        Result.Message =
            Which + "dtype " + dtypeName(C) + ", expected " + dtypeName(R);
        return Result;
      }
      if (!C.sizes().equals(R.sizes())) {
        Result.Result = Outcome::ShapeMismatch;
        Result.Message =
            Which + "shape " + shapeText(C) + ", expected " + shapeText(R);
        return Result;
      }
    }
    for (size_t I = 0; I < Reference.size() && I < Candidate.size(); ++I) {
      std::string Which =
          Reference.size() > 1 ? "output " + std::to_string(I) + ": " : "";
      bool Complex = Reference[I].is_complex();
      at::Tensor R = Complex ? at::view_as_real(Reference[I]) : Reference[I];
      at::Tensor C = Complex ? at::view_as_real(Candidate[I]) : Candidate[I];
      Result.ErrorNorms.push_back(NAN);
      // Errors in float32 for float32 and narrower floats (their rounding
      // is far below any tolerance), double otherwise; no copy when the
      // outputs already have that type.
      at::ScalarType Work = R.is_floating_point() &&
                                    R.scalar_type() != at::kDouble
                                ? at::kFloat
                                : at::kDouble;
      R = R.to(Work);
      C = C.to(Work);
      if (R.numel() == 0)
        continue;
      R = R.contiguous();
      C = C.contiguous();
      Tolerance Tol = Tolerances.forDtype(dtypeName(Reference[I]));
      OutputScan Scan = Work == at::kFloat
                            ? scanOutputs<float>(R, C, Tol, Tol.Atol)
                            : scanOutputs<double>(R, C, Tol, Tol.Atol);
      if (Scan.BadNonFinite > 0) {
        Result.Result = Outcome::Nan;
        Result.Message = Which + std::to_string(Scan.BadNonFinite) +
                         " NaN/Inf values where the reference is finite";
        Result.MaxAbsError = Result.MaxRelError = INFINITY;
        return Result;
      }
      if (Scan.NonFiniteDiffer > 0) {
        Result.Result = Outcome::Mismatch;
        Result.Message = Which + "NaN/Inf positions differ from the reference";
        return Result;
      }
      double Atol = Tol.Atol;
      if (ScaleAware) {
        // Scaled by the reference's RMS (non-finite positions count as 0).
        Atol = Tol.Atol * std::sqrt(Scan.SumSquares / R.numel());
        Scan = Work == at::kFloat ? scanOutputs<float>(R, C, Tol, Atol)
                                  : scanOutputs<double>(R, C, Tol, Atol);
      }
      Result.ErrorNorms.back() = std::sqrt(Scan.SumSquaredErrors);
      Result.MaxAbsError = std::max(Result.MaxAbsError, Scan.MaxAbs);
      Result.MaxRelError = std::max(Result.MaxRelError, Scan.MaxRel);
      if (Scan.OutsideTolerance > 0 && Result.Result == Outcome::Ok) {
        Result.Result = Outcome::Mismatch;
        Result.Message = Which + std::to_string(Scan.OutsideTolerance) +
                         " of " + std::to_string(R.numel()) +
                         " elements outside tolerance (max abs error " +
                         number(Scan.MaxAbs) + ", atol " + number(Atol) +
                         ", rtol " + number(Tol.Rtol) + ")";
      }
    }
  } catch (const std::exception &E) {
    Result.Result = Outcome::Mismatch;
    Result.Message = std::string("cannot compare outputs: ") + E.what();
  }
  return Result;
}

std::string precisionExcess(double CandidateError, double ReferenceError,
                            double Norm, const PrecisionBudget &Budget) {
  if (Budget.Factor <= 0 || !std::isfinite(CandidateError) ||
      !std::isfinite(ReferenceError) || !(Norm > 0))
    return "";
  double AtLeast = CandidateError - ReferenceError;
  double Allowed = Budget.Factor * ReferenceError + Budget.Floor * Norm;
  if (AtLeast <= Allowed)
    return "";
  return "error against a float64 reference of at least " +
         number(AtLeast / Norm) + " (relative L2), over the budget of " +
         number(Budget.Factor) + " x the float32 reference's own error (" +
         number(ReferenceError / Norm) + ") + " + number(Budget.Floor) +
         ": the kernel computes in lower precision than the task "
         "[KEVIN-RT-023]";
}

bool trivialOutputWouldPass(
    const std::vector<std::vector<at::Tensor>> &ReferenceTrials,
    const ToleranceTable &Tolerances) {
  if (ReferenceTrials.empty())
    return false;
  bool ZerosPass = true, ConstantPass = true;
  try {
    for (const std::vector<at::Tensor> &Trial : ReferenceTrials) {
      for (const at::Tensor &Ref : Trial) {
        if (!Ref.is_floating_point() || Ref.numel() == 0)
          return false;
        at::Tensor R =
            Ref.to(Ref.scalar_type() == at::kDouble ? at::kDouble : at::kFloat);
        if (!allFinite(R))
          return false;
        Tolerance Tol = Tolerances.forDtype(dtypeName(Ref));
        double Mean = R.sum(at::kDouble).item<double>() / R.numel();
        // A trivial output that fails on the first elements fails: look
        // there first, then (rarely needed) at the whole output.
        at::Tensor Flat = R.reshape({-1});
        for (at::Tensor Part : {Flat.slice(0, 0, 4096), Flat}) {
          at::Tensor Limit = Part.abs().mul_(Tol.Rtol).add_(Tol.Atol);
          if (ZerosPass)
            ZerosPass = Part.abs().le(Limit).all().item<bool>();
          if (ConstantPass)
            ConstantPass = (Part - Mean).abs_().le(Limit).all().item<bool>();
          if (!ZerosPass && !ConstantPass)
            break;
        }
        // Real tasks fail both on their first output: stop there.
        if (!ZerosPass && !ConstantPass)
          return false;
      }
    }
  } catch (const std::exception &) {
    return false;
  }
  return ZerosPass || ConstantPass;
}

bool sameBits(const std::vector<at::Tensor> &A,
              const std::vector<at::Tensor> &B) {
  if (A.size() != B.size())
    return false;
  try {
    for (size_t I = 0; I < A.size(); ++I) {
      if (A[I].scalar_type() != B[I].scalar_type() ||
          !A[I].sizes().equals(B[I].sizes()))
        return false;
      if (A[I].is_cpu() && B[I].is_cpu()) {
        at::Tensor X = A[I].contiguous(), Y = B[I].contiguous();
        if (std::memcmp(X.data_ptr(), Y.data_ptr(), X.nbytes()) != 0)
          return false;
        continue;
      }
      // On the device that holds one of them, as bytes (NaN equals NaN).
      at::Device On = A[I].is_cpu() ? B[I].device() : A[I].device();
      auto bytes = [On](const at::Tensor &T) {
        return T.to(On)
            .resolve_conj()
            .resolve_neg()
            .contiguous()
            .view({-1})
            .view(at::kByte);
      };
      if (A[I].numel() > 0 && !at::equal(bytes(A[I]), bytes(B[I])))
        return false;
    }
  } catch (const std::exception &) {
    return false;
  }
  return true;
}

} // namespace kevin
