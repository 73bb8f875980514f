#include "sim/TrialJson.h"

#include <algorithm>

namespace sg::sim {

Json trialSettingsJson(const TrialSettings& s) {
  Json out = Json::object();
  out.set("settle_s", s.settle_s);
  out.set("duration_s", s.duration_s);
  out.set("gravity_mps2", s.gravity_mps2);
  out.set("timestep_s", s.timestep_s);
  out.set("heldDisplacement_mm", s.heldDisplacement_mm);
  out.set("heldRotation_deg", s.heldRotation_deg);
  out.set("impratio", s.impratio);
  out.set("poisson", s.poisson);
  Json dirs = Json::array();
  for (const PullDirection& d : s.directions) dirs.push(d.name());
  out.set("directions", dirs);
  return out;
}

Json trialSummaryJson(const TrialResult& r) {
  Json out = Json::object();
  out.set("score", r.score());
  out.set("held", r.heldCount());
  out.set("tried", static_cast<int>(r.directions.size()));
  out.set("settleDisplacement_mm", r.settle.empty() ? 0.0 : r.settle.back().displacement_mm);
  out.set("objectPieces", static_cast<int>(r.objectPieces));
  out.set("objectVolumeError", r.objectVolumeError);
  Json dirs = Json::array();
  for (const DirectionTrial& d : r.directions) {
    double peakForce_N = 0, peakSlip_mm_s = 0;
    for (const TrialSample& s : d.samples)
      for (const LinkContactSample& l : s.links) {
        peakForce_N = std::max(peakForce_N, l.force_W_N.norm());
        peakSlip_mm_s = std::max(peakSlip_mm_s, l.slip_mm_s);
      }
    Json j = Json::object();
    j.set("direction", d.direction.name());
    j.set("held", d.held);
    j.set("displacement_mm", d.displacement_mm);
    j.set("rotation_deg", d.rotation_deg);
    j.set("finalDisplacement_mm", d.finalDisplacement_mm);
    j.set("diverged", d.diverged);
    j.set("peakContactForce_N", peakForce_N);
    j.set("peakSlip_mm_s", peakSlip_mm_s);
    dirs.push(j);
  }
  out.set("directions", dirs);
  return out;
}

}  // namespace sg::sim
