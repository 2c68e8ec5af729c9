//===-- kevin/Build/LaunchGate.h - gated candidate launches ----*- C++ -*-===//
//
// KEVIN-RT-010 (ghost replay) needs to run a candidate's forward with its
// own kernels not launched. kevin links every CUDA extension it builds with
// a small gate: each CUDA launch entry point the candidate's objects call
// (the launch nvcc's `<<<...>>>` compiles to, the runtime's and the driver's
// launch functions, graph launches) is renamed by the linker (`--wrap`) to
// the gate's function, which launches nothing and counts when the process
// asks for it (kevin-worker exports `kevin_skip_candidate_launches`), and
// otherwise passes the launch on unchanged. The lookups that hand out entry
// points by name (dlsym, cuGetProcAddress, cudaGetDriverEntryPoint) are
// wrapped too: for a gated name they hand out the gate's function. torch's own
// launches (ATen, cuBLAS, cuDNN) are in torch's libraries and never pass the
// gate.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BUILD_LAUNCHGATE_H
#define KEVIN_BUILD_LAUNCHGATE_H

#include <string>
#include <vector>

namespace kevin {

/// The gate's C++ source: no header of CUDA's or torch's, so any host
/// compiler builds it in well under a second.
const std::string &launchGateSource();

/// The linker flags that route the extension's launches and lookups through
/// the gate: one `-Wl,--wrap=` per wrapped function.
std::vector<std::string> launchGateLinkFlags();

/// The first name of the gate's own (its switch and counter, a `__wrap_` or
/// `__real_` symbol) that Code (a candidate's source) spells outside
/// comments, or "" when none: a candidate's definition of the switch would
/// bind the gate to it, and a `__real_` call would launch past the gate.
/// The early, readable check; launchGateBypass is the one spelling cannot
/// get around.
std::string reservedLaunchGateName(const std::string &Code);

/// The first symbol of a candidate's object that would take a launch past
/// the gate, from its symbol table as `nm -P` prints it, or "" when none: a
/// versioned reference (`dlsym@GLIBC_2.34`, made with `.symver`, which
/// --wrap does not rename), a reference to a `__real_` symbol or to the
/// gate's switch (which would bind to kevin-worker's), or a definition of
/// the switch or of a `__wrap_` function.
std::string launchGateBypass(const std::string &SymbolTable);

} // namespace kevin

#endif // KEVIN_BUILD_LAUNCHGATE_H
