#include "AnalysisOptions.h"

#include <QFileInfo>
#include <QSettings>
#include <sstream>

#include "AnalysisSettingsIni.h"
#include "core/Error.h"
#include "contact/CurvatureEstimator.h"

namespace sg::cli {

namespace {

double numberOption(const ParsedArgs& args, const std::string& option, double fallback, bool integer = false) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(option, *text);
  if (v.size() != 1 || !(v[0] > 0) || (integer && v[0] != static_cast<double>(static_cast<long long>(v[0]))))
    throw UsageError(option + ": expected one positive " + (integer ? "integer" : "number") + ", got '" + *text + "'");
  return v[0];
}

std::optional<int> indexOption(const ParsedArgs& args, const std::string& option) {
  const auto text = args.value(option);
  if (!text) return std::nullopt;
  const auto v = parseNumberList(option, *text);
  if (v.size() != 1 || v[0] < 0 || v[0] != static_cast<int>(v[0]))
    throw UsageError(option + ": expected an index, got '" + *text + "'");
  return static_cast<int>(v[0]);
}

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// "patch.tolerance_mm, patch.curvedSamples, ..., penalty.stiffness_N_per_mm, ..." (every registered model's).
std::string modelParameterNames() {
  std::string out;
  for (const ContactModel* m : contactModels())
    for (const ModelParameter& p : m->parameters()) out += (out.empty() ? "" : ", ") + m->name() + "." + p.key;
  return out;
}

std::string measureNames() {
  std::string out;
  for (const std::string& m : qualityMeasureNames()) out += (out.empty() ? "" : ", ") + m;
  return out;
}

}  // namespace

AnalysisRequest analysisRequest(const ParsedArgs& args, const InputFile& input, bool closeByDefault) {
  const World& world = input.world;
  AnalysisRequest r;
  r.motion = handMotionRequest(args, closeByDefault);
  // --settings FILE: the analysis settings as the application stores and exports them (AnalysisSettingsIni.h);
  // the options given explicitly (--threshold, --contact-model, --curvature, --force, --edges, --torque-length)
  // override them.
  if (const auto file = args.value("--settings")) {
    const QString path = QString::fromStdString(*file);
    if (!QFileInfo(path).isFile()) throw UsageError("--settings: no such file '" + *file + "'");
    QSettings ini(path, QSettings::IniFormat);
    if (ini.status() != QSettings::NoError) throw UsageError("--settings: cannot read '" + *file + "' as an INI file");
    std::string contactModel = r.contactModels.empty() ? defaultContactModel().name() : r.contactModels.front();
    std::vector<std::string> problems;
    settings_ini::read(ini, r.collision, contactModel, r.quality, &problems);
    if (!problems.empty()) throw Error("--settings: " + problems.front(), *file);
    r.contactModels = {contactModel};
  }
  if (args.has("--threshold")) r.collision.contacts.threshold_mm = contactThreshold(args);

  r.graspable = indexOption(args, "--graspable");
  if (r.graspable && *r.graspable >= static_cast<int>(world.graspables.size()))
    throw UsageError("--graspable: " + input.path + " has " + std::to_string(world.graspables.size()) +
                     " graspable body(ies)");
  r.robot = indexOption(args, "--robot").value_or(0);
  if (r.robot >= static_cast<int>(world.robots.size()) && (r.motion.movesHand() || args.has("--robot")))
    throw UsageError(std::string(args.has("--robot") ? "--robot" : "--approach/--autograsp") + ": " + input.path +
                     " has " + std::to_string(world.robots.size()) + " robot(s)");
  if (r.robot >= static_cast<int>(world.robots.size())) r.motion = {};

  if (const auto m = args.value("--contact-model")) {
    r.contactModels.clear();
    for (const std::string& name : commaList(*m)) {
      const ContactModel* found = findContactModel(name);
      if (!found) throw UsageError("--contact-model: expected " + contactModelNames() + ", got '" + name + "'");
      r.contactModels.push_back(found->name());
    }
    if (r.contactModels.empty()) throw UsageError("--contact-model: no model named");
  }
  if (const auto m = args.value("--measures")) {
    r.measures = commaList(*m);
    for (const std::string& name : r.measures)
      if (!findQualityMeasure(name)) throw UsageError("--measures: expected " + measureNames() + ", got '" + name + "'");
  }
  if (const auto scope = args.value("--contact-scope")) {
    if (*scope == "world") r.contactScope = ContactScope::World;
    else if (*scope == "grasp") r.contactScope = ContactScope::Grasp;
    else throw UsageError("--contact-scope: expected world or grasp, got '" + *scope + "'");
  }
  QualitySettings& s = r.quality;
  if (const auto e = args.value("--curvature")) {
    const auto estimator = curvatureEstimatorFromKey(*e);
    if (!estimator) throw UsageError("--curvature: expected jet or graspit, got '" + *e + "'");
    s.soft.fit.estimator = *estimator;
  }
  s.soft.patch.normalForce_N = numberOption(args, "--force", s.soft.patch.normalForce_N);
  s.edges.pointContactEdges = static_cast<int>(numberOption(args, "--edges", s.edges.pointContactEdges, true));
  s.torqueLength_mm = numberOption(args, "--torque-length", s.torqueLength_mm);
  // --model-param MODEL.KEY=VALUE: a model's own setting as it declares it (src/contact/ModelParameter.h).
  for (const std::string& assignment : args.values("--model-param")) {
    try {
      applyModelParameterAssignment(s, assignment);
    } catch (const Error& e) {
      throw UsageError("--model-param: " + std::string(e.what()));
    }
  }
  return r;
}

namespace analysis_options {

OptionSpec robot() { return {"--robot", "N", "which robot to move (default 0)"}; }
OptionSpec graspable() {
  return {"--graspable", "N", "which graspable body to evaluate (default: the first one a hand touches, else 0)"};
}
OptionSpec contactModel() {
  return {"--contact-model", "M[,M...]",
          "contact model(s), evaluated side by side; the first is the primary one: " + contactModelNames() +
              " (default soft-finger)"};
}
OptionSpec settings() {
  return {"--settings", "FILE",
          "analysis settings as the application stores them (~/.config/SoftGrasp/softgrasp.conf) or exports them "
          "(File > Export Analysis Settings); explicit options override them"};
}
OptionSpec measures() { return {"--measures", "Q[,Q...]", "quality measures (default all): " + measureNames()}; }
std::vector<OptionSpec> qualitySettings() {
  return {settings(),
          {"--curvature", "EST",
           "curvature estimator of soft contacts: jet (osculating jet, default) or graspit (GraspIt!'s paraboloid)"},
          {"--force", "N", "normal force of a soft patch in newtons (default 5)"},
          {"--edges", "M", "friction-cone edges of a point contact (default 8)"},
          {"--torque-length", "MM", "torque scale (default: the object's max radius)"},
          {"--model-param", "MODEL.KEY=VALUE",
           "a contact model's own setting (repeatable; in range, else an error): " + modelParameterNames(), true},
          {"--contact-scope", "S",
           "pairs searched for contacts: world (every pair, default) or grasp (only the graspable's pairs with the "
           "hand: the same grasp and measures, without e.g. the table's contacts; faster in batch runs)"}};
}

}  // namespace analysis_options

}  // namespace sg::cli
