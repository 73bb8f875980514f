#include "contact/models/ModelDescription.h"

#include "contact/penalty/PenaltySensing.h"

namespace sg {

Json describeVec(const Vec3& v) {
  Json a = Json::array();
  for (int k = 0; k < 3; ++k) a.push(v[k]);
  return a;
}

Json describeNumbers(const std::vector<double>& values) {
  Json a = Json::array();
  for (double v : values) a.push(v);
  return a;
}

Json describeFit(const QuadricFit& f) {
  Json o = Json::object();
  o.set("estimator", curvatureEstimatorName(f.estimator));
  o.set("status", quadricFitStatusKey(f.status));
  o.set("statusNote", f.note);
  o.set("degree", f.degree);
  o.set("normals", f.normalCount);
  o.set("droppedPoints", f.droppedPoints);
  o.set("points", f.pointCount);
  o.set("neighbourhoodRadius_mm", f.neighbourhoodRadius_mm);
  o.set("weightedResidual_mm", f.weightedResidual_mm);
  o.set("relativeResidual", f.relativeResidual);
  o.set("rmsResidual_mm", f.rmsResidual_mm);
  o.set("rmsSlopeResidual", f.rmsSlopeResidual);
  o.set("a_per_mm", f.a);
  o.set("b_per_mm", f.b);
  o.set("c_per_mm", f.c);
  o.set("kappaMax_per_mm", f.curvatures.kappaMax_per_mm);
  o.set("kappaMin_per_mm", f.curvatures.kappaMin_per_mm);
  o.set("directionMax", describeVec(f.curvatures.directionMax));
  o.set("directionMin", describeVec(f.curvatures.directionMin));
  return o;
}

Json describeSensing(const PenaltySensing& s) {
  Json o = Json::object();
  o.set("signal", s.signal);
  o.set("penetration_mm", s.penetration_mm);
  o.set("penetrationRate_mm_per_s", s.penetrationRate_mm_per_s);
  o.set("slip_mm_per_s", describeVec(s.slip_W_mm_per_s));
  o.set("muEffective", s.muEffective);
  o.set("normalForce_N", s.normalForce_N);
  o.set("frictionForce_N", s.frictionForce_N);
  o.set("normalForceVector_N", describeVec(s.normalForce_W_N));
  o.set("frictionForceVector_N", describeVec(s.frictionForce_W_N));
  return o;
}

}  // namespace sg
