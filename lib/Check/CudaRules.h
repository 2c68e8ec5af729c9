//===-- CudaRules.h - factories of the CUDA rules ---------------*- C++ -*-===//
//
// Private to lib/Check: one factory per rule class, each defined in the
// rule's own file and declared here from the CUDA_RULE rows of Rules.def.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_CHECK_CUDARULES_H
#define KEVIN_LIB_CHECK_CUDARULES_H

#include "kevin/Check/CudaRule.h"

namespace kevin {

#define CUDA_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict)   \
  std::unique_ptr<CudaRule> Factory();
#include "Rules.def"

} // namespace kevin

#endif // KEVIN_LIB_CHECK_CUDARULES_H
