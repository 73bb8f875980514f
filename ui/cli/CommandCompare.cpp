// softgrasp-cli compare WORLD [--robot N] [--graspable N] [--approach [MM]] [--autograsp | --no-close]
//                            [--threshold MM] [--contact-model M[,M...]] [--measures Q[,Q...]] [--force N] ...
//                            [--sweep PARAM:FROM:TO:N] [--json | --csv] [--no-progress | --progress] [--model-root DIR]...
// Every registered contact model (or --contact-model) on the same grasp, side by side (src/grasp/ModelComparison.h):
// per contact and model the patch shape, area, normal force, peak pressure and torsional limit; per model the
// grasp's ε (L1, L∞, exact cone) and L1 volume. --sweep adds the sensitivity table
// (src/grasp/SensitivitySweep.h): the same models at each value of Young's modulus, the normal force or μ.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "AnalysisOptions.h"
#include "CommandRegistry.h"
#include "ComparePhysics.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "Interrupt.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "core/Error.h"
#include "grasp/AnalysisJson.h"
#include "grasp/SensitivitySweep.h"

namespace sg::cli {

namespace {

std::vector<std::string> compareCommaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

ComparisonRequest comparisonRequest(const ParsedArgs& args) {
  ComparisonRequest r;
  if (const auto m = args.value("--contact-model")) {
    for (const std::string& name : compareCommaList(*m)) {
      const ContactModel* model = findContactModel(name);
      if (!model) throw UsageError("--contact-model: expected " + contactModelNames() + ", got '" + name + "'");
      r.models.push_back(model->name());
    }
    if (r.models.empty()) throw UsageError("--contact-model: no model named");
  }
  if (const auto m = args.value("--measures")) r.measures = compareCommaList(*m);  // checked by analysisRequest
  return r;
}

// "youngs:1e5:1e9:9" → parameter and values.
std::optional<SweepRequest> sweepRequest(const ParsedArgs& args, const ComparisonRequest& compare) {
  const auto text = args.value("--sweep");
  if (!text) return std::nullopt;
  std::vector<std::string> parts;
  std::stringstream in(*text);
  for (std::string item; std::getline(in, item, ':');) parts.push_back(item);
  const auto parameter = parts.empty() ? std::nullopt : sweepParameterFromKey(parts[0]);
  if (parts.size() != 4 || !parameter)
    throw UsageError("--sweep: expected PARAM:FROM:TO:N with PARAM youngs, force or mu, got '" + *text + "'");
  const double from = parseNumberList("--sweep", parts[1]).at(0);
  const double to = parseNumberList("--sweep", parts[2]).at(0);
  const double n = parseNumberList("--sweep", parts[3]).at(0);
  if (n < 2 || n > 1000 || n != static_cast<int>(n)) throw UsageError("--sweep: N must be an integer from 2 to 1000");
  SweepRequest r;
  r.parameter = *parameter;
  try {
    r.values = sweepValues(*parameter, from, to, static_cast<int>(n));
  } catch (const Error& e) {
    throw UsageError("--sweep: " + e.message());
  }
  r.models = compare.models;
  return r;
}

std::string cellText(const ComparedContact& c, const ModelComparison& comparison) {
  if (!c.present)
    return c.mergedInto >= 0 ? "merged into contact " + std::to_string(c.mergedInto + 1) : "-";
  std::string out = toString(c.kind);
  if (!c.patchShape.empty())
    out += ", " + c.patchShape + " " + TextPrinter::number(c.patchArea_mm2) + " mm²";
  if (c.normalForce_N > 0) out += ", N " + TextPrinter::number(c.normalForce_N) + " N";
  if (c.peakPressure_Pa > 0) out += ", p max " + TextPrinter::number(c.peakPressure_Pa) + " Pa";
  if (c.maxTorsionalFriction_Nmm > 0) out += ", τ max " + TextPrinter::number(c.maxTorsionalFriction_Nmm) + " N·mm";
  out += ", μ " + TextPrinter::number(c.mu);
  if (!c.note.empty()) out += " (" + c.note + ")";
  (void)comparison;
  return out;
}

std::string measureText(const ModelColumn& column, const std::string& name) {
  const MeasureValue* m = column.measure(name);
  if (!m) return "-";
  return m->ok ? TextPrinter::number(m->value) : "n/a (" + m->message + ")";
}

Json measureJson(const ModelColumn& column, const std::string& name) {
  const MeasureValue* m = column.measure(name);
  return m && m->ok ? Json(m->value) : Json();
}

Json cellJson(const ComparedContact& c) {
  Json o = Json::object();
  o.set("present", c.present);
  if (!c.present) {
    o.set("mergedInto", c.mergedInto >= 0 ? Json(c.mergedInto + 1) : Json());
    return o;
  }
  o.set("kind", toString(c.kind));
  o.set("patchShape", Json(c.patchShape));
  o.set("patchArea_mm2", Json(c.patchArea_mm2));
  o.set("normalForce_N", Json(c.normalForce_N));
  o.set("peakPressure_Pa", Json(c.peakPressure_Pa));
  o.set("mu", Json(c.mu));
  o.set("torsion_mm", Json(c.torsion_mm));
  o.set("maxTorsionalFriction_Nmm", Json(c.maxTorsionalFriction_Nmm));
  Json outline = Json::array();
  for (const Vec3& p : c.patchOutline_W_mm) outline.push(jsonVec(p));
  o.set("patchOutline_W_mm", outline);
  if (!c.note.empty()) o.set("note", Json(c.note));
  return o;
}

Json comparisonJson(const ModelComparison& comparison) {
  Json models = Json::array();
  for (const ModelColumn& column : comparison.columns) {
    Json m = Json::object();
    m.set("name", Json(column.model));
    m.set("label", Json(column.label));
    m.set("ok", column.ok);
    if (!column.ok) m.set("error", Json(column.error));
    Json measures = Json::object();
    for (const std::string& name : comparison.measures) measures.set(name, measureJson(column, name));
    m.set("measures", measures);
    models.push(m);
  }
  Json contacts = Json::array();
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    Json row = Json::object();
    row.set("contact", static_cast<int>(r + 1));
    row.set("sourceContact", comparison.rows[r].sourceContact);
    row.set("bodies", Json(comparison.rows[r].label));
    const Contact& found = comparison.contacts[static_cast<std::size_t>(comparison.rows[r].sourceContact)];
    row.set("position1_mm", jsonVec(found.side1.p_WC_mm));
    row.set("position2_mm", jsonVec(found.side2.p_WC_mm));
    row.set("separation_mm", Json(found.separation_mm));
    row.set("penetrating", found.penetrating);
    row.set("depth_mm", Json(found.depth_mm()));
    Json cells = Json::object();
    for (const ModelColumn& column : comparison.columns)
      cells.set(column.model, cellJson(column.contacts[r]));
    row.set("models", cells);
    contacts.push(row);
  }
  Json doc = Json::object();
  doc.set("models", models);
  doc.set("contacts", contacts);
  return doc;
}

Json sweepJson(const SweepTable& table) {
  Json doc = Json::object();
  doc.set("parameter", toString(table.parameter));
  doc.set("unit", sweepParameterUnit(table.parameter));
  Json points = Json::array();
  for (const SweepPoint& p : table.points) {
    Json o = Json::object();
    o.set("value", Json(p.value));
    o.set("model", Json(p.model));
    o.set("ok", p.ok);
    if (!p.ok) o.set("error", Json(p.error));
    Json measures = Json::object();
    for (std::size_t k = 0; k < table.measures.size(); ++k)
      measures.set(table.measures[k], p.measures[k] ? Json(*p.measures[k]) : Json());
    o.set("measures", measures);
    Json areas = Json::array(), limits = Json::array();
    for (double a : p.patchArea_mm2) areas.push(Json(a));
    for (double t : p.torsionalLimit_Nmm) limits.push(Json(t));
    o.set("patchArea_mm2", areas);
    o.set("torsionalLimit_Nmm", limits);
    o.set("meanPatchArea_mm2", Json(p.meanPatchArea_mm2));
    o.set("meanTorsionalLimit_Nmm", Json(p.meanTorsionalLimit_Nmm));
    points.push(o);
  }
  doc.set("points", points);
  return doc;
}

void printSweep(TextPrinter& out, const SweepTable& table) {
  out.line(std::string("sweep of ") + toString(table.parameter) +
           (*sweepParameterUnit(table.parameter) ? std::string(" (") + sweepParameterUnit(table.parameter) + ")" : ""));
  TextPrinter::Indent indent(out);
  for (const SweepPoint& p : table.points) {
    std::string text = TextPrinter::number(p.value) + "  " + p.model + ":";
    if (!p.ok) {
      out.line(text + " failed: " + p.error);
      continue;
    }
    for (std::size_t k = 0; k < table.measures.size(); ++k)
      text += " " + table.measures[k] + " " + (p.measures[k] ? TextPrinter::number(*p.measures[k]) : "n/a");
    text += ", mean patch " + TextPrinter::number(p.meanPatchArea_mm2) + " mm², mean τ max " +
            TextPrinter::number(p.meanTorsionalLimit_Nmm) + " N·mm";
    out.line(text);
  }
}

// The sweep's progress on the same line as the comparison's, its messages marked "sweep: ".
class SweepProgress final : public ProgressSink {
 public:
  explicit SweepProgress(ProgressSink& parent) : parent_(parent) {}
  void report(double fraction, std::string_view message) override {
    parent_.report(fraction, "sweep: " + std::string(message));
  }
  bool cancelRequested() const override { return parent_.cancelRequested(); }

 private:
  ProgressSink& parent_;
};

// Ctrl+C during --sweep: the values done are printed (text, JSON or CSV) and stderr says how many.
int sweepExit(const std::optional<SweepTable>& table) {
  if (!table || !table->cancelled) return kExitOk;
  std::cout << std::flush;
  const std::size_t models = std::max<std::size_t>(1, table->models.size());
  std::cerr << "softgrasp-cli: compare: interrupted: the sweep's first " << table->points.size() / models
            << " value(s) are printed\n";
  return kExitInterrupted;
}

int runCompare(const ParsedArgs& args) {
  if (args.has("--against-physics")) return runCompareAgainstPhysics(args);
  for (const char* physicsOnly :
       {"--world", "--seeds", "--iterations", "--keep", "--threads", "--duration", "--timestep", "--success-score"})
    if (args.has(physicsOnly)) throw UsageError(std::string(physicsOnly) + " needs --against-physics");
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv exclude each other");
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  const AnalysisRequest analysis = analysisRequest(args, input, /*closeByDefault=*/false);
  const ComparisonRequest request = comparisonRequest(args);
  const std::optional<SweepRequest> sweep = sweepRequest(args, request);
  if (input.world.graspables.empty()) throw Error("no graspable body to evaluate", input.path);
  Warnings warnings;
  warnings.addLoadWarnings(input.world);
  World& world = input.world;
  installInterruptHandler();  // Ctrl+C: a comparison is dropped, a sweep keeps its values done
  TerminalProgress progress(progressWanted(args));
  HandMotionReport motion;
  const ModelComparison comparison = runComparison(world, world.state, analysis, request, progress, &motion);
  std::optional<SweepTable> table;
  if (sweep) {
    SweepRequest s = *sweep;
    if (!args.has("--measures")) s.measures = SweepRequest{}.measures;
    else s.measures = request.measures;
    s.keepPointsOnCancel = true;
    SweepProgress sweepProgress(progress);
    table = runSweep(world, world.state, comparison.contacts, comparison.graspable, analysis.quality, s, sweepProgress);
  }
  progress.clear();
  for (const ModelColumn& column : comparison.columns)
    if (!column.ok) warnings.add(column.model + " failed: " + column.error);
  const std::string object = world.bodyLabel({BodyHandle::Kind::Graspable, comparison.graspable, {}});

  if (args.has("--csv")) {
    std::cout << (table ? table->csv() : comparisonCsv(comparison));
    return sweepExit(table);
  }
  if (args.has("--json")) {
    Json doc = comparisonJson(comparison);
    doc.set("file", Json(input.path));
    doc.set("graspable", Json(object));
    doc.set("contactsFound", static_cast<int>(comparison.contacts.size()));
    if (motion.approach.run) doc.set("approach", Json(approachOutcome(motion)));
    if (analysis.motion.movesHand()) doc.set("grasp", Json(fingersOutcome(motion)));
    if (table) doc.set("sweep", sweepJson(*table));
    // Each model's evaluation as the engine writes it (src/grasp/AnalysisJson.h), the failed models left out.
    Json evaluations = Json::array();
    for (const ModelColumn& column : comparison.columns)
      if (column.ok) evaluations.push(evaluationJson(world, column.evaluation, analysis.quality));
    doc.set("evaluations", evaluations);
    doc.set("warnings", warnings.json());
    writeJson(std::cout, formats::compare, doc);
    return sweepExit(table);
  }
  TextPrinter out(std::cout);
  out.line("comparison on the grasp of " + object + ": " + std::to_string(comparison.rows.size()) + " contact(s), " +
           std::to_string(comparison.columns.size()) + " model(s)");
  TextPrinter::Indent indent(out);
  if (motion.approach.run) out.field("approach", approachOutcome(motion));
  if (analysis.motion.movesHand()) out.field("auto-grasp", fingersOutcome(motion));
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const Contact& found = comparison.contacts[static_cast<std::size_t>(comparison.rows[r].sourceContact)];
    out.line("contact " + std::to_string(r + 1) + ": " + comparison.rows[r].label + " at " +
             TextPrinter::vec(found.side1.p_WC_mm) + " mm, " +
             (found.penetrating ? "penetrating, depth " + TextPrinter::number(found.depth_mm())
                                : "gap " + TextPrinter::number(found.separation_mm)) + " mm");
    TextPrinter::Indent cells(out);
    for (const ModelColumn& column : comparison.columns)
      out.field(column.model, column.ok ? cellText(column.contacts[r], comparison) : "failed");
  }
  out.line("grasp");
  {
    TextPrinter::Indent grasp(out);
    for (const ModelColumn& column : comparison.columns) {
      if (!column.ok) {
        out.field(column.model, "failed: " + column.error);
        continue;
      }
      std::string text;
      for (const std::string& name : comparison.measures)
        text += (text.empty() ? "" : ", ") + name + " " + measureText(column, name);
      out.field(column.model, text);
    }
  }
  if (table) printSweep(out, *table);
  return sweepExit(table);
}

const RegisterCommand registerCompare{Command{
    "compare",
    "every contact model on the same grasp, side by side (optionally a sensitivity sweep)",
    "Loads a world file, optionally moves the hand (--approach, --autograsp), finds the contacts once and\n"
    "evaluates the grasp under every registered contact model (or --contact-model M,...): per contact and model the\n"
    "patch shape, area (mm^2), normal force (N), peak pressure (Pa), mu and torsional limit (N mm); per model\n"
    "epsilon of the L1, L-infinity and exact-cone sets and the L1 volume (--measures to choose). --sweep\n"
    "PARAM:FROM:TO:N repeats the models at N values of PARAM - youngs (Pa, every elastic body's modulus,\n"
    "logarithmic spacing), force (N, the patch normal force) or mu (every contact's friction) - and prints\n"
    "epsilon, the mean patch area and the mean torsional limit per value and model. --csv prints one table\n"
    "(the comparison, or the sweep with --sweep); --json everything. Progress goes to stderr when it is a\n"
    "terminal. Ctrl+C during a sweep prints the values done (exit code 130); a second Ctrl+C kills.\n"
    "--against-physics plans WORLD and each --world with seeds 1..--seeds (the final stage on), runs the physics\n"
    "trial (as validate) on every kept grasp on --threads threads and prints, per contact model and measure, the\n"
    "ROC AUC (success: trial score >= --success-score) and the Spearman correlation with the trial score\n"
    "(src/sim/README.md, Measures against physics); Ctrl+C during the trials prints the table of the grasps tried.",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::noClose(true), hand_options::threshold(),
                            {"--contact-model", "M[,M...]",
                             "contact models to compare (default every registered one: " + contactModelNames() + ")",
                             false, false, false, {"--models"}},
                            {"--measures", "Q[,Q...]", "quality measures per model (default epsilon-l1, epsilon-linf, "
                                                       "epsilon-exact, volume-l1; a sweep: the three epsilons)"},
                            {"--sweep", "PARAM:FROM:TO:N", "sensitivity sweep: youngs, force or mu from FROM to TO "
                                                           "in N values (e.g. youngs:1e5:1e9:9)"}}};
      for (OptionSpec& o : analysis_options::qualitySettings()) syntax.options.push_back(o);
      for (OptionSpec& o : againstPhysicsOptions()) syntax.options.push_back(o);
      syntax.options.push_back(common_options::json());
      syntax.options.push_back(
          common_options::csv("one CSV table on stdout (the comparison, the sweep, or the AUC/Spearman table)"));
      syntax.options.push_back(progress_options::noProgress());
      syntax.options.push_back(progress_options::progress());
      syntax.options.push_back(common_options::modelRoot());
      syntax.options.push_back(common_options::packagePath());
      return syntax;
    }(),
    runCompare}};

}  // namespace

}  // namespace sg::cli
