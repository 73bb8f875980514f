#pragma once
// Bodies for the hydroelastic suites: analytic primitives (exact shape + tessellation, as the body reader
// makes them), compliant or rigid, and the surface of a placed pair.
#include <QtTest>

#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "contact/ContactDetection.h"
#include "contact/models/HydroelasticContactModel.h"
#include "core/Progress.h"
#include "geometry/ShapeTessellation.h"
#include "model/Body.h"

namespace sgtest {

using namespace sg;

inline Body primitiveBody(const std::string& name, const Shape& shape, const Transform& X_BS = {}, int segments = 64) {
  Body b;
  b.name = name;
  b.primitive = Primitive{shape, X_BS};
  TessellationOptions t;
  t.segments = segments;
  t.halfSpaceExtent_mm = 400;
  b.mesh = std::make_shared<const TriangleMesh>(tessellatePrimitive(*b.primitive, t));
  return b;
}

inline Body compliant(Body b, double E_Pa, double hint_mm = 0, double margin_mm = 0, double slab_mm = 0) {
  HydroelasticProperties h;
  h.modulus_Pa = E_Pa;
  h.resolutionHint_mm = hint_mm;
  h.margin_mm = margin_mm;
  h.slabThickness_mm = slab_mm;
  b.hydroelastic = h;
  return b;
}

// Surface of a (M-or-N) pair; fails the test when there is none.
inline ContactSurface surfaceOf(const Body& a, const Transform& X_WA, const Body& b, const Transform& X_WB,
                                const SurfaceOptions& options = {}) {
  auto s = hydroelasticContactSurface(a, X_WA, 0, b, X_WB, 1, options);
  if (!s) qFatal("no hydroelastic surface (neither body compliant)");
  return *s;
}

inline bool allFinite(const ContactSurface& s) {
  bool ok = std::isfinite(s.area_mm2) && std::isfinite(s.normalForce_N) && s.force_W_N.allFinite() &&
            s.moment_W_Nmm.allFinite() && s.centreOfPressure_W_mm.allFinite() && std::isfinite(s.torsionalLimit_Nmm);
  for (const ContactPolygon& p : s.polygons) {
    ok = ok && p.n_W.allFinite() && std::isfinite(p.area_mm2) && p.centroid_W_mm.allFinite();
    for (const Vec3& v : p.p_WV_mm) ok = ok && v.allFinite();
    for (double v : p.pressure_Pa) ok = ok && std::isfinite(v);
  }
  return ok;
}

inline double relErr(double got, double want) { return std::abs(got - want) / std::abs(want); }

// Every contact of the world, evaluated by the hydroelastic model (the suites' common run).
struct Run {
  std::vector<Contact> contacts;
  std::unique_ptr<ContactModelResult> result;
  const HydroelasticModelResult& hydro() const { return dynamic_cast<const HydroelasticModelResult&>(*result); }
};

inline Run evaluate(const World& w, const ContactModelSettings& settings = {}) {
  Run r;
  r.contacts = findAllContacts(w);
  std::vector<int> indices(r.contacts.size());
  std::iota(indices.begin(), indices.end(), 0);
  NullProgress progress;
  r.result = findContactModel("hydroelastic")->evaluate({w, w.state, 0, r.contacts, indices}, settings, progress);
  return r;
}

}  // namespace sgtest
