// softgrasp.plan → GraspList (save, load), compare and sweep (README.md here): the planner, the model comparison
// and the sensitivity sweep as softgrasp-cli plan / compare / compare --sweep run them.
#include <thread>

#include "Request.h"
#include "contact/penalty/HandSensing.h"
#include "grasp/ModelComparison.h"
#include "grasp/SensitivitySweep.h"
#include "grasp/planner/GraspList.h"

namespace sg::python {

namespace {

using planner::GraspList;

struct PyGraspList {
  WorldPtr world;  // null for a list loaded without its world
  GraspList list;
};

// The world's state with robot `robot` in configuration `hand`.
py::object handState(const WorldPtr& world, int robot, const planner::HandConfiguration& hand) {
  if (!world || robot < 0 || robot >= static_cast<int>(world->world.robots.size())) return py::none();
  const Robot& r = world->world.robots[static_cast<std::size_t>(robot)];
  PyState s{world, world->world.state};
  RobotState& rs = s.state.robots[static_cast<std::size_t>(robot)];
  try {
    planner::applyHandConfiguration(r, rs, hand);  // its joints in break-away too
  } catch (const Error&) {
    return py::none();  // does not fit the world's hand
  }
  updateConnections(world->world, s.state);
  return py::cast(std::move(s));
}

py::list grasps(const PyGraspList& g) {
  py::list out;
  for (const planner::PlannedGrasp& p : g.list.grasps)
    out.append(resultType("Grasp")(p.energy, handState(g.world, g.list.robotIndex, p.grasp),
                                   handState(g.world, g.list.robotIndex, p.preGrasp), matrix4(p.grasp.X_WP),
                                   numbers(p.grasp.dofValues), matrix4(p.preGrasp.X_WP),
                                   numbers(p.preGrasp.dofValues), measureDict(p.measures), p.forceClosure,
                                   p.contacts.size(), numbers(p.variables)));
  return out;
}

long nonNegative(const py::object& value, const char* what, long minimum) {
  const long v = value.cast<long>();
  if (v < minimum) throw py::value_error(std::string(what) + ": expected an integer >= " + std::to_string(minimum));
  return v;
}

template <typename F>
auto engineNames(F&& f, const char* what) {
  try {
    return f();
  } catch (const Error& e) {
    throw py::value_error(std::string(what) + ": " + e.message());
  }
}

struct PlanArgs {
  std::string planner, energy, space, params;
  py::object iterations, steps;
  long seed;
  int threads, chains;
  double timeLimit_s;
  py::object qualityMeasure;
  bool liveContacts, finalStage;
  py::object refineSteps;
};

// The request softgrasp-cli plan builds from its options (ui/cli/CommandPlan.cpp), from keyword arguments.
planner::PlanRequest planRequest(const World& world, const RequestArgs& analysisArgs, const PlanArgs& a) {
  const AnalysisRequest analysis = analysisRequest(world, analysisArgs);
  if (world.robots.empty()) throw py::value_error("the world has no robot to plan with");
  if (world.graspables.empty()) throw py::value_error("the world has no graspable body to plan for");
  planner::PlanRequest r;
  r.robot = robotIndex(world, analysis.robot);
  r.graspable = analysis.graspable.value_or(0);
  r.planner = engineNames([&] { return planner::plannerFromString(a.planner); }, "planner");
  r.energy.kind = engineNames([&] { return planner::energyFromString(a.energy); }, "energy");
  r.space = engineNames([&] { return planner::positionSpaceFromString(a.space); }, "space");
  r.params = engineNames([&] { return planner::AnnealingParams::byName(a.params); }, "params");
  r.energy.analysis = analysis;
  r.energy.presetContacts = !a.liveContacts;
  if (!a.qualityMeasure.is_none()) {
    r.energy.measure = a.qualityMeasure.cast<std::string>();
    if (!findQualityMeasure(r.energy.measure))
      throw py::value_error("quality_measure: unknown measure '" + r.energy.measure + "'");
  }
  if (!a.iterations.is_none() && !a.steps.is_none())
    throw py::value_error("iterations and steps contradict each other");
  if (!a.iterations.is_none()) {
    r.maxSteps = r.params.k0 + nonNegative(a.iterations, "iterations", 1);
  } else {
    r.maxSteps = a.steps.is_none() ? 70000 : nonNegative(a.steps, "steps", 0);
    engineNames([&] { planner::requireStepsBeyondStart(r.maxSteps, r.params); return 0; }, "steps");
  }
  if (a.chains < 1) throw py::value_error("chains: expected at least 1");
  if (a.threads < 0) throw py::value_error("threads: expected 0 (one per core) or a positive count");
  if (a.seed < 0) throw py::value_error("seed: expected a non-negative integer");
  r.chains = a.chains;
  r.threads = a.threads > 0 ? a.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  r.seed = static_cast<std::uint64_t>(a.seed);
  if (a.timeLimit_s != 0) r.timeLimit_s = positive(a.timeLimit_s, "time_limit_s");
  r.finalStage.enabled = a.finalStage;
  if (!a.refineSteps.is_none()) r.finalStage.refineSteps = static_cast<int>(nonNegative(a.refineSteps, "refine_steps", 0));
  engineNames([&] { planner::requireValidFinalStage(r.finalStage); return 0; }, "refine_steps");
  r.reportMeasures = analysisArgs.measures.is_none() ? std::vector<std::string>{"epsilon-l1", "volume-l1"}
                                                     : analysis.measures;
  return r;
}

PyGraspList plan(const WorldPtr& world, const RequestArgs& analysisArgs, const PlanArgs& a, const py::object& callback) {
  const planner::PlanRequest request = planRequest(world->world, analysisArgs, a);
  PyProgress progress(callback);
  planner::PlanResult result;
  {
    py::gil_scoped_release release;
    result = planGrasps(world->world, request, progress);
  }
  PyGraspList out{world, makeGraspList(world->world, world->file, request, result)};
  if (progress.pending()) {
    // Ctrl+C (or KeyboardInterrupt from the callable): the grasps found so far, as softgrasp-cli plan keeps them.
    try {
      progress.rethrowPending();
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_KeyboardInterrupt)) throw;
      PyErr_SetObject(resultType("PlanInterrupted").ptr(), resultType("PlanInterrupted")(py::cast(out)).ptr());
      throw py::error_already_set();
    }
  }
  return out;
}

py::array_t<double> rowValues(const ModelColumn& c, double ComparedContact::*field) {
  std::vector<double> v;
  for (const ComparedContact& cell : c.contacts) v.push_back(cell.present ? cell.*field : std::nan(""));
  return numbers(v);
}

py::object comparison(const World& world, const ModelComparison& c) {
  std::vector<std::string> models, rows;
  py::dict ok, errors, measures, kind, area, force, pressure, mu, torsion, limit;
  for (const ComparisonRow& r : c.rows) rows.push_back(r.label);
  for (const ModelColumn& col : c.columns) {
    models.push_back(col.model);
    const py::str m(col.model);
    ok[m] = col.ok, errors[m] = col.error, measures[m] = measureDict(col.evaluation.measures);
    py::list kinds;
    for (const ComparedContact& cell : col.contacts) kinds.append(cell.present ? toString(cell.kind) : "");
    kind[m] = kinds;
    area[m] = rowValues(col, &ComparedContact::patchArea_mm2);
    force[m] = rowValues(col, &ComparedContact::normalForce_N);
    pressure[m] = rowValues(col, &ComparedContact::peakPressure_Pa);
    mu[m] = rowValues(col, &ComparedContact::mu);
    torsion[m] = rowValues(col, &ComparedContact::torsion_mm);
    limit[m] = rowValues(col, &ComparedContact::maxTorsionalFriction_Nmm);
  }
  (void)world;
  return resultType("Comparison")(models, rows, ok, errors, measures, kind, area, force, pressure, mu, torsion, limit,
                                  comparisonCsv(c));
}

ComparisonRequest comparisonRequest(const py::object& models, const py::object& measures) {
  ComparisonRequest r;
  if (!models.is_none())
    for (const std::string& name : models.cast<std::vector<std::string>>()) {
      const ContactModel* found = findContactModel(name);
      if (!found) throw py::value_error("contact model '" + name + "': expected " + contactModelNames());
      r.models.push_back(found->name());
    }
  if (!measures.is_none()) {
    r.measures = measures.cast<std::vector<std::string>>();
    for (const std::string& name : r.measures)
      if (!findQualityMeasure(name)) throw py::value_error("measure '" + name + "' is not registered");
  }
  return r;
}

// The comparison after the request's hand motion, on a copy of the state.
ModelComparison runCompare(const WorldPtr& w, const PyState* state, const RequestArgs& args,
                           const ComparisonRequest& request, PyProgress& progress, WorldState& moved) {
  const AnalysisRequest analysis = analysisRequest(w->world, args);
  moved = stateFor(w, state);
  try {
    py::gil_scoped_release release;
    return runComparison(w->world, moved, analysis, request, progress);
  } catch (const Cancelled&) {
    progress.rethrowPending();
    throw;
  }
}

py::object sweep(const WorldPtr& w, const PyState* state, const RequestArgs& args, const std::string& parameter,
                 const std::vector<double>& values, const py::object& models, const py::object& measures,
                 const py::object& callback) {
  SweepRequest s;
  const auto p = sweepParameterFromKey(parameter);
  if (!p) throw py::value_error("parameter: expected 'youngs', 'force' or 'mu', got '" + parameter + "'");
  s.parameter = *p;
  s.values = values;
  const ComparisonRequest cmp = comparisonRequest(models, measures);
  s.models = cmp.models;
  if (!measures.is_none()) s.measures = cmp.measures;
  s.keepPointsOnCancel = true;  // Ctrl+C keeps the values done, as softgrasp-cli compare --sweep
  PyProgress progress(callback);
  WorldState moved;
  const AnalysisRequest analysis = analysisRequest(w->world, args);
  const ModelComparison c = runCompare(w, state, args, ComparisonRequest{cmp.models, {}}, progress, moved);
  SweepTable table;
  try {
    py::gil_scoped_release release;
    table = runSweep(w->world, moved, c.contacts, c.graspable, analysis.quality, s, progress);
  } catch (const Error& e) {
    if (dynamic_cast<const Cancelled*>(&e)) progress.rethrowPending();
    throw py::value_error(e.what());
  }
  if (progress.pending() && !table.cancelled) progress.rethrowPending();
  py::dict byModel, area, limit;
  for (const std::string& model : table.models) {
    py::dict perMeasure;
    const std::vector<const SweepPoint*> series = table.series(model);
    for (std::size_t k = 0; k < table.measures.size(); ++k) {
      std::vector<double> v;
      for (const SweepPoint* pt : series) v.push_back(pt->measures.size() > k && pt->measures[k] ? *pt->measures[k] : std::nan(""));
      perMeasure[py::str(table.measures[k])] = numbers(v);
    }
    std::vector<double> a, l;
    for (const SweepPoint* pt : series) a.push_back(pt->meanPatchArea_mm2), l.push_back(pt->meanTorsionalLimit_Nmm);
    byModel[py::str(model)] = perMeasure, area[py::str(model)] = numbers(a), limit[py::str(model)] = numbers(l);
  }
  std::vector<double> done;
  for (const SweepPoint& pt : table.points)
    if (done.empty() || done.back() != pt.value) done.push_back(pt.value);
  return resultType("Sweep")(toString(table.parameter), sweepParameterUnit(table.parameter), numbers(done), table.models,
                             byModel, area, limit, table.csv(), table.cancelled);
}

// softgrasp-cli sensing's table as arrays (ui/cli/CommandSensing.cpp prints the same rows).
py::dict sense(const WorldPtr& w, const PyState* state, const RequestArgs& args, double stiffness, double transition,
               bool squeezeTorque) {
  const int robot = robotIndex(w->world, args.robot);
  const AnalysisRequest analysis = analysisRequest(w->world, args);
  PenaltySettings penalty = analysis.quality.penalty;
  if (stiffness != 0) penalty.stiffness_N_per_mm = positive(stiffness, "stiffness_N_per_mm");
  if (transition != 0) penalty.transitionWidth_mm = positive(transition, "transition_mm");
  penalty.contactThreshold_mm = analysis.collision.contacts.threshold_mm;
  std::optional<SqueezeSettings> squeeze;
  if (squeezeTorque) {
    squeeze = SqueezeSettings{};
    squeeze->penalty = penalty;
  }
  WorldState s = stateFor(w, state);
  HandSensing sensed;
  {
    py::gil_scoped_release release;
    HandMotionRequest motion = analysis.motion;
    motion.settings.motion.collision = analysis.collision;  // the threshold asked for, as runAnalysis does
    if (motion.movesHand()) moveHand(w->world, s, robot, motion);
    sensed = senseHand(w->world, s, robot, penalty, squeeze);
  }
  std::vector<std::string> body1, body2;
  std::vector<double> separation, penetration, normal, friction, muEff;
  std::vector<Vec3> fn, ff, slip, p1, p2;
  py::array_t<bool> signal(static_cast<py::ssize_t>(sensed.rows.size()));
  for (std::size_t i = 0; i < sensed.rows.size(); ++i) {
    const PenaltySensing& p = sensed.rows[i].sensing;
    body1.push_back(w->world.bodyLabel(sensed.rows[i].hand)), body2.push_back(w->world.bodyLabel(sensed.rows[i].other));
    separation.push_back(p.contact.separation_mm), penetration.push_back(p.penetration_mm);
    normal.push_back(p.normalForce_N), friction.push_back(p.frictionForce_N), muEff.push_back(p.muEffective);
    fn.push_back(p.normalForce_W_N), ff.push_back(p.frictionForce_W_N), slip.push_back(p.slip_W_mm_per_s);
    p1.push_back(p.contact.side1.p_WC_mm), p2.push_back(p.contact.side2.p_WC_mm);
    signal.mutable_data()[i] = p.signal;
  }
  py::dict out;
  out["body1"] = body1, out["body2"] = body2, out["separation_mm"] = numbers(separation);
  out["contact"] = signal, out["penetration_mm"] = numbers(penetration), out["normal_force_N"] = numbers(normal);
  out["friction_force_N"] = numbers(friction), out["normal_force_on_body1_W_N"] = rows3(fn);
  out["friction_force_on_body1_W_N"] = rows3(ff), out["slip_W_mm_per_s"] = rows3(slip);
  out["mu_effective"] = numbers(muEff), out["p1_WC_mm"] = rows3(p1), out["p2_WC_mm"] = rows3(p2);
  out["state"] = PyState{w, s};
  return out;
}

}  // namespace

void bindPlanner(py::module_& m) {
  py::class_<PyGraspList>(m, "GraspList",
                          "A list of planned grasps (src/grasp/planner/PLANNER.md §Grasp list file), best (lowest\n"
                          "energy) first: what softgrasp-cli plan --out writes. Keeps its World alive.")
      .def_property_readonly("grasps", &grasps, "The grasps (softgrasp.Grasp), best first.")
      .def("__len__", [](const PyGraspList& g) { return g.list.grasps.size(); })
      .def_property_readonly("world", [](const PyGraspList& g) { return g.world; }, "The World (None if not loaded).")
      .def_property_readonly("world_file", [](const PyGraspList& g) { return g.list.world; })
      .def_property_readonly("robot", [](const PyGraspList& g) { return g.list.robot; })
      .def_property_readonly("object", [](const PyGraspList& g) { return g.list.object; })
      .def_property_readonly("planner", [](const PyGraspList& g) { return g.list.planner; })
      .def_property_readonly("energy", [](const PyGraspList& g) { return g.list.energy; })
      .def_property_readonly("space", [](const PyGraspList& g) { return g.list.space; })
      .def_property_readonly("seed", [](const PyGraspList& g) { return g.list.seed; })
      .def_property_readonly("stop_reason", [](const PyGraspList& g) { return g.list.stopReason; },
                             "\"step-limit\", \"time-limit\" or \"cancelled\".")
      .def("to_json", [](const PyGraspList& g) { return planner::graspListToJson(g.list); },
           "The grasp list document (docs/schemas/grasp-list.schema.json), as save() writes it.")
      .def("save", [](const PyGraspList& g, const std::string& path) { planner::saveGraspList(g.list, path); },
           py::arg("path"), "Writes the list (atomically) as softgrasp-cli plan --out does.")
      .def_static(
          "load",
          [](const std::string& path, const py::object& world) {
            PyGraspList out{nullptr, planner::loadGraspList(resolveInput(path))};
            if (!world.is_none()) out.world = world.cast<WorldPtr>();
            return out;
          },
          py::arg("path"), py::arg("world") = py::none(),
          "Reads a grasp list file (softgrasp.Error naming the file when it is not one). With `world` (the\n"
          "World it was planned in), each grasp's state and pre_grasp are WorldStates of it.");

  m.def(
      "plan",
      [](const WorldPtr& w, std::string energy, py::object iterations, py::object steps, long seed, int threads,
         int chains, std::string plannerName, std::string space, std::string params, double timeLimit_s,
         py::object qualityMeasure, bool liveContacts, bool finalStage, py::object refineSteps, int robot,
         py::object graspable, std::vector<std::string> models, py::object measureNames, py::object settings,
         double threshold_mm, py::object progress) {
        RequestArgs ra;
        ra.contactModels = std::move(models), ra.measures = std::move(measureNames), ra.settings = std::move(settings);
        ra.robot = robot, ra.graspable = std::move(graspable), ra.threshold_mm = threshold_mm;
        return plan(w, ra,
                    {std::move(plannerName), std::move(energy), std::move(space), std::move(params),
                     std::move(iterations), std::move(steps), seed, threads, chains, timeLimit_s,
                     std::move(qualityMeasure), liveContacts, finalStage, std::move(refineSteps)},
                    progress);
      },
      py::arg("world"), py::kw_only(), py::arg("energy") = "contacts", py::arg("iterations") = py::none(),
      py::arg("steps") = py::none(), py::arg("seed") = 1, py::arg("threads") = 0, py::arg("chains") = 4,
      py::arg("planner") = "simann", py::arg("space") = "axis-angle", py::arg("params") = "default",
      py::arg("time_limit_s") = 0.0, py::arg("quality_measure") = py::none(), py::arg("live_contacts") = false,
      py::arg("final_stage") = true, py::arg("refine_steps") = py::none(), py::arg("robot") = 0,
      py::arg("graspable") = py::none(), py::arg("contact_models") = std::vector<std::string>{"soft-finger"},
      py::arg("measures") = py::none(), py::arg("settings") = py::none(), py::arg("threshold_mm") = 0.2,
      py::arg("progress") = py::none(),
      "Plans grasps of a graspable with a robot of `world`, from the world's state (src/grasp/planner/PLANNER.md),\n"
      "as softgrasp-cli plan with the same options: the same list for the same seed, whatever `threads`.\n\n"
      "energy: contacts, potential-quality, guided-potential-quality, autograsp-quality, strict-autograsp;\n"
      "iterations: annealing iterations (or steps: GraspIt!'s step counter end; default 70000 steps);\n"
      "seed; threads (0: one per core); chains; planner: simann, loop, guided; space: axis-angle, approach,\n"
      "ellipsoid, complete; params: default, loop, modified, strict, online; time_limit_s (0: none);\n"
      "quality_measure: the measure ranking autograsp-quality; live_contacts; final_stage, refine_steps.\n"
      "contact_models, measures (reported per grasp; default epsilon-l1, volume-l1), settings, threshold_mm,\n"
      "robot, graspable: as analyze().\n"
      "progress: None or a callable(fraction, message). Ctrl+C, or KeyboardInterrupt raised by the callable,\n"
      "stops the search and raises softgrasp.PlanInterrupted whose .grasps holds what was found so far.\n\n"
      "Returns a GraspList; ValueError for unknown names or bad values.");

  m.def(
      "compare",
      [](const WorldPtr& w, const PyState* state, py::object approach, bool autograsp, py::object models,
         py::object measureNames, py::object settings, int robot, py::object graspable, double threshold_mm,
         py::object progress) {
        RequestArgs ra;
        ra.approach = std::move(approach), ra.autograsp = autograsp, ra.settings = std::move(settings);
        ra.robot = robot, ra.graspable = std::move(graspable), ra.threshold_mm = threshold_mm;
        PyProgress sink(progress);
        WorldState moved;
        const ModelComparison c = runCompare(w, state, ra, comparisonRequest(models, measureNames), sink, moved);
        return comparison(w->world, c);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("approach") = false,
      py::arg("autograsp") = false, py::arg("models") = py::none(), py::arg("measures") = py::none(),
      py::arg("settings") = py::none(), py::arg("robot") = 0, py::arg("graspable") = py::none(),
      py::arg("threshold_mm") = 0.2, py::arg("progress") = py::none(),
      "Compares contact models on the same contacts (src/grasp/ModelComparison.h), as softgrasp-cli compare:\n"
      "models: registered names (None: every registered model); measures: None for the three epsilons and the\n"
      "L1 volume. approach, autograsp, settings, robot, graspable, threshold_mm: as analyze(). Returns a\n"
      "softgrasp.Comparison (per model: measures and per-contact patch area, normal force, torsional limit).");

  m.def(
      "sweep",
      [](const WorldPtr& w, const PyState* state, std::string parameter, std::vector<double> values,
         py::object approach, bool autograsp, py::object models, py::object measureNames, py::object settings,
         int robot, py::object graspable, double threshold_mm, py::object progress) {
        RequestArgs ra;
        ra.approach = std::move(approach), ra.autograsp = autograsp, ra.settings = std::move(settings);
        ra.robot = robot, ra.graspable = std::move(graspable), ra.threshold_mm = threshold_mm;
        return sweep(w, state, ra, parameter, values, models, measureNames, progress);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("parameter") = "youngs",
      py::arg("values"), py::arg("approach") = false, py::arg("autograsp") = false, py::arg("models") = py::none(),
      py::arg("measures") = py::none(), py::arg("settings") = py::none(), py::arg("robot") = 0,
      py::arg("graspable") = py::none(), py::arg("threshold_mm") = 0.2, py::arg("progress") = py::none(),
      "The model comparison at each of `values` of one parameter (src/grasp/QUALITY.md §Sensitivity sweep), as\n"
      "softgrasp-cli compare --sweep: parameter 'youngs' (Pa), 'force' (N, a patch's normal force) or 'mu'.\n"
      "Returns a softgrasp.Sweep; Ctrl+C keeps the values done (Sweep.cancelled).");

  m.def(
      "sense",
      [](const WorldPtr& w, const PyState* state, int robot, py::object approach, bool autograsp, bool squeezeTorque,
         double stiffness, double transition, double threshold_mm) {
        RequestArgs ra;
        ra.approach = std::move(approach), ra.autograsp = autograsp, ra.robot = robot, ra.threshold_mm = threshold_mm;
        return sense(w, state, ra, stiffness, transition, squeezeTorque);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("robot") = 0,
      py::arg("approach") = false, py::arg("autograsp") = false, py::arg("squeeze_torque") = false,
      py::arg("stiffness_N_per_mm") = 0.0, py::arg("transition_mm") = 0.0, py::arg("threshold_mm") = 0.2,
      "Penalty-contact sensing of every pair of a hand body with another body, as softgrasp-cli sensing\n"
      "(src/contact/README.md §Penalty contact): after the optional motion (approach, autograsp) and, with\n"
      "squeeze_torque, a squeeze until the penalty forces balance each closing DOF's effort. stiffness_N_per_mm,\n"
      "transition_mm: the penalty law's (0: the model's defaults). Returns a dict of arrays, one row per pair:\n"
      "body1 (the hand's body), body2, separation_mm, contact, penetration_mm, normal_force_N, friction_force_N,\n"
      "normal_force_on_body1_W_N and friction_force_on_body1_W_N (n, 3), slip_W_mm_per_s, mu_effective,\n"
      "p1_WC_mm, p2_WC_mm (n, 3), and the sensed 'state'.");
}

}  // namespace sg::python
