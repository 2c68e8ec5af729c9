//===-- Compare.cpp - trusted comparison of outputs -----------------------===//
//
// All arithmetic is done in float64 on CPU copies, so a float16 output is
// judged with the same formula as a float32 one; LibTorch exceptions stop
// here and become outcomes or Errors.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Compare.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

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
      bool RAllFinite = at::isfinite(R).all().item<bool>();
      bool CAllFinite = RAllFinite ? at::isfinite(C).all().item<bool>() : false;
      at::Tensor RNonFinite;
      if (!RAllFinite || !CAllFinite) {
        at::Tensor RFinite = at::isfinite(R), CFinite = at::isfinite(C);
        at::Tensor BadNonFinite = RFinite.logical_and(CFinite.logical_not());
        if (BadNonFinite.any().item<bool>()) {
          int64_t Count = BadNonFinite.sum().item<int64_t>();
          Result.Result = Outcome::Nan;
          Result.Message = Which + std::to_string(Count) +
                           " NaN/Inf values where the reference is finite";
          Result.MaxAbsError = Result.MaxRelError = INFINITY;
          return Result;
        }
        // Where the reference is not finite, the candidate must match it.
        RNonFinite = RFinite.logical_not();
        at::Tensor Same = at::where(at::isnan(R), at::isnan(C), R.eq(C));
        if (Same.logical_or(RFinite).logical_not().any().item<bool>()) {
          Result.Result = Outcome::Mismatch;
          Result.Message = Which + "NaN/Inf positions differ from the reference";
          return Result;
        }
      }
      at::Tensor Diff = (C - R).abs_();
      at::Tensor AbsR = R.abs();
      if (RNonFinite.defined()) {
        Diff.masked_fill_(RNonFinite, 0);
        AbsR.masked_fill_(RNonFinite, 0);
      }
      Tolerance Tol = Tolerances.forDtype(dtypeName(Reference[I]));
      double Atol = Tol.Atol;
      if (ScaleAware) {
        double Rms = AbsR.to(at::kDouble).pow(2).mean().sqrt().item<double>();
        Atol = Tol.Atol * Rms;
      }
      double MaxAbs = Diff.max().item<double>();
      double MaxRel = (Diff / AbsR.clamp_min(Tol.Atol)).max().item<double>();
      Result.MaxAbsError = std::max(Result.MaxAbsError, MaxAbs);
      Result.MaxRelError = std::max(Result.MaxRelError, MaxRel);
      at::Tensor Bad = Diff.gt(AbsR * Tol.Rtol + Atol);
      if (Bad.any().item<bool>() && Result.Result == Outcome::Ok) {
        int64_t Count = Bad.sum().item<int64_t>();
        Result.Result = Outcome::Mismatch;
        Result.Message =
            Which + std::to_string(Count) + " of " + std::to_string(R.numel()) +
            " elements outside tolerance (max abs error " + number(MaxAbs) +
            ", atol " + number(Atol) + ", rtol " + number(Tol.Rtol) + ")";
      }
    }
  } catch (const std::exception &E) {
    Result.Result = Outcome::Mismatch;
    Result.Message = std::string("cannot compare outputs: ") + E.what();
  }
  return Result;
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
        if (!at::isfinite(R).all().item<bool>())
          return false;
        Tolerance Tol = Tolerances.forDtype(dtypeName(Ref));
        at::Tensor Limit = R.abs().mul_(Tol.Rtol).add_(Tol.Atol);
        if (ZerosPass)
          ZerosPass = R.abs().le(Limit).all().item<bool>();
        if (ConstantPass) {
          double Mean = R.to(at::kDouble).mean().item<double>();
          ConstantPass = (R - Mean).abs_().le(Limit).all().item<bool>();
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
      at::Tensor X = A[I].contiguous(), Y = B[I].contiguous();
      if (std::memcmp(X.data_ptr(), Y.data_ptr(), X.nbytes()) != 0)
        return false;
    }
  } catch (const std::exception &) {
    return false;
  }
  return true;
}

Expected<std::vector<at::Tensor>> readTensorFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary | std::ios::ate);
  if (!In)
    return Error::inFile(Path, "cannot open tensor file");
  // One read of the whole file (tensor files run to gigabytes).
  std::vector<char> Bytes(static_cast<size_t>(In.tellg()));
  In.seekg(0);
  In.read(Bytes.data(), static_cast<std::streamsize>(Bytes.size()));
  if (!In)
    return Error::inFile(Path, "cannot read tensor file");
  try {
    c10::IValue Value = torch::jit::pickle_load(Bytes);
    std::vector<at::Tensor> Tensors;
    for (const c10::IValue &Item : Value.toListRef())
      Tensors.push_back(Item.toTensor());
    return Tensors;
  } catch (const std::exception &E) {
    return Error::inFile(Path,
                         std::string("malformed tensor file: ") + E.what());
  }
}

Error writeTensorFile(const std::string &Path,
                      const std::vector<at::Tensor> &Tensors) {
  try {
    c10::List<at::Tensor> List;
    for (const at::Tensor &T : Tensors)
      List.push_back(T.device().is_cpu() ? T : T.to(at::kCPU));
    std::vector<char> Bytes = torch::jit::pickle_save(c10::IValue(List));
    std::string Tmp = Path + ".tmp";
    std::ofstream Out(Tmp, std::ios::binary);
    Out.write(Bytes.data(), static_cast<std::streamsize>(Bytes.size()));
    Out.close();
    if (!Out || std::rename(Tmp.c_str(), Path.c_str()) != 0)
      return Error::inFile(Path, "cannot write tensor file");
  } catch (const std::exception &E) {
    return Error::inFile(Path, std::string("cannot save tensors: ") + E.what());
  }
  return Error::success();
}

} // namespace kevin
