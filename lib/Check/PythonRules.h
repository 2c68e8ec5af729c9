//===-- PythonRules.h - factories of the Python rules -----------*- C++ -*-===//
//
// Private to lib/Check: one factory per rule class, each defined in the
// rule's own file and declared here from the PYTHON_RULE rows of Rules.def.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_CHECK_PYTHONRULES_H
#define KEVIN_LIB_CHECK_PYTHONRULES_H

#include "kevin/Check/PythonRule.h"

namespace kevin {

#define PYTHON_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict) \
  std::unique_ptr<PythonRule> Factory();
#include "Rules.def"

} // namespace kevin

#endif // KEVIN_LIB_CHECK_PYTHONRULES_H
