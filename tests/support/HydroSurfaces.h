#pragma once
// Hand-built hydroelastic contact surfaces for the view tests (no contact model needed): a 20 × 20 mm square in
// the plane z = zPlane, centred on (cx, 0), cut into four strips along x, the pressure rising linearly from 0 at
// x = cx − 10 to `peak_Pa` at x = cx + 10; normals +z (out of N below into M above). The totals are the exact
// integrals: area 400 mm², ∫p dA = peak/2 · 400 mm², centre of pressure at x = cx + 10/3.
#include <memory>

#include "contact/models/HydroelasticContactModel.h"

namespace sg::test {

inline ContactSurface rampSquare(double peak_Pa, double cx = 0, double zPlane = 0, int bodyM = 0, int bodyN = 1) {
  ContactSurface s;
  s.bodyM = bodyM;
  s.bodyN = bodyN;
  auto p = [&](double x) { return peak_Pa * (x - (cx - 10)) / 20; };
  for (int k = 0; k < 4; ++k) {
    const double x0 = cx - 10 + 5 * k, x1 = x0 + 5;
    ContactPolygon poly;
    poly.p_WV_mm = {Vec3(x0, -10, zPlane), Vec3(x1, -10, zPlane), Vec3(x1, 10, zPlane), Vec3(x0, 10, zPlane)};
    poly.pressure_Pa = {p(x0), p(x1), p(x1), p(x0)};
    poly.n_W = Vec3::UnitZ();
    poly.gradP_W_Pa_per_mm = Vec3(peak_Pa / 20, 0, 0);
    poly.area_mm2 = 100;
    poly.centroid_W_mm = Vec3(0.5 * (x0 + x1), 0, zPlane);
    s.polygons.push_back(poly);
  }
  s.area_mm2 = 400;
  s.normalForce_N = peak_Pa / 2 * 400 * 1e-6;
  s.peakPressure_Pa = peak_Pa;
  s.force_W_N = Vec3(0, 0, s.normalForce_N);
  s.centreOfPressure_W_mm = Vec3(cx + 10.0 / 3.0, 0, zPlane);
  s.moment_W_Nmm = Vec3::Zero();
  s.torsionalLimit_Nmm = 0.5 * s.normalForce_N * 7.0;  // any positive value: the views only show it
  return s;
}

// A result with the given surfaces and no contacts.
inline std::shared_ptr<HydroelasticModelResult> hydroResult(std::vector<ContactSurface> surfaces) {
  auto r = std::make_shared<HydroelasticModelResult>();
  r->surfaces = std::move(surfaces);
  return r;
}

}  // namespace sg::test
