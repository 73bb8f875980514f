#pragma once
// Sensitivity of the model comparison (ModelComparison.h) to one parameter (QUALITY.md §Sensitivity sweep):
// for each value of Young's modulus, the patch's normal force or μ, every chosen model evaluates the same
// contacts (found once) and the sweep records the grasp's ε (L1, L∞, exact cone), each contact's patch area and
// torsional limit, and their means. The application plots the table (ui/app SensitivityWindow), the CLI prints
// it (`softgrasp-cli compare --sweep`). Plain data, no Qt.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grasp/ModelComparison.h"

namespace sg {

enum class SweepParameter {
  YoungsModulus,  // Pa: every elastic body's <youngs> (and a hydroelastic body's own modulus, when it has one)
  NormalForce,    // N: ContactModelSettings::soft.patch.normalForce_N, the force a model assumes at each contact
  Friction        // μ: every contact's static and kinetic coefficient and every material pair's (a model may re-detect)
};

const char* toString(SweepParameter parameter);           // "youngs", "force", "mu"
std::optional<SweepParameter> sweepParameterFromKey(std::string_view key);
const char* sweepParameterUnit(SweepParameter parameter);  // "Pa", "N", ""
// True for a parameter best plotted and spaced on a log axis (Young's modulus).
bool sweepIsLogarithmic(SweepParameter parameter);

// `count` values from `from` to `to` inclusive: geometric for a logarithmic parameter, else arithmetic.
// sg::Error for count < 2, non-positive ends of a logarithmic range or a non-finite end.
std::vector<double> sweepValues(SweepParameter parameter, double from, double to, int count);

struct SweepRequest {
  SweepParameter parameter = SweepParameter::YoungsModulus;
  std::vector<double> values;
  std::vector<std::string> models;  // empty: every registered model
  // The ε's only: volumes need hulls and would make a sweep slow.
  std::vector<std::string> measures = {"epsilon-l1", "epsilon-linf", "epsilon-exact"};
  // A cancel request ends the sweep with the values done so far (SweepTable::cancelled) instead of throwing
  // Cancelled: the CLI's Ctrl+C prints the points it has.
  bool keepPointsOnCancel = false;
};

// One model at one parameter value.
struct SweepPoint {
  double value = 0;
  std::string model;
  bool ok = false;                  // false: the model failed at this value (error)
  std::string error;
  std::vector<std::optional<double>> measures;        // parallel to SweepRequest::measures (nullopt: not computed)
  // Per row of this value's comparison (rows: their first source contacts; the same for every value unless a
  // model merges contacts differently, e.g. μ = 0 makes soft contacts point contacts).
  std::vector<int> rowSources;
  std::vector<double> patchArea_mm2;                  // per row (0 where the model has no patch)
  std::vector<double> torsionalLimit_Nmm;             // per row
  double meanPatchArea_mm2 = 0;     // over the rows where the model has a patch (0 if none)
  double meanTorsionalLimit_Nmm = 0;  // over the rows where the model has torsional friction (0 if none)
  int patches = 0;                  // rows with a patch
};

struct SweepTable {
  SweepParameter parameter = SweepParameter::YoungsModulus;
  std::vector<std::string> measures;
  std::vector<std::string> models;  // column order of the comparison
  std::vector<ComparisonRow> rows;  // of the first comparison (the contacts do not change)
  std::vector<SweepPoint> points;   // value-major: for each value, one point per model
  bool cancelled = false;           // keepPointsOnCancel: stopped early, `points` holds the values done

  // The points of one model, in value order.
  std::vector<const SweepPoint*> series(const std::string& model) const;
  // "parameter,model,ok,<measures...>,mean_patch_area_mm2,mean_torsional_limit_Nmm,patches" then one line per
  // point (numbers in shortest round-trip form, C locale, empty for a missing value).
  std::string csv() const;
};

// The sweep on given contacts of graspable `graspable` (as compareModels takes them): the world is copied once
// for a modulus or friction sweep. sg::Error for an empty value list, a non-positive modulus or force or a negative μ, an
// unknown model or measure; Cancelled (between evaluations) when `progress` asks for it, unless
// request.keepPointsOnCancel (then the table of the values done, `cancelled` set).
SweepTable runSweep(const World& world, const WorldState& state, const std::vector<Contact>& contacts, int graspable,
                    const QualitySettings& settings, const SweepRequest& request, ProgressSink& progress);

}  // namespace sg
