#include "contact/ModelParameter.h"

#include <algorithm>
#include <cmath>

#include "contact/ContactModel.h"
#include "core/Error.h"
#include "core/Parse.h"

namespace sg {

double parameterValue(const ContactModelSettings& settings, const std::string& model, const ModelParameter& p) {
  if (p.get) return p.get(settings);
  const auto m = settings.modelValues.find(model);
  if (m == settings.modelValues.end()) return p.defaultValue;
  const auto v = m->second.find(p.key);
  return v == m->second.end() ? p.defaultValue : v->second;
}

void setParameterValue(ContactModelSettings& settings, const std::string& model, const ModelParameter& p,
                       double value) {
  if (p.set) p.set(settings, value);
  else settings.modelValues[model][p.key] = value;
}

const ModelParameter* findModelParameter(const std::vector<ModelParameter>& parameters, std::string_view key) {
  for (const ModelParameter& p : parameters)
    if (p.key == key) return &p;
  return nullptr;
}

double modelParameter(const ContactModelSettings& settings, const ContactModel& model, std::string_view key) {
  const std::vector<ModelParameter> declared = model.parameters();
  const ModelParameter* p = findModelParameter(declared, key);
  if (!p) throw Error("contact model '" + model.name() + "' declares no parameter '" + std::string(key) + "'");
  // A script may fill the generic store directly: a value outside the declaration is an error, as the
  // settings file and --model-param make it (ContactModel::evaluate throws for invalid settings).
  const double value = parameterValue(settings, model.name(), *p);
  std::string problem;
  if (!std::isfinite(value) || !parseParameterText(*p, parameterText(*p, value), problem))
    throw Error("contact model '" + model.name() + "': " + p->key + " = " + formatDouble(value) + " is not in " +
                parameterRange(*p));
  return value;
}

std::string parameterText(const ModelParameter& p, double value) {
  switch (p.kind) {
    case ParameterKind::Bool: return value != 0 ? "true" : "false";
    case ParameterKind::Choice: {
      const auto i = static_cast<std::size_t>(std::max(0.0, value));
      return i < p.choices.size() ? p.choices[i] : formatDouble(value);
    }
    case ParameterKind::Number:
    case ParameterKind::Integer: break;
  }
  return formatDouble(value);
}

std::string parameterRange(const ModelParameter& p) {
  if (p.kind == ParameterKind::Bool) return "true or false";
  if (p.kind == ParameterKind::Choice) {
    std::string out = "one of ";
    for (std::size_t i = 0; i < p.choices.size(); ++i) out += (i ? ", " : "") + p.choices[i];
    return out;
  }
  return std::string(p.kind == ParameterKind::Integer ? "an integer" : "a number") + " in [" + formatDouble(p.min) +
         ", " + formatDouble(p.max) + "]" + (p.unit.empty() ? "" : " " + p.unit);
}

std::optional<double> parseParameterText(const ModelParameter& p, std::string_view text, std::string& problem,
                                         bool clampToRange) {
  const std::string_view t = trim(text);
  if (p.kind == ParameterKind::Bool) {
    if (t == "true" || t == "1") return 1.0;
    if (t == "false" || t == "0") return 0.0;
  } else if (p.kind == ParameterKind::Choice) {
    for (std::size_t i = 0; i < p.choices.size(); ++i)
      if (t == p.choices[i]) return static_cast<double>(i);
  } else if (const auto v = parseDouble(t)) {
    if (p.kind == ParameterKind::Integer && *v != std::round(*v)) {
      problem = p.key + " = '" + std::string(text) + "' is not an integer";
      return std::nullopt;
    }
    if (*v >= p.min && *v <= p.max) return *v;
    if (clampToRange) return std::clamp(*v, p.min, p.max);
    problem = p.key + " = " + std::string(t) + " is out of range: expected " + parameterRange(p);
    return std::nullopt;
  }
  problem = p.key + " = '" + std::string(text) + "' is not " +
            (p.kind == ParameterKind::Number || p.kind == ParameterKind::Integer
                 ? "a number (write numbers with a decimal point, e.g. 0.2)"
                 : parameterRange(p));
  return std::nullopt;
}

void applyModelParameterAssignment(ContactModelSettings& settings, std::string_view assignment) {
  const std::size_t dot = assignment.find('.');
  const std::size_t eq = assignment.find('=');
  if (dot == std::string_view::npos || eq == std::string_view::npos || dot > eq)
    throw Error("expected MODEL.KEY=VALUE, got '" + std::string(assignment) + "'");
  const std::string_view name = assignment.substr(0, dot);
  const std::string_view key = assignment.substr(dot + 1, eq - dot - 1);
  const ContactModel* model = findContactModel(name);
  if (!model) throw Error("unknown contact model '" + std::string(name) + "': expected " + contactModelNames());
  const std::vector<ModelParameter> declared = model->parameters();
  const ModelParameter* p = findModelParameter(declared, key);
  if (!p) {
    std::string keys;
    for (const ModelParameter& d : declared) keys += (keys.empty() ? "" : ", ") + d.key;
    throw Error("contact model '" + model->name() + "' has no parameter '" + std::string(key) + "'" +
                (keys.empty() ? std::string(" (it has none)") : "; expected " + keys));
  }
  std::string problem;
  const auto value = parseParameterText(*p, assignment.substr(eq + 1), problem);
  if (!value) throw Error(model->name() + "." + problem);
  setParameterValue(settings, model->name(), *p, *value);
}

bool modelParametersAtDefaults(const ContactModelSettings& settings) {
  for (const ContactModel* m : contactModels())
    for (const ModelParameter& p : m->parameters())
      if (parameterValue(settings, m->name(), p) != p.defaultValue) return false;
  return true;
}

}  // namespace sg
