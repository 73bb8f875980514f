#include "grasp/SensitivitySweep.h"

#include <cmath>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg {

const char* toString(SweepParameter p) {
  switch (p) {
    case SweepParameter::YoungsModulus: return "youngs";
    case SweepParameter::NormalForce: return "force";
    case SweepParameter::Friction: return "mu";
  }
  return "youngs";
}

std::optional<SweepParameter> sweepParameterFromKey(std::string_view key) {
  for (SweepParameter p : {SweepParameter::YoungsModulus, SweepParameter::NormalForce, SweepParameter::Friction})
    if (key == toString(p)) return p;
  return std::nullopt;
}

const char* sweepParameterUnit(SweepParameter p) {
  switch (p) {
    case SweepParameter::YoungsModulus: return "Pa";
    case SweepParameter::NormalForce: return "N";
    case SweepParameter::Friction: return "";
  }
  return "";
}

bool sweepIsLogarithmic(SweepParameter p) { return p == SweepParameter::YoungsModulus; }

std::vector<double> sweepValues(SweepParameter parameter, double from, double to, int count) {
  if (count < 2) throw Error("a sweep needs at least 2 values, got " + std::to_string(count));
  if (!std::isfinite(from) || !std::isfinite(to)) throw Error("a sweep's range must be finite");
  const bool log = sweepIsLogarithmic(parameter);
  if (log && !(from > 0 && to > 0))
    throw Error(std::string("a ") + toString(parameter) + " sweep needs positive ends (logarithmic spacing)");
  std::vector<double> out;
  for (int k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) / (count - 1);
    out.push_back(log ? std::exp(std::log(from) + t * (std::log(to) - std::log(from))) : from + t * (to - from));
  }
  out.front() = from;  // exact ends
  out.back() = to;
  return out;
}

std::vector<const SweepPoint*> SweepTable::series(const std::string& model) const {
  std::vector<const SweepPoint*> out;
  for (const SweepPoint& p : points)
    if (p.model == model) out.push_back(&p);
  return out;
}

namespace {

std::string number(double v) { return formatDouble(v); }  // C locale: a CSV field, never "1,5"

void checkValue(SweepParameter parameter, double v) {
  const bool bad = !std::isfinite(v) || (parameter == SweepParameter::Friction ? v < 0 : v <= 0);
  if (bad)
    throw Error(std::string("invalid ") + toString(parameter) + " value " + number(v) +
                (parameter == SweepParameter::Friction ? " (expected μ >= 0)" : " (expected a positive value)"));
}

void setModulus(World& world, double youngs_Pa) {
  for (const BodyHandle& h : world.bodyHandles()) {
    Body& b = world.body(h);
    if (b.youngs_Pa) b.youngs_Pa = youngs_Pa;
    if (b.hydroelastic && b.hydroelastic->modulus_Pa) b.hydroelastic->modulus_Pa = youngs_Pa;
  }
}

// μ of every material pair (models that re-detect contacts, e.g. the soft finger's touching points, read the
// table, not the contact records).
void setFriction(World& world, double mu) {
  const int n = static_cast<int>(world.materials.size());
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) world.materials.setFriction(a, b, mu, mu);
}

SweepPoint point(const ModelComparison& comparison, const ModelColumn& column, double value,
                 const std::vector<std::string>& measures) {
  SweepPoint p;
  p.value = value;
  p.model = column.model;
  p.ok = column.ok;
  p.error = column.error;
  for (const std::string& name : measures) {
    const MeasureValue* m = column.measure(name);
    p.measures.push_back(m && m->ok ? std::optional<double>(m->value) : std::nullopt);
  }
  int torsional = 0;
  for (const ComparisonRow& r : comparison.rows) p.rowSources.push_back(r.sourceContact);
  for (const ComparedContact& c : column.contacts) {
    p.patchArea_mm2.push_back(c.patchArea_mm2);
    p.torsionalLimit_Nmm.push_back(c.maxTorsionalFriction_Nmm);
    if (c.patchArea_mm2 > 0) {
      ++p.patches;
      p.meanPatchArea_mm2 += c.patchArea_mm2;
    }
    if (c.maxTorsionalFriction_Nmm > 0) {
      ++torsional;
      p.meanTorsionalLimit_Nmm += c.maxTorsionalFriction_Nmm;
    }
  }
  if (p.patches) p.meanPatchArea_mm2 /= p.patches;
  if (torsional) p.meanTorsionalLimit_Nmm /= torsional;
  return p;
}

}  // namespace

std::string SweepTable::csv() const {
  std::string out = toString(parameter);
  out += ",model,ok";
  for (const std::string& m : measures) out += "," + m;
  out += ",mean_patch_area_mm2,mean_torsional_limit_Nmm,patches\n";
  for (const SweepPoint& p : points) {
    out += number(p.value) + "," + p.model + "," + (p.ok ? "1" : "0");
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "," + std::string temporaries here.
    for (const std::optional<double>& v : p.measures) {
      out += ',';
      if (v) out += number(*v);
    }
    out.append(",").append(number(p.meanPatchArea_mm2)).append(",").append(number(p.meanTorsionalLimit_Nmm));
    out.append(",").append(std::to_string(p.patches)).append("\n");
  }
  return out;
}

SweepTable runSweep(const World& world, const WorldState& state, const std::vector<Contact>& contacts, int graspable,
                    const QualitySettings& settings, const SweepRequest& request, ProgressSink& progress) {
  if (request.values.empty()) throw Error("a sweep needs at least one value");
  for (double v : request.values) checkValue(request.parameter, v);
  SweepTable table;
  table.parameter = request.parameter;
  table.measures = request.measures;

  std::optional<World> modified;  // the modulus and friction sweeps' copy
  if (request.parameter != SweepParameter::NormalForce) modified.emplace(world);
  std::vector<Contact> swept = contacts;
  QualitySettings s = settings;
  ComparisonRequest compare{request.models, request.measures};

  const double n = static_cast<double>(request.values.size());
  for (std::size_t k = 0; k < request.values.size(); ++k) {
    if (request.keepPointsOnCancel && progress.cancelRequested()) {
      table.cancelled = true;
      return table;
    }
    throwIfCancelled(progress);
    const double v = request.values[k];
    switch (request.parameter) {
      case SweepParameter::YoungsModulus: setModulus(*modified, v); break;
      case SweepParameter::NormalForce: s.soft.patch.normalForce_N = v; break;
      case SweepParameter::Friction:
        setFriction(*modified, v);
        for (Contact& c : swept) c.muStatic = c.muKinetic = v;
        break;
    }
    SubProgress sub(progress, static_cast<double>(k) / n, static_cast<double>(k + 1) / n);
    std::optional<ModelComparison> evaluated;
    try {
      evaluated.emplace(compareModels(modified ? *modified : world, state, swept, graspable, s, compare, sub));
    } catch (const Cancelled&) {
      if (!request.keepPointsOnCancel) throw;
      table.cancelled = true;  // this value's comparison is incomplete: left out
      return table;
    }
    const ModelComparison& comparison = *evaluated;
    if (k == 0) {
      table.rows = comparison.rows;
      for (const ModelColumn& c : comparison.columns) table.models.push_back(c.model);
    }
    for (const ModelColumn& c : comparison.columns) table.points.push_back(point(comparison, c, v, request.measures));
  }
  progress.report(1.0, "done");
  return table;
}

}  // namespace sg
