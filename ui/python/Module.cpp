// The extension module softgrasp._softgrasp; the package softgrasp (softgrasp/__init__.py) re-exports it.
#include "Common.h"
#include "core/Version.h"

PYBIND11_MODULE(_softgrasp, m) {
  namespace python = sg::python;
  m.doc() = "SoftGrasp's engine from Python (ui/python/README.md).";
  python::registerErrors(m);
  python::bindWorld(m);
  python::bindAnalysis(m);
  python::bindPlanner(m);
  m.attr("__version__") = sg::python::py::str(sg::versionString());
}
