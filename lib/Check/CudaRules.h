//===-- CudaRules.h - factories of the CUDA rules ---------------*- C++ -*-===//
//
// Private to lib/Check: one factory per rule class, each defined in the
// rule's own file.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_CHECK_CUDARULES_H
#define KEVIN_LIB_CHECK_CUDARULES_H

#include "kevin/Check/CudaRule.h"

namespace kevin {

std::unique_ptr<CudaRule> createNoKernelRule();
std::unique_ptr<CudaRule> createEntryLaunchRule();
std::unique_ptr<CudaRule> createAtenComputeRule();
std::unique_ptr<CudaRule> createLibraryRule();
std::unique_ptr<CudaRule> createRuntimeControlRule();
std::unique_ptr<CudaRule> createProcessRule();
std::unique_ptr<CudaRule> createStaticStateRule();
std::unique_ptr<CudaRule> createTryCatchRule();
std::unique_ptr<CudaRule> createForeignSymbolRule();
std::unique_ptr<CudaRule> createInputMutationRule();
std::unique_ptr<CudaRule> createCuPrecisionDowncastRule();
std::unique_ptr<CudaRule> createShapeGateRule();

} // namespace kevin

#endif // KEVIN_LIB_CHECK_CUDARULES_H
