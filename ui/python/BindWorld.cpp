// softgrasp.load_world / load_robot / load_body, World, WorldState, fk and the hand motions (README.md here).
#include <cmath>

#include "Common.h"
#include "grasp/AnalysisJson.h"  // approachOutcome, fingersOutcome
#include "grasp/HandMotion.h"
#include "io/InputFile.h"
#include "io/UrdfDofNames.h"

namespace sg::python {

namespace {

WorldPtr load(const std::string& path, const std::vector<std::string>& packagePaths,
              const std::vector<std::string>& modelRoots, const char* expected) {
  const std::string resolved = resolveInput(path);
  LoadOptions options;
  options.packagePaths = packagePaths;
  options.modelRoots = modelRoots;
  InputFile input;
  {
    py::gil_scoped_release release;
    input = loadInputFile(resolved, options);
  }
  const std::string kind = inputFileKindName(input.kind);
  if (std::string(expected) == "robot" && input.kind != InputFileKind::Robot)
    throw py::value_error(input.path + ": not a robot file (it is a " + kind + " file); use load_world");
  if (std::string(expected) == "body" && input.kind != InputFileKind::Body && input.kind != InputFileKind::Mesh)
    throw py::value_error(input.path + ": not a body XML or mesh (it is a " + kind + " file); use load_world");
  auto out = std::make_shared<PyWorld>();
  out->warnings = input.world.loadWarnings();
  out->world = std::move(input.world);
  out->file = input.path;
  for (const Robot& r : out->world.robots) {
    std::vector<std::string> dofNames;
    if (isUrdfPath(r.sourceFile)) dofNames = urdfDofNames(r.sourceFile, options);
    if (dofNames.size() != r.dofs.size()) {
      dofNames.clear();
      for (std::size_t k = 0; k < r.dofs.size(); ++k) dofNames.push_back("dof" + std::to_string(k));
    }
    out->dofNames.push_back(std::move(dofNames));
  }
  return out;
}

std::vector<std::string> names(const std::vector<Body>& bodies) {
  std::vector<std::string> out;
  for (const Body& b : bodies) out.push_back(b.name);
  return out;
}

const std::string& dofName(const PyWorld& w, int robot, std::size_t k) {
  return w.dofNames[static_cast<std::size_t>(robot)][k];
}

// Palm then links, each body's world pose by its label.
py::dict linkPoses(const World& world, const WorldState& state, int robot) {
  py::dict out;
  const RobotState& rs = state.robots.at(static_cast<std::size_t>(robot));
  for (const BodyRef& ref : world.robots[static_cast<std::size_t>(robot)].bodyRefs())
    out[py::str(world.bodyLabel({BodyHandle::Kind::Robot, robot, ref}))] = matrix4(X_WB(rs, ref));
  return out;
}

py::array_t<double> poseStack(const std::vector<Transform>& poses) {
  py::array_t<double> out({static_cast<py::ssize_t>(poses.size()), py::ssize_t{4}, py::ssize_t{4}});
  auto a = out.mutable_unchecked<3>();
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const Mat4 m = poses[i].matrix();
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) a(static_cast<py::ssize_t>(i), r, c) = m(r, c);
  }
  return out;
}

Transform& bodyPose(std::vector<Transform>& poses, int index, const char* what) {
  if (index < 0 || index >= static_cast<int>(poses.size()))
    throw py::index_error(std::string(what) + " " + std::to_string(index) + ": the world has " +
                          std::to_string(poses.size()));
  return poses[static_cast<std::size_t>(index)];
}

void setDofs(PyState& s, const std::vector<double>& values, int robot) {
  const World& world = s.world->world;
  const Robot& r = world.robots[static_cast<std::size_t>(robotIndex(world, robot))];
  if (values.size() != r.dofCount())
    throw py::value_error("dofs: robot " + r.name + " has " + std::to_string(r.dofCount()) + " DOFs, got " +
                          std::to_string(values.size()) + " values");
  for (std::size_t k = 0; k < values.size(); ++k) {
    const Dof& d = r.dofs[k];
    const double v = values[k], slack = 1e-9 * std::max(1.0, d.maxValue - d.minValue);
    if (!std::isfinite(v)) throw py::value_error("dofs: " + dofName(*s.world, robot, k) + " is not finite");
    if (v < d.minValue - slack || v > d.maxValue + slack)
      throw py::value_error("dofs: " + dofName(*s.world, robot, k) + " = " + std::to_string(v) + " is outside its range [" +
                            std::to_string(d.minValue) + ", " + std::to_string(d.maxValue) + "]");
  }
  setDofValues(r, s.state.robots[static_cast<std::size_t>(robot)], values);
  updateConnections(world, s.state);
}

void setPalm(PyState& s, const py::handle& X, int robot) {
  const World& world = s.world->world;
  const Robot& r = world.robots[static_cast<std::size_t>(robotIndex(world, robot))];
  setRobotPose(r, s.state.robots[static_cast<std::size_t>(robot)], poseFrom(X, "X_WP"));
  updateConnections(world, s.state);
}

// One hand motion on a copy of the state: (the new state, the stop reason).
py::tuple move(const WorldPtr& w, const PyState* state, int robot, HandMotionRequest request, double threshold_mm) {
  robotIndex(w->world, robot);
  request.settings.motion.collision.contacts.threshold_mm = positive(threshold_mm, "threshold_mm");
  PyState out{w, stateFor(w, state)};
  HandMotionReport report;
  {
    py::gil_scoped_release release;
    report = moveHand(w->world, out.state, robot, request);
  }
  const std::string reason = request.approach ? approachOutcome(report) : fingersOutcome(report);
  return py::make_tuple(std::move(out), reason);
}

const char* kMotionReturn =
    "Returns (state, reason): a new WorldState (the input is not changed) and why the motion stopped: \"reached\"\n"
    "(nothing stopped it), \"contact\" (stopped in contact), \"blocked\" (existing contacts oppose it: nothing\n"
    "moved) or \"start-in-collision\" (the hand already interpenetrates: nothing moved).\n";

}  // namespace

void bindWorld(py::module_& m) {
  const auto loadDoc = [](const char* what) {
    return std::string("Loads ") + what +
           " and returns a World.\n\n"
           "path: a file name; a relative one not found in the working directory is looked up in the data\n"
           "directories ($SOFTGRASP_DATA_DIR, the installed share/softgrasp, the source checkout), so\n"
           "'worlds/default.xml' opens the bundled world.\n"
           "package_paths: directories holding ROS packages (URDF package:// names).\n"
           "model_roots: extra directories searched for file names written inside model files.\n\n"
           "Raises FileNotFoundError (no such file), softgrasp.Error (a file that cannot be read; its file and\n"
           "line attributes say where) or ValueError (a file of another kind).";
  };
  m.def("load_world",
        [](const std::string& path, const std::vector<std::string>& packagePaths,
           const std::vector<std::string>& modelRoots) { return load(path, packagePaths, modelRoots, "world"); },
        py::arg("path"), py::arg("package_paths") = std::vector<std::string>{},
        py::arg("model_roots") = std::vector<std::string>{},
        loadDoc("a GraspIt! world XML (or any file softgrasp-cli opens: a robot becomes the world's only robot, a\n"
                "body or mesh its only graspable)").c_str());
  m.def("load_robot",
        [](const std::string& path, const std::vector<std::string>& packagePaths,
           const std::vector<std::string>& modelRoots) { return load(path, packagePaths, modelRoots, "robot"); },
        py::arg("path"), py::arg("package_paths") = std::vector<std::string>{},
        py::arg("model_roots") = std::vector<std::string>{},
        loadDoc("a robot (GraspIt! robot XML or URDF) as the only robot of a world, palm at the origin").c_str());
  m.def("load_body",
        [](const std::string& path, const std::vector<std::string>& modelRoots) {
          return load(path, {}, modelRoots, "body");
        },
        py::arg("path"), py::arg("model_roots") = std::vector<std::string>{},
        loadDoc("a body XML or a bare mesh (.iv .wrl .off .ply .stl .obj, mm) as the only graspable of a world").c_str());

  py::class_<PyWorld, WorldPtr>(m, "World",
                                "A loaded world: bodies, robots, their DOFs and the state it was loaded in. Read-only\n"
                                "except `state`; several threads may evaluate states of one World at once\n"
                                "(evaluate_many). Lengths in mm, angles in rad.")
      .def_property_readonly("file", [](const PyWorld& w) { return w.file; }, "Absolute path of the file read.")
      .def_property_readonly("warnings", [](const PyWorld& w) { return w.warnings; },
                             "Load warnings (\"file:line: problem\"), as softgrasp-cli prints them.")
      .def_property_readonly("obstacles", [](const PyWorld& w) { return names(w.world.obstacles); },
                             "Obstacle names, by index.")
      .def_property_readonly("graspables", [](const PyWorld& w) { return names(w.world.graspables); },
                             "Graspable body names, by index.")
      .def_property_readonly("robots",
                             [](const PyWorld& w) {
                               std::vector<std::string> out;
                               for (const Robot& r : w.world.robots) out.push_back(r.name);
                               return out;
                             },
                             "Robot names, by index.")
      .def_property_readonly("bodies",
                             [](const PyWorld& w) {
                               std::vector<std::string> out;
                               for (const BodyHandle& h : w.world.bodyHandles()) out.push_back(w.world.bodyLabel(h));
                               return out;
                             },
                             "Every body's label (\"mug\", \"ThreeFinger/palm\", \"ThreeFinger/chain1/link0\"):\n"
                             "obstacles, graspables, robot bodies, mounts; the names contacts use.")
      .def("dof_names",
           [](const PyWorld& w, int robot) {
             return w.dofNames[static_cast<std::size_t>(robotIndex(w.world, robot))];
           },
           py::arg("robot") = 0, "DOF names of a robot: a URDF hand's joint names, else \"dof0\", \"dof1\", ...")
      .def("dof_limits",
           [](const PyWorld& w, int robot) {
             const Robot& r = w.world.robots[static_cast<std::size_t>(robotIndex(w.world, robot))];
             py::array_t<double> out({static_cast<py::ssize_t>(r.dofs.size()), py::ssize_t{2}});
             auto a = out.mutable_unchecked<2>();
             for (std::size_t k = 0; k < r.dofs.size(); ++k) {
               a(static_cast<py::ssize_t>(k), 0) = r.dofs[k].minValue;
               a(static_cast<py::ssize_t>(k), 1) = r.dofs[k].maxValue;
             }
             return out;
           },
           py::arg("robot") = 0, "(n, 2) array of [min, max] per DOF: rad for revolute DOFs, mm for prismatic ones.")
      .def("dof_units",
           [](const PyWorld& w, int robot) {
             std::vector<std::string> out;
             for (const Dof& d : w.world.robots[static_cast<std::size_t>(robotIndex(w.world, robot))].dofs)
               out.push_back(d.prismatic ? "mm" : "rad");
             return out;
           },
           py::arg("robot") = 0, "Per DOF \"rad\" or \"mm\".")
      .def_property(
          "state", [](const WorldPtr& w) { return PyState{w, w->world.state}; },
          [](const WorldPtr& w, const PyState& s) {
            if (s.world != w) throw py::value_error("the state belongs to another world");
            w->world.state = s.state;
          },
          "The world's own state (a copy): as loaded, or as last assigned. Functions given no state use it.")
      .def("__repr__", [](const PyWorld& w) {
        return "<softgrasp.World '" + w.file + "': " + std::to_string(w.world.robots.size()) + " robot(s), " +
               std::to_string(w.world.graspables.size()) + " graspable(s), " +
               std::to_string(w.world.obstacles.size()) + " obstacle(s)>";
      });

  py::class_<PyState>(m, "WorldState",
                      "Where a world's bodies are: obstacle and graspable poses, per robot the palm pose X_WP and the\n"
                      "DOF values. Poses are 4x4 arrays (rotation and translation in mm) of the body frame in the\n"
                      "world frame W; DOF values in rad (revolute) or mm (prismatic). Getters return copies; the\n"
                      "setters check their input (ValueError: not finite, not rigid, out of range, wrong length)\n"
                      "and recompute the link poses. A state keeps its World alive. Cheap to copy().")
      .def("copy", [](const PyState& s) { return s; }, "An independent copy.")
      .def("__copy__", [](const PyState& s) { return s; })
      .def("__deepcopy__", [](const PyState& s, const py::dict&) { return s; }, py::arg("memo"))
      .def_property_readonly("world", [](const PyState& s) { return s.world; }, "The World this state belongs to.")
      .def_property_readonly("X_WO", [](const PyState& s) { return poseStack(s.state.X_WO); },
                             "(n, 4, 4) obstacle poses in world, mm.")
      .def_property_readonly("X_WG", [](const PyState& s) { return poseStack(s.state.X_WG); },
                             "(n, 4, 4) graspable poses in world, mm.")
      .def("set_X_WO",
           [](PyState& s, int i, const py::handle& X) { bodyPose(s.state.X_WO, i, "obstacle") = poseFrom(X, "X_WO"); },
           py::arg("index"), py::arg("X_WO"), "Sets obstacle `index`'s pose (4x4, mm).")
      .def("set_X_WG",
           [](PyState& s, int i, const py::handle& X) { bodyPose(s.state.X_WG, i, "graspable") = poseFrom(X, "X_WG"); },
           py::arg("index"), py::arg("X_WG"), "Sets graspable `index`'s pose (4x4, mm).")
      .def_property(
          "X_WP", [](const PyState& s) { return matrix4(s.state.robots.at(0).X_WP); },
          [](PyState& s, const py::handle& X) { setPalm(s, X, 0); }, "Robot 0's palm pose in world (4x4, mm).")
      .def("get_X_WP",
           [](const PyState& s, int robot) {
             return matrix4(s.state.robots[static_cast<std::size_t>(robotIndex(s.world->world, robot))].X_WP);
           },
           py::arg("robot") = 0, "A robot's palm pose in world (4x4, mm).")
      .def("set_X_WP", &setPalm, py::arg("X_WP"), py::arg("robot") = 0,
           "Sets a robot's palm pose in world (4x4, mm; rigid, else ValueError) and its link poses.")
      .def_property(
          "dofs", [](const PyState& s) { return numbers(s.state.robots.at(0).dofValues); },
          [](PyState& s, const std::vector<double>& v) { setDofs(s, v, 0); },
          "Robot 0's DOF values (rad or mm); assigning checks length, finiteness and range.")
      .def("get_dofs",
           [](const PyState& s, int robot) {
             return numbers(s.state.robots[static_cast<std::size_t>(robotIndex(s.world->world, robot))].dofValues);
           },
           py::arg("robot") = 0, "A robot's DOF values (rad or mm).")
      .def("set_dofs", &setDofs, py::arg("values"), py::arg("robot") = 0,
           "Sets a robot's DOF values (rad or mm): one per DOF, finite and within World.dof_limits (else\n"
           "ValueError); the link poses follow.")
      .def("__repr__", [](const PyState& s) {
        return "<softgrasp.WorldState of '" + s.world->file + "'>";
      });

  m.def(
      "fk",
      [](const WorldPtr& w, const PyState* state, int robot) {
        robotIndex(w->world, robot);
        const WorldState s = stateFor(w, state);
        return linkPoses(w->world, s, robot);
      },
      py::arg("world"), py::arg("state") = py::none(), py::arg("robot") = 0,
      "Forward kinematics: {body label: 4x4 pose in world (mm)} for the palm and every link of `robot` in\n"
      "`state` (default: the world's state), palm first.");
  m.def(
      "approach",
      [](const WorldPtr& w, const PyState* state, int robot, double distance_mm, double threshold_mm) {
        HandMotionRequest r;
        r.approach = true;
        r.approachDistance_mm = positive(distance_mm, "distance_mm");
        return move(w, state, robot, r, threshold_mm);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("robot") = 0,
      py::arg("distance_mm") = kApproachBeforeGrasp_mm, py::arg("threshold_mm") = 0.2,
      (std::string("Moves the palm along the robot's approach direction until contact, at most distance_mm (a hand\n"
                   "that starts in contact first backs off, as GraspIt!). threshold_mm: the contact threshold.\n") +
       kMotionReturn)
          .c_str());
  m.def(
      "auto_grasp",
      [](const WorldPtr& w, const PyState* state, int robot, double threshold_mm) {
        HandMotionRequest r;
        r.fingers = FingerMotion::Close;
        return move(w, state, robot, r, threshold_mm);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("robot") = 0,
      py::arg("threshold_mm") = 0.2,
      (std::string("Closes the hand: every DOF moves with its default velocity until contact stops its links.\n") +
       kMotionReturn)
          .c_str());
  m.def(
      "auto_open",
      [](const WorldPtr& w, const PyState* state, int robot, double threshold_mm) {
        HandMotionRequest r;
        r.fingers = FingerMotion::Open;
        return move(w, state, robot, r, threshold_mm);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("robot") = 0,
      py::arg("threshold_mm") = 0.2,
      (std::string("Opens the hand: auto-grasp with the velocities reversed.\n") + kMotionReturn).c_str());
}

}  // namespace sg::python
