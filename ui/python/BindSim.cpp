// compare_physics: which quality measure predicts a physics trial, over the engine's one call
// (src/sim/PhysicsComparison.h), as softgrasp-cli compare --against-physics.
#include "Common.h"
#include "Request.h"
#include "contact/ContactModel.h"
#include "grasp/QualityMeasure.h"
#include "sim/PhysicsComparison.h"

namespace sg::python {

namespace {

py::object optionalNumber(const std::optional<double>& v) { return v ? py::object(py::float_(*v)) : py::none(); }

// The worlds argument: one World or a sequence of them.
std::vector<WorldPtr> worldList(const py::object& worlds) {
  if (py::isinstance<PyWorld>(worlds)) return {worlds.cast<WorldPtr>()};
  std::vector<WorldPtr> out;
  for (const py::handle& w : worlds) {
    if (!py::isinstance<PyWorld>(w)) throw py::value_error("worlds: expected a World or a list of Worlds");
    out.push_back(w.cast<WorldPtr>());
  }
  if (out.empty()) throw py::value_error("worlds: no world given");
  return out;
}

py::dict resultDict(const std::vector<WorldPtr>& worlds, const sim::PhysicsComparison& c) {
  py::list rows;
  for (const sim::PredictorRow& r : c.table.rows) {
    py::dict row;
    row["model"] = r.predictor.model;
    row["measure"] = r.predictor.measure;
    row["grasps"] = r.grasps;
    row["missing"] = r.missing;
    row["successes"] = r.successes;
    row["auc"] = optionalNumber(r.auc);
    row["spearman"] = optionalNumber(r.spearman);
    row["undefined"] = r.undefined;
    rows.append(row);
  }
  py::list samples;
  for (const sim::PhysicsSample& s : c.samples) {
    if (!s.score) continue;  // as the CLI: the grasps tried
    py::dict o;
    o["world"] = s.world;
    o["seed"] = s.seed;
    o["rank"] = s.rank;
    o["score"] = *s.score;
    o["held"] = s.held;
    py::list values;
    for (const std::optional<double>& v : s.predictors) values.append(optionalNumber(v));
    o["predictors"] = values;
    py::dict statics;
    for (std::size_t m = 0; m < c.models.size() && m < s.staticHeld.size(); ++m)
      statics[py::str(c.models[m])] = s.staticHeld[m] ? py::cast(*s.staticHeld[m]) : py::none();
    o["static_held"] = statics;
    o["state"] = PyState{worlds[s.world], s.state};
    samples.append(o);
  }
  py::list agreement;
  for (const sim::HoldAgreement& a : c.agreement) {
    py::dict o;
    o["model"] = a.model;
    o["direction"] = a.direction.name();
    o["both_held"] = a.bothHeld;
    o["static_only"] = a.staticOnly;
    o["physics_only"] = a.physicsOnly;
    o["neither"] = a.neither;
    o["not_applicable"] = a.notApplicable;
    agreement.append(o);
  }
  py::dict out;
  out["models"] = c.models;
  out["measures"] = c.measures;
  out["success_score"] = c.table.successScore;
  out["grasps"] = c.table.grasps;
  out["successes"] = c.table.successes;
  out["rows"] = rows;
  out["samples"] = samples;
  out["agreement"] = agreement;
  out["complete"] = c.complete;
  return out;
}

}  // namespace

void bindSim(py::module_& m) {
  m.def(
      "compare_physics",
      [](const py::object& worldsArg, int seeds, long iterations, int keep, int threads, double duration_s,
         double successScore, py::object models, py::object measureNames, bool staticCheck, py::object settings,
         int robot, py::object graspable, double threshold_mm, py::object callback) {
        const std::vector<WorldPtr> worlds = worldList(worldsArg);
        sim::PhysicsComparisonRequest request;
        if (seeds < 1) throw py::value_error("seeds: expected at least 1, got " + std::to_string(seeds));
        if (iterations < 1) throw py::value_error("iterations: expected at least 1");
        if (keep < 1) throw py::value_error("keep: expected at least 1, got " + std::to_string(keep));
        if (threads < 1) throw py::value_error("threads: expected at least 1, got " + std::to_string(threads));
        if (!(successScore > 0 && successScore <= 1))
          throw py::value_error("success_score: expected a trial score in (0, 1]");
        request.seeds = seeds;
        request.iterations = iterations;
        request.keep = static_cast<std::size_t>(keep);
        request.threads = threads;
        request.successScore = successScore;
        request.trial.duration_s = positive(duration_s, "duration_s");
        request.staticCheck = staticCheck;
        // As the CLI: the planner's analysis uses the models named (default soft-finger) and the measures named
        // (default every one); the comparison every model (or those named) and every measure but volume-linf.
        RequestArgs ra;
        ra.settings = std::move(settings), ra.robot = robot, ra.graspable = std::move(graspable);
        ra.threshold_mm = threshold_mm, ra.measures = measureNames;
        if (!models.is_none()) {
          ra.contactModels = models.cast<std::vector<std::string>>();
          for (const std::string& name : ra.contactModels) {
            const ContactModel* found = findContactModel(name);
            if (!found) throw py::value_error("contact model '" + name + "': expected " + contactModelNames());
            request.compare.models.push_back(found->name());
          }
        } else {
          for (const ContactModel* model : contactModels()) request.compare.models.push_back(model->name());
        }
        request.compare.measures =
            measureNames.is_none() ? sim::defaultPhysicsMeasures() : measureNames.cast<std::vector<std::string>>();
        std::vector<sim::PhysicsWorld> physicsWorlds;
        for (const WorldPtr& w : worlds) physicsWorlds.push_back({&w->world, w->file, analysisRequest(w->world, ra)});
        PyProgress progress(callback);
        sim::PhysicsComparison result;
        try {
          py::gil_scoped_release release;
          result = sim::comparePhysics(physicsWorlds, request, progress);
        } catch (const Cancelled&) {
          progress.rethrowPending();  // KeyboardInterrupt while planning: no table
          throw;
        }
        return resultDict(worlds, result);
      },
      py::arg("worlds"), py::kw_only(), py::arg("seeds") = 3, py::arg("iterations") = 5000, py::arg("keep") = 20,
      py::arg("threads") = 1, py::arg("duration_s") = 1.0, py::arg("success_score") = 0.5,
      py::arg("contact_models") = py::none(), py::arg("measures") = py::none(), py::arg("static_check") = true,
      py::arg("settings") = py::none(), py::arg("robot") = 0, py::arg("graspable") = py::none(),
      py::arg("threshold_mm") = 0.2, py::arg("progress") = py::none(),
      "Which quality measure predicts a physics trial (src/sim/README.md §Measures against physics), as\n"
      "softgrasp-cli compare --against-physics: plans each World with seeds 1..seeds (iterations, the final\n"
      "stage on), takes the best `keep` kept grasps of each plan, measures them under every contact model (or\n"
      "contact_models) with every measure but volume-linf (or measures), runs GraspIt!'s static check per model\n"
      "(static_check) and the MuJoCo trial (duration_s of pull per direction) on `threads` threads.\n"
      "worlds: a World or a list of Worlds. settings, robot, graspable, threshold_mm: as analyze().\n"
      "Returns a dict: rows (per model and measure, then static-held: model, measure, grasps, missing,\n"
      "successes, auc, spearman (None: undefined), undefined), samples (per grasp tried: world, seed, rank,\n"
      "score, held per direction, predictors in the order of rows, static_held per model, state), agreement\n"
      "(per model and direction: both_held, static_only, physics_only, neither, not_applicable), models,\n"
      "measures, success_score, grasps, successes, complete. Ctrl+C while planning raises KeyboardInterrupt;\n"
      "during the trials it returns the grasps tried (complete False).");
}

}  // namespace sg::python
