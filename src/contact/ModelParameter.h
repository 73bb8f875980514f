#pragma once
// A contact model's own settings, declared by the model (ContactModel::parameters(); src/contact/README.md
// §Model parameters), so the settings file, the settings dialog and the CLI's --model-param read, write and
// show them without knowing the model. Every value is a double: an integer, the index of a choice, 0/1 for a
// bool. A parameter either maps onto a typed field of ContactModelSettings (get/set, for models whose engine
// code reads a typed struct such as PenaltySettings) or lives in the generic store
// ContactModelSettings::modelValues[model][key], read by the model through modelParameter().
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sg {

struct ContactModelSettings;  // contact/ContactModel.h
class ContactModel;

enum class ParameterKind { Number, Integer, Choice, Bool };

struct ModelParameter {
  std::string key;    // with its unit suffix: "tolerance_mm"; the INI key and the KEY of --model-param
  std::string label;  // "Support-plane tolerance"
  std::string unit;   // "mm", "N/mm", empty for counts and ratios
  ParameterKind kind = ParameterKind::Number;
  double min = 0, max = 0;  // inclusive; ignored for Choice and Bool
  double defaultValue = 0;
  std::vector<std::string> choices;  // Choice: the text of each value (value = index)
  std::string help;                  // one line, for tooltips and --help
  // Typed storage; both empty: the generic store.
  std::function<double(const ContactModelSettings&)> get = {};
  std::function<void(ContactModelSettings&, double)> set = {};
};

// The generic store's values: model name → key → value.
using ModelParameterValues = std::map<std::string, std::map<std::string, double>>;

// The value of `p` of model `model` in `settings` (its default when the generic store has none).
double parameterValue(const ContactModelSettings& settings, const std::string& model, const ModelParameter& p);
void setParameterValue(ContactModelSettings& settings, const std::string& model, const ModelParameter& p,
                       double value);
// What a model's evaluate() calls for a parameter it declares: its value or default. Throws sg::Error for a
// key the model does not declare.
double modelParameter(const ContactModelSettings& settings, const ContactModel& model, std::string_view key);

// nullptr when `model` declares no parameter `key`.
const ModelParameter* findModelParameter(const std::vector<ModelParameter>& parameters, std::string_view key);

// The value as text: a number through NumberFormat.h, a choice's name, "true"/"false".
std::string parameterText(const ModelParameter& p, double value);
// The value of `text` for `p`, or nullopt with `problem` saying why (not a number, not an integer, not one of
// the choices, outside [min, max]); with `clampToRange` a number outside the range is clamped instead.
std::optional<double> parseParameterText(const ModelParameter& p, std::string_view text, std::string& problem,
                                         bool clampToRange = false);
// "[min, max] unit", "one of a, b", "true or false" (for messages).
std::string parameterRange(const ModelParameter& p);

// Applies "MODEL.KEY=VALUE" (the CLI's --model-param) to `settings`: the model is looked up in the registry
// (aliases accepted), the value checked against its declaration. Throws sg::Error naming the model, the key or
// the value and what was expected.
void applyModelParameterAssignment(ContactModelSettings& settings, std::string_view assignment);

// Whether every declared parameter of every registered model has its default in `settings`.
bool modelParametersAtDefaults(const ContactModelSettings& settings);

}  // namespace sg
