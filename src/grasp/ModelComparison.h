#pragma once
// Several contact models on the same grasp, side by side (QUALITY.md §Model comparison): the contacts are found
// once; every chosen model (default: every registered one, ContactModel.h) evaluates them once (GraspEvaluation),
// and the comparison lays the generic fields every model fills (ModelContact: patch shape, area, normal force,
// peak pressure, torsional limit, outline) out as rows (the grasp's contacts) × columns (the models), with the
// grasp's measures per model (ε L1, ε L∞, exact-cone ε, volume; QualityMeasure.h). Nothing here switches on a
// model: a model registered later appears as one more column. Plain data, no Qt.
#include <optional>
#include <string>
#include <vector>

#include "grasp/Analysis.h"

namespace sg {

// The measures the comparison computes by default: the three ε's and the L1 volume (the L∞ volume needs the
// hull of a Minkowski sum and is left to an explicit request).
std::vector<std::string> comparisonMeasureNames();

struct ComparisonRequest {
  std::vector<std::string> models;                             // registered names; empty: every registered model
  std::vector<std::string> measures = comparisonMeasureNames();  // registered measure names
};

// One contact of the grasp under one model: the model's ModelContact summarised.
struct ComparedContact {
  bool present = false;          // false: the model has no contact starting at this row (merged into `mergedInto`)
  int mergedInto = -1;           // row the model merged this contact into (soft finger's overlap merge), or -1
  int evaluationContact = -1;    // index into the column's evaluation.contacts
  ContactKind kind = ContactKind::PointWithFriction;
  std::string patchShape;        // "" without a patch
  double patchArea_mm2 = 0;
  double normalForce_N = 0;
  double peakPressure_Pa = 0;
  double mu = 0;
  double torsion_mm = 0;                  // e_n
  double maxTorsionalFriction_Nmm = 0;    // the torsional limit μ·N·e_n
  std::vector<Vec3> patchOutline_W_mm;
  std::string note;
};

// One model: its evaluation (contacts, wrenches, measures) and the rows' cells.
struct ModelColumn {
  std::string model;             // registered name
  std::string label;             // ContactModel::label()
  bool ok = false;               // false: the model failed (error says why), cells empty
  std::string error;
  GraspEvaluation evaluation;    // the model's own evaluation (its measures computed)
  std::vector<ComparedContact> contacts;  // parallel to ModelComparison::rows

  const MeasureValue* measure(const std::string& name) const { return evaluation.measure(name); }
};

// A row: one contact of the grasp, identified by its first source contact (index into `contacts`).
struct ComparisonRow {
  int sourceContact = -1;
  std::string label;             // "palm ↔ mug" (World::bodyLabel of both sides)
};

struct ModelComparison {
  std::vector<Contact> contacts;  // every contact found (AnalysisResult::contacts)
  int graspable = -1;             // -1: no graspable, no columns
  std::vector<std::string> measures;
  std::vector<ComparisonRow> rows;
  std::vector<ModelColumn> columns;

  const ModelColumn* column(const std::string& model) const;
};

// The comparison on given contacts (in AnalysisResult's canonical order) of graspable `graspable`.
// sg::Error for an unknown model or measure; a model that throws sg::Error on the grasp gives a column with
// ok = false; Cancelled when `progress` asks for it.
ModelComparison compareModels(const World& world, const WorldState& state, const std::vector<Contact>& contacts,
                              int graspable, const QualitySettings& settings, const ComparisonRequest& request,
                              ProgressSink& progress);

// The whole analysis as AnalysisRequest describes it (hand motion, collision settings, graspable choice), then
// the comparison of `request.models` with the request's quality settings. `report` (optional) receives the hand
// motion's report. AnalysisRequest::contactModels and ::measures are ignored.
// One rectangular CSV table (header first, numbers in shortest round-trip form, C locale, empty where not applicable):
// "row,bodies,model,ok,present,kind,patch_shape,patch_area_mm2,normal_force_N,peak_pressure_Pa,mu,
// torsion_mm,torsional_limit_Nmm,<measures...>": per contact and model a line with row = the contact's 1-based
// row, then per model one line with row = "grasp" and the measures. Text fields are quoted when they hold a
// comma or a quote.
std::string comparisonCsv(const ModelComparison& comparison);

ModelComparison runComparison(const World& world, WorldState& state, const AnalysisRequest& analysis,
                              const ComparisonRequest& request, ProgressSink& progress,
                              HandMotionReport* report = nullptr);

}  // namespace sg
