// softgrasp.analyze → Analysis, evaluate_many, contact_models(), quality_measures() (README.md here).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "Request.h"
#include "grasp/AnalysisJson.h"

namespace sg::python {

namespace {

// One analysis: the request, the state after the hand motion and the engine's result.
struct PyAnalysis {
  WorldPtr world;
  WorldState state;
  AnalysisRequest request;
  AnalysisResult result;
};

}  // namespace

py::object resultType(const char* name) { return py::module_::import("softgrasp._types").attr(name); }

py::object measureObject(const MeasureValue& v) {
  const double value = v.ok ? v.value : std::numeric_limits<double>::quiet_NaN();
  py::object lower = py::none(), upper = py::none();
  int iterations = 0;
  bool converged = true;
  if (v.bounds) {
    lower = py::float_(v.bounds->lower), upper = py::float_(v.bounds->upper);
    iterations = v.bounds->iterations, converged = v.bounds->converged;
  }
  return resultType("Measure")(value, v.measure, v.ok, v.message, lower, upper, iterations, converged,
                               v.bounds.has_value());
}

py::dict measureDict(const std::vector<MeasureValue>& values) {
  py::dict out;
  for (const MeasureValue& v : values) out[py::str(v.measure)] = measureObject(v);
  return out;
}

namespace {

py::object types(const char* name) { return resultType(name); }

py::dict measures(const GraspEvaluation& e) { return measureDict(e.measures); }

py::object contacts(const World& world, const std::vector<Contact>& cs) {
  std::vector<std::string> body1, body2;
  std::vector<Vec3> p1, n1, p2, n2;
  std::vector<double> separation, muS, muK;
  py::array_t<bool> penetrating(static_cast<py::ssize_t>(cs.size()));
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Contact& c = cs[i];
    body1.push_back(world.bodyLabel(c.side1.body)), body2.push_back(world.bodyLabel(c.side2.body));
    p1.push_back(c.side1.p_WC_mm), n1.push_back(c.side1.n_W), p2.push_back(c.side2.p_WC_mm), n2.push_back(c.side2.n_W);
    separation.push_back(c.separation_mm), muS.push_back(c.muStatic), muK.push_back(c.muKinetic);
    penetrating.mutable_data()[i] = c.penetrating;
  }
  return types("Contacts")(body1, body2, rows3(p1), rows3(n1), rows3(p2), rows3(n2), numbers(separation),
                           penetrating, numbers(muS), numbers(muK));
}

py::object modelContacts(const World& world, const GraspEvaluation& e) {
  py::list sources, kind, body, shape, outlines, edges, wrenches, details;
  std::vector<Vec3> p, n;
  std::vector<double> mu, torsion, maxTorsion, area, force, pressure;
  for (std::size_t i = 0; i < e.contacts.size(); ++i) {
    const ContactEvaluation& c = e.contacts[i];
    sources.append(py::cast(c.sourceContacts));
    kind.append(toString(c.kind));
    const ContactSide& hand = c.objectIsSide1 ? c.contact.side2 : c.contact.side1;
    body.append(world.bodyLabel(hand.body));
    p.push_back(c.onObject().p_WC_mm), n.push_back(c.onObject().n_W);
    mu.push_back(c.mu), torsion.push_back(c.torsion_mm), maxTorsion.push_back(c.maxTorsionalFriction_Nmm);
    shape.append(c.patchShape);
    area.push_back(c.patchArea_mm2), force.push_back(c.normalForce_N), pressure.push_back(c.peakPressure_Pa);
    outlines.append(rows3(c.patchOutline_W_mm));
    edges.append(rows6(c.frictionEdges));
    wrenches.append(rows6(c.wrenches));
    details.append(e.modelResult ? toPython(e.modelResult->describeContact(i)) : py::dict());
  }
  return types("ModelContacts")(sources, kind, body, rows3(p), rows3(n), numbers(mu), numbers(torsion),
                                numbers(maxTorsion), shape, numbers(area), numbers(force), numbers(pressure),
                                outlines, edges, wrenches, details);
}

py::object modelResult(const World& world, const GraspEvaluation& e, const std::string& error) {
  return types("ModelResult")(e.contactModel, e.forceClosure(), e.reference.torqueScale_mm, measures(e),
                              modelContacts(world, e),
                              e.modelResult ? toPython(e.modelResult->describe()) : py::dict(), error);
}

PyAnalysis analyzeOnce(const WorldPtr& world, const PyState* state, const RequestArgs& args,
                       const py::object& callback) {
  PyAnalysis a{world, stateFor(world, state), analysisRequest(world->world, args), {}};
  PyProgress progress(callback);
  try {
    py::gil_scoped_release release;
    a.result = runAnalysis(world->world, a.state, a.request, progress);
  } catch (const Cancelled&) {
    progress.rethrowPending();  // the callback's exception or KeyboardInterrupt
    throw;
  }
  return a;
}

// Per state: the primary model's measures, force closure and contact count, or the error.
struct ManySlot {
  std::vector<MeasureValue> measures;
  bool forceClosure = false;
  std::size_t contacts = 0;
  std::string error;
};

void evaluateSlot(const World& world, WorldState state, const AnalysisRequest& request, ManySlot& slot) {
  try {
    NullProgress none;
    AnalysisResult r = runAnalysis(world, state, request, none);
    if (const GraspEvaluation* e = r.primary()) {
      slot.measures = e->measures;
      slot.forceClosure = e->forceClosure();
      slot.contacts = e->contacts.size();
    }
  } catch (const std::exception& e) {
    slot.error = e.what();
  }
}

py::object evaluateMany(const WorldPtr& world, const std::vector<PyState>& states, const RequestArgs& args,
                        int threads) {
  const AnalysisRequest request = analysisRequest(world->world, args);
  for (const PyState& s : states)
    if (s.world != world) throw py::value_error("evaluate_many: a state belongs to another world");
  if (threads < 0) throw py::value_error("threads: expected 0 (one per core) or a positive count");
  const std::size_t n = states.size();
  std::size_t workers = threads > 0 ? static_cast<std::size_t>(threads) : std::max(1u, std::thread::hardware_concurrency());
  workers = std::max<std::size_t>(1, std::min(workers, n));
  std::vector<ManySlot> slots(n);
  std::vector<WorldState> inputs;
  inputs.reserve(n);
  for (const PyState& s : states) inputs.push_back(s.state);  // copied with the GIL held
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  const World& w = world->world;
  {
    py::gil_scoped_release release;
    // Each worker takes the next state and analyses its own copy; the World is only read (Analysis.h).
    std::vector<std::thread> pool;
    std::atomic<std::size_t> running{workers};
    for (std::size_t t = 0; t < workers; ++t)
      pool.emplace_back([&] {
        for (std::size_t i; !stop.load() && (i = next.fetch_add(1)) < n;) evaluateSlot(w, inputs[i], request, slots[i]);
        running.fetch_sub(1);
      });
    // The calling thread watches for Ctrl+C; the workers finish the state they are on and stop.
    while (running.load() > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        stop.store(true);
        PyErr_Clear();  // raised again below, once the workers are joined
      }
    }
    for (std::thread& t : pool) t.join();
  }
  if (stop.load()) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  py::dict values, lower, upper;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const std::string& name : request.measures) {
    std::vector<double> v(n, nan), lo(n, nan), hi(n, nan);
    for (std::size_t i = 0; i < n; ++i)
      for (const MeasureValue& m : slots[i].measures)
        if (m.measure == name && m.ok) {
          v[i] = m.value;
          lo[i] = m.bounds ? m.bounds->lower : m.value;
          hi[i] = m.bounds ? m.bounds->upper : m.value;
        }
    values[py::str(name)] = numbers(v), lower[py::str(name)] = numbers(lo), upper[py::str(name)] = numbers(hi);
  }
  py::array_t<bool> closure(static_cast<py::ssize_t>(n));
  py::array_t<long> contactCount(static_cast<py::ssize_t>(n));
  std::vector<std::string> errors;
  for (std::size_t i = 0; i < n; ++i) {
    closure.mutable_data()[i] = slots[i].forceClosure;
    contactCount.mutable_data()[i] = static_cast<long>(slots[i].contacts);
    errors.push_back(slots[i].error);
  }
  return types("ManyResults")(values, lower, upper, closure, contactCount, errors);
}

RequestArgs requestArgs(py::object approach, bool autograsp, std::vector<std::string> models, py::object measures,
                        py::object settings, int robot, py::object graspable, double threshold_mm,
                        std::string scope) {
  return {std::move(approach), autograsp, std::move(models), std::move(measures), std::move(settings), robot,
          std::move(graspable), threshold_mm, std::move(scope)};
}

}  // namespace

void bindAnalysis(py::module_& m) {
  m.def(
      "contact_models",
      [] {
        py::dict out;
        for (const ContactModel* c : contactModels()) out[py::str(c->name())] = c->description();
        return out;
      },
      "The registered contact models: {name: description}, in registry order (src/contact/README.md).");
  m.def(
      "quality_measures",
      [] {
        py::dict out;
        for (const QualityMeasure* q : qualityMeasures()) out[py::str(q->name())] = q->label();
        return out;
      },
      "The registered quality measures: {name: label}, in registry order (src/grasp/QUALITY.md §Measures).");

  py::class_<PyAnalysis>(m, "Analysis",
                         "One grasp analysis (analyze): the state after the hand motion, every contact found, and\n"
                         "per contact model its contacts and measures. Keeps its World alive.")
      .def_property_readonly("state", [](const PyAnalysis& a) { return PyState{a.world, a.state}; },
                             "The WorldState analysed (after the hand motion).")
      .def_property_readonly("graspable",
                             [](const PyAnalysis& a) -> py::object {
                               if (a.result.graspable < 0) return py::none();
                               return py::str(a.world->world.bodyLabel(
                                   {BodyHandle::Kind::Graspable, a.result.graspable, {}}));
                             },
                             "The graspable body evaluated (its name), None when the world has none.")
      .def_property_readonly("graspable_index", [](const PyAnalysis& a) { return a.result.graspable; },
                             "Its index in World.graspables (-1: none).")
      .def_property_readonly("approach",
                             [](const PyAnalysis& a) -> py::object {
                               if (!a.result.motion.approach.run) return py::none();
                               return py::str(approachOutcome(a.result.motion));
                             },
                             "Why the approach stopped (\"contact\", \"reached\", ...), None when none ran.")
      .def_property_readonly("grasp", [](const PyAnalysis& a) { return fingersOutcome(a.result.motion); },
                             "Why the finger motion stopped, \"not run\" when the DOFs were kept.")
      .def_property_readonly("contacts", [](const PyAnalysis& a) { return contacts(a.world->world, a.result.contacts); },
                             "Every contact found (Contacts: arrays in world, mm), the hand's contacts first.")
      .def_property_readonly("contact_model",
                             [](const PyAnalysis& a) { return a.request.contactModels.front(); },
                             "The primary contact model's name.")
      .def_property_readonly("models",
                             [](const PyAnalysis& a) {
                               py::dict out;
                               for (std::size_t i = 0; i < a.result.evaluations.size(); ++i)
                                 out[py::str(a.result.evaluations[i].contactModel)] = modelResult(
                                     a.world->world, a.result.evaluations[i],
                                     i < a.result.modelErrors.size() ? a.result.modelErrors[i] : "");
                               return out;
                             },
                             "{model name: ModelResult}, in request order.")
      .def_property_readonly("measures",
                             [](const PyAnalysis& a) {
                               const GraspEvaluation* e = a.result.primary();
                               return e ? measures(*e) : py::dict();
                             },
                             "The primary model's measures: {name: Measure} (a float with .lower/.upper bounds).")
      .def_property_readonly("force_closure",
                             [](const PyAnalysis& a) {
                               const GraspEvaluation* e = a.result.primary();
                               return e && e->forceClosure();
                             },
                             "Force closure by the primary model's ε L1.")
      .def(
          "to_json",
          [](const PyAnalysis& a) {
            return withFormat(kAnalysisFormat, analysisRunJson(a.world->file, a.world->world, a.state, a.request,
                                                               a.result, a.world->warnings))
                .dump();
          },
          "The analysis document (docs/schemas/quality.schema.json): the text softgrasp-cli quality --json\n"
          "prints for the same world and options, without its final newline.")
      .def("__repr__", [](const PyAnalysis& a) {
        return "<softgrasp.Analysis of '" + a.world->file + "': " + std::to_string(a.result.contacts.size()) +
               " contact(s)>";
      });

  m.def(
      "analyze",
      [](const WorldPtr& w, const PyState* state, py::object approach, bool autograsp,
         std::vector<std::string> models, py::object measureNames, py::object settings, int robot,
         py::object graspable, double threshold_mm, std::string scope, py::object progress) {
        return analyzeOnce(w, state,
                           requestArgs(std::move(approach), autograsp, std::move(models), std::move(measureNames),
                                       std::move(settings), robot, std::move(graspable), threshold_mm,
                                       std::move(scope)),
                           progress);
      },
      py::arg("world"), py::arg("state") = py::none(), py::kw_only(), py::arg("approach") = false,
      py::arg("autograsp") = false, py::arg("contact_models") = std::vector<std::string>{"soft-finger"},
      py::arg("measures") = py::none(), py::arg("settings") = py::none(), py::arg("robot") = 0,
      py::arg("graspable") = py::none(), py::arg("threshold_mm") = 0.2, py::arg("contact_scope") = "world",
      py::arg("progress") = py::none(),
      (std::string("Analyses the grasp of `world` in `state` (default: the world's state), the engine's one\n"
                   "analysis call (src/grasp/Analysis.h) as softgrasp-cli quality makes it; returns an Analysis.\n"
                   "The input state is not changed (the motion moves a copy: Analysis.state).\n\n") +
       kRequestDoc +
       "progress: None or a callable(fraction, message), called from the computation; raising in it (or\n"
       "    Ctrl+C) stops the analysis with that exception.\n\n"
       "Raises ValueError (unknown model or measure, bad settings), IndexError (robot or graspable out of\n"
       "range), softgrasp.Error (the engine could not evaluate) or KeyboardInterrupt.\n\n"
       "Example: softgrasp.analyze(softgrasp.load_world('worlds/default.xml'), autograsp=True).measures['epsilon-l1']")
          .c_str());

  // For tests/bench/bench_python.py: the engine call analyze() makes, timed in C++ on the same state and
  // request, so the benchmark compares the module's overhead like with like.
  m.def(
      "_time_analyze",
      [](const WorldPtr& w, const PyState* state, bool autograsp, int repeats) {
        RequestArgs args;
        args.autograsp = autograsp;
        const AnalysisRequest request = analysisRequest(w->world, args);
        const WorldState start = stateFor(w, state);
        std::vector<double> seconds;
        double epsilon = std::numeric_limits<double>::quiet_NaN();
        {
          py::gil_scoped_release release;
          for (int i = 0; i < repeats; ++i) {
            NullProgress none;
            WorldState s = start;
            const auto t0 = std::chrono::steady_clock::now();
            const AnalysisResult r = runAnalysis(w->world, s, request, none);
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            if (const MeasureValue* v = r.primary() ? r.primary()->measure("epsilon-l1") : nullptr)
              epsilon = v->ok ? v->value : epsilon;
          }
        }
        return py::make_tuple(seconds, epsilon);
      },
      py::arg("world"), py::arg("state"), py::arg("autograsp"), py::arg("repeats"),
      "Benchmark hook: seconds per runAnalysis call and the last ε L1 (tests/bench/bench_python.py).");

  m.def(
      "evaluate_many",
      [](const WorldPtr& w, const std::vector<PyState>& states, py::object approach, bool autograsp,
         std::vector<std::string> models, py::object measureNames, py::object settings, int robot,
         py::object graspable, double threshold_mm, std::string scope, int threads) {
        return evaluateMany(w, states,
                            requestArgs(std::move(approach), autograsp, std::move(models), std::move(measureNames),
                                        std::move(settings), robot, std::move(graspable), threshold_mm,
                                        std::move(scope)),
                            threads);
      },
      py::arg("world"), py::arg("states"), py::kw_only(), py::arg("approach") = false, py::arg("autograsp") = false,
      py::arg("contact_models") = std::vector<std::string>{"soft-finger"}, py::arg("measures") = py::none(),
      py::arg("settings") = py::none(), py::arg("robot") = 0, py::arg("graspable") = py::none(),
      py::arg("threshold_mm") = 0.2, py::arg("contact_scope") = "world", py::arg("threads") = 0,
      (std::string("Analyses many states of one world in one call and returns a ManyResults of arrays (one row\n"
                   "per state, in order): the same values as analyze() on each state with the same options.\n"
                   "The GIL is released; `threads` workers (0: one per core) each analyse their own copy of a\n"
                   "state against the one World, which nothing changes meanwhile (do not assign World.state\n"
                   "from another Python thread during the call). A state whose analysis fails gets NaN and its\n"
                   "message in ManyResults.errors; Ctrl+C stops the call (KeyboardInterrupt).\n\n") +
       kRequestDoc)
          .c_str());
}

}  // namespace sg::python
