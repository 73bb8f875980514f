#include "Common.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "io/DataDirectory.h"

namespace sg::python {

namespace {

PyObject* errorType = nullptr;  // softgrasp.Error, created once by registerErrors (immortal: never decref'd)

template <int N>
py::array_t<double> rowsOf(const std::vector<Eigen::Matrix<double, N, 1>>& v) {
  py::array_t<double> out({static_cast<py::ssize_t>(v.size()), static_cast<py::ssize_t>(N)});
  auto a = out.template mutable_unchecked<2>();
  for (std::size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < N; ++k) a(static_cast<py::ssize_t>(i), k) = v[i](k);
  return out;
}

// True when every item is a number (an empty array is not a numeric one: it stays a list).
bool allNumbers(const std::vector<Json>& items) {
  if (items.empty()) return false;
  for (const Json& j : items)
    if (j.type() != Json::Type::Number) return false;
  return true;
}

}  // namespace

py::array_t<double> matrix4(const Transform& X) {
  py::array_t<double> out({4, 4});
  auto a = out.mutable_unchecked<2>();
  const Mat4 m = X.matrix();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) a(r, c) = m(r, c);
  return out;
}

py::array_t<double> rows3(const std::vector<Vec3>& v) { return rowsOf<3>(v); }
py::array_t<double> rows6(const std::vector<Vec6>& v) { return rowsOf<6>(v); }

py::array_t<double> numbers(const std::vector<double>& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

Transform poseFrom(const py::handle& matrix, const std::string& what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(matrix);
  if (!a || a.ndim() != 2 || a.shape(0) != 4 || a.shape(1) != 4)
    throw py::value_error(what + ": expected a 4x4 array (a rigid transform in mm)");
  const auto v = a.unchecked<2>();
  Mat4 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m(r, c) = v(r, c);
  if (!m.allFinite()) throw py::value_error(what + ": not finite (NaN or inf)");
  if (m(3, 0) != 0 || m(3, 1) != 0 || m(3, 2) != 0 || m(3, 3) != 1)
    throw py::value_error(what + ": the last row must be (0, 0, 0, 1)");
  const Mat3 R = m.topLeftCorner<3, 3>();
  // Rigid within 1e-6: a rotation a script built in floating point, not a scaled or sheared one.
  if (!((R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-6) || !(R.determinant() > 0))
    throw py::value_error(what + ": the upper-left 3x3 block is not a rotation (orthonormal, determinant +1)");
  return Transform::fromMatrix(R, m.topRightCorner<3, 1>());
}

py::object toPython(const Json& json) {
  switch (json.type()) {
    case Json::Type::Null: return py::none();
    case Json::Type::Bool: return py::bool_(json.boolean("value"));
    case Json::Type::Number: return py::float_(json.number("value"));
    case Json::Type::String: return py::str(json.string("value"));
    case Json::Type::Object: {
      py::dict d;
      for (const auto& [key, value] : json.members("object")) d[py::str(key)] = toPython(value);
      return d;
    }
    case Json::Type::Array: break;
  }
  const std::vector<Json>& items = json.items("array");
  if (allNumbers(items)) {
    std::vector<double> v;
    for (const Json& j : items) v.push_back(j.number("value"));
    return numbers(v);
  }
  // Rows of one length: a 2-D array (polygon vertices, wrenches).
  bool rows = !items.empty();
  std::size_t width = 0;
  for (const Json& j : items) {
    if (j.type() != Json::Type::Array || !allNumbers(j.items("row"))) { rows = false; break; }
    if (width == 0) width = j.items("row").size();
    if (j.items("row").size() != width) { rows = false; break; }
  }
  if (rows) {
    py::array_t<double> out({static_cast<py::ssize_t>(items.size()), static_cast<py::ssize_t>(width)});
    auto a = out.mutable_unchecked<2>();
    for (std::size_t i = 0; i < items.size(); ++i)
      for (std::size_t k = 0; k < width; ++k)
        a(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(k)) = items[i].items("row")[k].number("value");
    return out;
  }
  py::list l;
  for (const Json& j : items) l.append(toPython(j));
  return l;
}

int robotIndex(const World& world, int robot) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw py::index_error("robot " + std::to_string(robot) + ": the world has " + std::to_string(world.robots.size()) +
                          " robot(s)");
  return robot;
}

WorldState stateFor(const WorldPtr& world, const PyState* state) {
  if (!state) return world->world.state;
  if (state->world != world) throw py::value_error("the state belongs to another world");
  return state->state;
}

double positive(double value, const std::string& what) {
  if (!std::isfinite(value) || !(value > 0))
    throw py::value_error(what + ": expected a finite positive number, got " + std::to_string(value));
  return value;
}

std::string resolveInput(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs = dataDirectories();
  // The module's own data directories (CMakeLists.txt here): installed, then the source and build trees.
  for (const char* dir : {SG_PYTHON_DATA_DIRS}) dirs.emplace_back(dir);
  const std::string found = resolveUserFile(path, dirs);
  std::error_code ec;
  if (!fs::exists(found, ec)) {
    py::object e = py::reinterpret_borrow<py::object>(PyExc_FileNotFoundError)(ENOENT, "no such file", path);
    PyErr_SetObject(PyExc_FileNotFoundError, e.ptr());
    throw py::error_already_set();
  }
  return found;
}

PyProgress::~PyProgress() = default;

void PyProgress::report(double fraction, std::string_view message) {
  if (cancelled_.load(std::memory_order_acquire)) return;
  py::gil_scoped_acquire gil;
  try {
    if (!callback_.is_none()) callback_(clampFraction(fraction), std::string(message));
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl+C: KeyboardInterrupt
  } catch (py::error_already_set& e) {
    pending_ = std::move(e);
    cancelled_.store(true, std::memory_order_release);
  }
}

void PyProgress::rethrowPending() {
  if (!pending_) return;
  py::error_already_set e = std::move(*pending_);
  pending_.reset();
  throw e;
}

void registerErrors(py::module_& m) {
  errorType = PyErr_NewExceptionWithDoc(
      "softgrasp.Error",
      "An engine error: a file that cannot be read as what it claims to be, invalid settings, an analysis that\n"
      "failed. Attributes: message (str), file (str, '' when unknown), line (int, 0 when unknown).",
      PyExc_RuntimeError, nullptr);
  m.add_object("Error", py::handle(errorType));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Cancelled& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const Error& e) {
      py::object exc = py::reinterpret_borrow<py::object>(errorType)(e.what());
      exc.attr("message") = e.message();
      exc.attr("file") = e.file();
      exc.attr("line") = e.line();
      PyErr_SetObject(errorType, exc.ptr());
    }
  });
}

}  // namespace sg::python
