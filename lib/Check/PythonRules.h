//===-- PythonRules.h - factories of the Python rules -----------*- C++ -*-===//
//
// Private to lib/Check: one factory per rule class, each defined in the
// rule's own file.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_CHECK_PYTHONRULES_H
#define KEVIN_LIB_CHECK_PYTHONRULES_H

#include "kevin/Check/PythonRule.h"

namespace kevin {

std::unique_ptr<PythonRule> createModelShapeRule();
std::unique_ptr<PythonRule> createReferenceNameRule();
std::unique_ptr<PythonRule> createTryExceptRule();
std::unique_ptr<PythonRule> createPyPrecisionDowncastRule();
std::unique_ptr<PythonRule> createImportRule();
std::unique_ptr<PythonRule> createDynamicCodeRule();
std::unique_ptr<PythonRule> createForbiddenAttributeRule();
std::unique_ptr<PythonRule> createMonkeyPatchRule();
std::unique_ptr<PythonRule> createMagicMethodRule();
std::unique_ptr<PythonRule> createForwardComputeRule();
std::unique_ptr<PythonRule> createLoadInlineRule();
std::unique_ptr<PythonRule> createReturnProvenanceRule();
std::unique_ptr<PythonRule> createCrossCallStateRule();
std::unique_ptr<PythonRule> createTopLevelRule();
std::unique_ptr<PythonRule> createInitPrecomputeRule();

} // namespace kevin

#endif // KEVIN_LIB_CHECK_PYTHONRULES_H
