#pragma once
// Shared pieces of the Python bindings (README.md here): the objects Python holds (a World behind a shared
// pointer; a state or an analysis keeps its World alive by holding that pointer, so `del world` while a state
// lives is safe), NumPy conversions (poses as 4x4 arrays in mm, vectors as (n, 3)), JSON trees as Python
// values, the progress sink that polls Ctrl+C, and the error translation (README.md §Errors).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Json.h"
#include "core/Progress.h"
#include "core/Transform.h"
#include "model/World.h"

namespace sg {
struct MeasureValue;  // grasp/GraspEvaluation.h
}

namespace sg::python {

namespace py = pybind11;

// A loaded world and what its loader said; shared by every state and analysis made from it.
// Python holds it through std::shared_ptr; nothing changes it after loading except World.state's setter.
struct PyWorld {
  World world;
  std::string file;                   // absolute path of the file read ("" when built in memory)
  std::vector<std::string> warnings;  // World::loadWarnings, as softgrasp-cli prints them
  std::vector<std::vector<std::string>> dofNames;  // per robot: a URDF hand's joint names, else "dof0", ...
};
using WorldPtr = std::shared_ptr<PyWorld>;

// A WorldState of one world (the world kept alive by the pointer).
struct PyState {
  WorldPtr world;
  WorldState state;
};

// --- conversions ---
py::array_t<double> matrix4(const Transform& X);                        // 4x4, mm
py::array_t<double> rows3(const std::vector<Vec3>& v);                  // (n, 3)
py::array_t<double> rows6(const std::vector<Vec6>& v);                  // (n, 6)
py::array_t<double> numbers(const std::vector<double>& v);              // (n,)
// A pose from a 4x4 array: ValueError unless finite, rigid (orthonormal rotation, det +1, within 1e-6) and
// with the last row (0, 0, 0, 1). `what` names the pose in the message.
Transform poseFrom(const py::handle& matrix, const std::string& what);
// A JSON tree as Python values: objects → dict, numbers → float, arrays of numbers → 1-D arrays, arrays of
// equal-length number arrays → 2-D arrays, other arrays → list.
py::object toPython(const Json& json);

// --- input checks (ValueError) ---
int robotIndex(const World& world, int robot);  // IndexError unless the world has it
// The state to evaluate: a copy of `state` (ValueError unless it belongs to `world`), or of the world's own.
WorldState stateFor(const WorldPtr& world, const PyState* state);
// ValueError unless finite and positive.
double positive(double value, const std::string& what);

// The file a user named: as typed when it exists, else in the data directories (io/DataDirectory.h), else in
// the module's own (the source checkout and the install prefix); FileNotFoundError when none has it.
std::string resolveInput(const std::string& path);

// Progress for a call that runs without the GIL: every report takes the GIL, calls `callback(fraction,
// message)` (when given) and lets Python handle signals (Ctrl+C). An exception from either asks the
// computation to stop (cancelRequested) and is kept; rethrowPending() raises it again once the GIL is held.
class PyProgress final : public ProgressSink {
 public:
  explicit PyProgress(py::object callback = py::none()) : callback_(std::move(callback)) {}
  ~PyProgress() override;
  void report(double fraction, std::string_view message) override;
  bool cancelRequested() const override { return cancelled_.load(std::memory_order_acquire); }
  bool pending() const { return pending_.has_value(); }
  void rethrowPending();  // GIL held
 private:
  py::object callback_;
  std::atomic<bool> cancelled_{false};
  std::optional<py::error_already_set> pending_;
};

// A measure as softgrasp.Measure (a float with its bounds) and a list of them by name (BindAnalysis.cpp).
py::object measureObject(const MeasureValue& value);
py::dict measureDict(const std::vector<MeasureValue>& values);
// softgrasp._types.<name>, the result types documented in Python.
py::object resultType(const char* name);

// Registers softgrasp.Error and the translation of sg::Error (README.md §Errors).
void registerErrors(py::module_& m);

void bindWorld(py::module_& m);
void bindAnalysis(py::module_& m);
void bindPlanner(py::module_& m);

}  // namespace sg::python
