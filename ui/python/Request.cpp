#include "Request.h"

#include <cmath>

#include "contact/CurvatureEstimator.h"
#include "grasp/HandMotionPresets.h"
#include "contact/ModelParameter.h"
#include "core/NumberFormat.h"

namespace sg::python {

const char* const kRequestDoc =
    "approach: False, True (move the palm along its approach direction until contact, at most 30 mm) or a\n"
    "    distance in mm; autograsp: then close the fingers until contact (the hand motion of\n"
    "    softgrasp-cli --approach/--autograsp, on a copy of the state).\n"
    "contact_models: registered contact models evaluated side by side (contact_models()); the first is the\n"
    "    primary one, whose measures Analysis.measures holds.\n"
    "measures: registered quality measures (quality_measures()); None: all.\n"
    "settings: None or a dict: 'force_N' (a soft patch's normal force), 'edges' (friction-cone edges of a\n"
    "    point contact), 'torque_length_mm' (torque scale; default the object's max radius), 'curvature'\n"
    "    ('jet' or 'graspit'), and 'MODEL.KEY' for a contact model's own parameter (as softgrasp-cli\n"
    "    --model-param MODEL.KEY=VALUE, e.g. {'patch.tolerance_mm': 0.2}).\n"
    "robot: the hand that moves; graspable: the body evaluated (None: the first graspable a hand touches);\n"
    "threshold_mm: contact threshold (mm); contact_scope: 'world' (every pair) or 'grasp' (only the\n"
    "    graspable's pairs with the hand: same grasp and measures, faster).\n";

namespace {

std::string settingText(const py::handle& value, const std::string& key) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) {
    const double v = value.cast<double>();
    if (!std::isfinite(v)) throw py::value_error("settings['" + key + "']: not finite");
    return formatDouble(v);
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  throw py::value_error("settings['" + key + "']: expected a number, a bool or a string");
}

double positiveSetting(const py::handle& value, const std::string& key) {
  if (!(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) || py::isinstance<py::bool_>(value))
    throw py::value_error("settings['" + key + "']: expected a number");
  return positive(value.cast<double>(), "settings['" + key + "']");
}

}  // namespace

void applySettings(const py::object& settings, AnalysisRequest& r) {
  if (settings.is_none()) return;
  if (!py::isinstance<py::dict>(settings)) throw py::value_error("settings: expected a dict or None");
  QualitySettings& s = r.quality;
  for (const auto& [k, value] : settings.cast<py::dict>()) {
    const std::string key = py::str(k);
    if (key == "force_N") {
      s.soft.patch.normalForce_N = positiveSetting(value, key);
    } else if (key == "edges") {
      const double e = positiveSetting(value, key);
      if (e != std::floor(e) || e > 1e6) throw py::value_error("settings['edges']: expected a positive integer");
      s.edges.pointContactEdges = static_cast<int>(e);
    } else if (key == "torque_length_mm") {
      s.torqueLength_mm = positiveSetting(value, key);
    } else if (key == "curvature") {
      const auto estimator = curvatureEstimatorFromKey(settingText(value, key));
      if (!estimator) throw py::value_error("settings['curvature']: expected 'jet' or 'graspit'");
      s.soft.fit.estimator = *estimator;
    } else if (key.find('.') != std::string::npos) {
      try {
        applyModelParameterAssignment(s, key + "=" + settingText(value, key));
      } catch (const Error& e) {
        throw py::value_error("settings['" + key + "']: " + e.what());
      }
    } else {
      throw py::value_error("settings: unknown key '" + key +
                            "' (expected force_N, edges, torque_length_mm, curvature or MODEL.KEY)");
    }
  }
}

AnalysisRequest analysisRequest(const World& world, const RequestArgs& a) {
  AnalysisRequest r;
  bool approach = false;
  double distance_mm = kApproachBeforeGrasp_mm;
  if (py::isinstance<py::bool_>(a.approach)) {
    approach = a.approach.cast<bool>();
  } else if (py::isinstance<py::int_>(a.approach) || py::isinstance<py::float_>(a.approach)) {
    approach = true;
    distance_mm = positive(a.approach.cast<double>(), "approach");
  } else {
    throw py::value_error("approach: expected a bool or a distance in mm");
  }
  // As the application's switches and the CLI's flags (grasp/HandMotionPresets.h).
  r.motion = switchesMotion(approach, a.autograsp ? FingerMotion::Close : FingerMotion::Keep);
  r.motion.approachDistance_mm = distance_mm;
  r.collision.contacts.threshold_mm = positive(a.threshold_mm, "threshold_mm");
  if (!a.graspable.is_none()) {
    const int g = a.graspable.cast<int>();
    if (g < 0 || g >= static_cast<int>(world.graspables.size()))
      throw py::index_error("graspable " + std::to_string(g) + ": the world has " +
                            std::to_string(world.graspables.size()) + " graspable body(ies)");
    r.graspable = g;
  }
  r.robot = a.robot;
  if (a.robot < 0) throw py::index_error("robot: expected an index, got " + std::to_string(a.robot));
  if (a.robot >= static_cast<int>(world.robots.size())) {
    if (r.motion.movesHand()) robotIndex(world, a.robot);  // IndexError: nothing to move
    r.motion = {};
  }
  r.contactModels.clear();
  for (const std::string& name : a.contactModels) {
    const ContactModel* found = findContactModel(name);
    if (!found) throw py::value_error("contact model '" + name + "': expected " + contactModelNames());
    r.contactModels.push_back(found->name());
  }
  if (r.contactModels.empty()) throw py::value_error("contact_models: no model named");
  if (!a.measures.is_none()) {
    r.measures = a.measures.cast<std::vector<std::string>>();
    for (const std::string& name : r.measures)
      if (!findQualityMeasure(name)) throw py::value_error("measure '" + name + "' is not registered (quality_measures())");
  }
  if (a.contactScope == "world") r.contactScope = ContactScope::World;
  else if (a.contactScope == "grasp") r.contactScope = ContactScope::Grasp;
  else throw py::value_error("contact_scope: expected 'world' or 'grasp', got '" + a.contactScope + "'");
  applySettings(a.settings, r);
  return r;
}

}  // namespace sg::python
