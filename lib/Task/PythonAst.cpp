//===-- PythonAst.cpp - CPython's ast as JSON -----------------------------===//
//
// Starts an isolated embedded interpreter (no site, no user paths, no signal
// handlers), loads the parse-only script ast_dump.py (compiled into the
// binary) and calls it for each text. Candidate code is never executed.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/PythonAst.h"

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <mutex>
#include <new>

namespace kevin {

namespace {

const char AstDumpScript[] =
#include "AstDumpScript.inc"
    ;

struct Interpreter {
  PyObject *Dump = nullptr;
  std::string StartError;
};

Interpreter &interpreter() {
  static Interpreter Interp;
  static std::once_flag Once;
  std::call_once(Once, [] {
    PyConfig Config;
    PyConfig_InitIsolatedConfig(&Config);
    Config.site_import = 0;
    Config.install_signal_handlers = 0;
    Config.write_bytecode = 0;
    Config.user_site_directory = 0;
    PyStatus Status = Py_InitializeFromConfig(&Config);
    PyConfig_Clear(&Config);
    if (PyStatus_Exception(Status)) {
      Interp.StartError = std::string("cannot start the embedded Python: ") +
                          (Status.err_msg ? Status.err_msg : "unknown error");
      return;
    }
    PyObject *Globals = PyDict_New();
    PyDict_SetItemString(Globals, "__builtins__", PyEval_GetBuiltins());
    PyObject *Result =
        PyRun_String(AstDumpScript, Py_file_input, Globals, Globals);
    if (!Result) {
      PyErr_Clear();
      Interp.StartError = "cannot load the embedded ast_dump script";
      return;
    }
    Py_DECREF(Result);
    Interp.Dump = PyDict_GetItemString(Globals, "kevin_dump");
    Py_XINCREF(Interp.Dump);
    if (!Interp.Dump)
      Interp.StartError = "the embedded ast_dump script has no kevin_dump";
  });
  return Interp;
}

} // namespace

void startPythonParser() { interpreter(); }

void pythonAfterFork() {
  if (Py_IsInitialized())
    PyOS_AfterFork_Child();
}

Expected<PyNode> parsePythonAst(const std::string &Text,
                                const std::string &Name,
                                const CandidateLimits &Limits) {
  Interpreter &Interp = interpreter();
  if (!Interp.Dump)
    return Error::make(Interp.StartError);
  PyObject *Result = PyObject_CallFunction(
      Interp.Dump, "s#KK", Text.data(), static_cast<Py_ssize_t>(Text.size()),
      static_cast<unsigned long long>(Limits[LimitKind::AstNodes]),
      static_cast<unsigned long long>(Limits[LimitKind::NestingDepth]));
  if (!Result) {
    bool OutOfMemory = PyErr_ExceptionMatches(PyExc_MemoryError);
    PyErr_Clear();
    if (OutOfMemory)
      throw std::bad_alloc();
    return Error::inFile(Name, "the Python parser failed on this file");
  }
  Py_ssize_t Size = 0;
  const char *Data = PyUnicode_AsUTF8AndSize(Result, &Size);
  if (!Data) {
    PyErr_Clear();
    Py_DECREF(Result);
    return Error::inFile(Name, "the Python parser returned no text");
  }
  PyNode Reply = PyNode::parse(Data, Data + Size, nullptr, false);
  Py_DECREF(Result);
  if (Reply.is_discarded() || !Reply.is_object())
    return Error::inFile(Name, "the Python parser returned malformed JSON");
  if (Reply.contains("error")) {
    unsigned Line = Reply.value("line", 1u);
    unsigned Col = Reply.value("col", 1u);
    SourceLocation Loc{Name, Line, Col == 0 ? 1 : Col};
    std::string Message = Reply["error"].get<std::string>();
    if (const LimitInfo *Limit = findLimitByKey(Reply.value("limit", "")))
      return limitError(Limit->Kind, std::move(Loc), Message);
    return Error::at(std::move(Loc), "python syntax error: " + Message);
  }
  return std::move(Reply["module"]);
}

} // namespace kevin
