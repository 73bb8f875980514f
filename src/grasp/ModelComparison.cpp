#include "grasp/ModelComparison.h"

#include <algorithm>
#include <set>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg {

std::vector<std::string> comparisonMeasureNames() {
  return {"epsilon-l1", "epsilon-linf", "epsilon-exact", "volume-l1"};
}

const ModelColumn* ModelComparison::column(const std::string& model) const {
  for (const ModelColumn& c : columns)
    if (c.model == model) return &c;
  return nullptr;
}

namespace {

ComparedContact cell(const ContactEvaluation& c, int index) {
  ComparedContact out;
  out.present = true;
  out.evaluationContact = index;
  out.kind = c.kind;
  out.patchShape = c.patchShape;
  out.patchArea_mm2 = c.patchArea_mm2;
  out.normalForce_N = c.normalForce_N;
  out.peakPressure_Pa = c.peakPressure_Pa;
  out.mu = c.mu;
  out.torsion_mm = c.torsion_mm;
  out.maxTorsionalFriction_Nmm = c.maxTorsionalFriction_Nmm;
  out.patchOutline_W_mm = c.patchOutline_W_mm;
  out.note = c.note;
  return out;
}

}  // namespace

ModelComparison compareModels(const World& world, const WorldState& state, const std::vector<Contact>& contacts,
                              int graspable, const QualitySettings& settings, const ComparisonRequest& request,
                              ProgressSink& progress) {
  std::vector<const ContactModel*> models;
  if (request.models.empty()) {
    models = contactModels();
  } else {
    for (const std::string& name : request.models) {
      const ContactModel* m = findContactModel(name);
      if (!m) throw Error("unknown contact model '" + name + "' (known: " + contactModelNames() + ")");
      models.push_back(m);
    }
  }
  for (const std::string& name : request.measures)
    if (!findQualityMeasure(name)) throw Error("unknown quality measure '" + name + "'");

  ModelComparison out;
  out.contacts = contacts;
  out.graspable = graspable;
  out.measures = request.measures;
  if (graspable < 0) return out;

  // One analysis of the given contacts under every model (Analysis.h: each model its slice of the bar); a
  // model that fails becomes a column with its error.
  AnalysisRequest analysis;
  analysis.graspable = graspable;
  analysis.contacts = contacts;
  analysis.quality = settings;
  analysis.measures = request.measures;
  analysis.contactModels.clear();  // not the default model
  for (const ContactModel* m : models) analysis.contactModels.push_back(m->name());
  analysis.keepFailedModels = true;
  AnalysisResult result = analyzeGrasp(world, state, analysis, progress);
  for (std::size_t k = 0; k < models.size(); ++k) {
    ModelColumn column;
    column.model = models[k]->name();
    column.label = models[k]->label();
    column.evaluation = std::move(result.evaluations[k]);
    column.error = result.modelErrors[k];
    column.ok = column.error.empty();
    out.columns.push_back(std::move(column));
  }

  // Rows: every contact some model starts at (its first source contact), in the contacts' order.
  std::set<int> keys;
  for (const ModelColumn& c : out.columns)
    for (const ContactEvaluation& e : c.evaluation.contacts)
      if (!e.sourceContacts.empty()) keys.insert(e.sourceContacts.front());
  std::vector<int> rowOf(contacts.size(), -1);
  for (int key : keys) {
    rowOf[static_cast<std::size_t>(key)] = static_cast<int>(out.rows.size());
    const Contact& c = contacts[static_cast<std::size_t>(key)];
    out.rows.push_back({key, world.bodyLabel(c.side1.body) + " \u2194 " + world.bodyLabel(c.side2.body)});
  }
  for (ModelColumn& column : out.columns) {
    column.contacts.assign(out.rows.size(), {});
    for (std::size_t i = 0; i < column.evaluation.contacts.size(); ++i) {
      const ContactEvaluation& e = column.evaluation.contacts[i];
      if (e.sourceContacts.empty()) continue;
      const int row = rowOf[static_cast<std::size_t>(e.sourceContacts.front())];
      column.contacts[static_cast<std::size_t>(row)] = cell(e, static_cast<int>(i));
      for (std::size_t s = 1; s < e.sourceContacts.size(); ++s) {
        const int merged = rowOf[static_cast<std::size_t>(e.sourceContacts[s])];
        if (merged >= 0 && !column.contacts[static_cast<std::size_t>(merged)].present)
          column.contacts[static_cast<std::size_t>(merged)].mergedInto = row;
      }
    }
  }
  progress.report(1.0, "done");
  return out;
}

namespace {

std::string csvNumber(double v) { return formatDouble(v); }  // C locale: a CSV field, never "1,5"

std::string csvText(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string comparisonCsv(const ModelComparison& comparison) {
  std::string out = "row,bodies,model,ok,present,kind,patch_shape,patch_area_mm2,normal_force_N,peak_pressure_Pa,mu,"
                    "torsion_mm,torsional_limit_Nmm";
  for (const std::string& m : comparison.measures) out += "," + m;
  out += "\n";
  const std::string noMeasures(comparison.measures.size(), ',');
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    for (const ModelColumn& column : comparison.columns) {
      const ComparedContact& c = column.contacts[r];
      out += std::to_string(r + 1) + "," + csvText(comparison.rows[r].label) + "," + column.model + "," +
             (column.ok ? "1" : "0") + "," + (c.present ? "1" : "0") + ",";
      if (c.present)
        out += std::string(toString(c.kind)) + "," + c.patchShape + "," + csvNumber(c.patchArea_mm2) + "," +
               csvNumber(c.normalForce_N) + "," + csvNumber(c.peakPressure_Pa) + "," + csvNumber(c.mu) + "," +
               csvNumber(c.torsion_mm) + "," + csvNumber(c.maxTorsionalFriction_Nmm);
      else
        out += ",,,,,,,";
      out += noMeasures + "\n";
    }
  }
  for (const ModelColumn& column : comparison.columns) {
    out += "grasp,," + column.model + "," + (column.ok ? "1" : "0") + ",,,,,,,,,";
    for (const std::string& name : comparison.measures) {
      const MeasureValue* m = column.measure(name);
      out += ',';  // not "," + a temporary: GCC 12 warns (-Wrestrict, falsely) on that
      if (m && m->ok) out += csvNumber(m->value);
    }
    out += "\n";
  }
  return out;
}

ModelComparison runComparison(const World& world, WorldState& state, const AnalysisRequest& analysis,
                              const ComparisonRequest& request, ProgressSink& progress, HandMotionReport* report) {
  AnalysisRequest contactsOnly = analysis;
  contactsOnly.contactModels.clear();  // only the motion, the contacts and the graspable
  contactsOnly.measures.clear();
  SubProgress first(progress, 0.0, 0.1);
  AnalysisResult found = runAnalysis(world, state, contactsOnly, first);
  if (report) *report = found.motion;
  SubProgress rest(progress, 0.1, 1.0);
  return compareModels(world, state, found.contacts, found.graspable, analysis.quality, request, rest);
}

}  // namespace sg
