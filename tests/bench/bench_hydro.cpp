// bench_hydro: a compliant spherical fingertip (radius 9 mm, hints 2, 1 and 0.5 mm) pressed 0.1–0.5 mm into the
// side wall of the mug (models/objects/mug.xml, rigid): median time of one hydroelastic contact surface
// (compliant tets ∩ rigid triangles, src/geometry/hydro/ContactSurfaces.h, representations cached as in the
// model) and per output polygon, next to FCL's contact query (collide with contacts enabled, all contacts) on the
// same pair (the fingertip's triangle mesh against the mug's) in the same run, and the ratio.
// Targets (issue 12): ≤ 1 µs per output polygon; ≤ 1.5× FCL's contact query. Nothing is asserted.
// Usage: bench_hydro [--quick]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "BenchTiming.h"
#include "FclReference.h"
#include "contact/models/HydroelasticContactModel.h"
#include "geometry/BvhCache.h"
#include "geometry/Proximity.h"
#include "geometry/ShapeTessellation.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

bool quick = false;

double medianSeconds(const std::function<void()>& f) { return bench::medianSeconds(f, quick ? 0.05 : 0.3, 2000); }

Body fingertip(double hint_mm) {
  Body b;
  b.name = "tip";
  b.primitive = Primitive{Sphere{9}, {}};
  TessellationOptions t;
  t.segments = std::max(8, static_cast<int>(std::ceil(2 * kPi * 9 / hint_mm)));
  b.mesh = std::make_shared<const TriangleMesh>(tessellatePrimitive(*b.primitive, t));
  HydroelasticProperties h;
  h.modulus_Pa = 1e6;
  h.resolutionHint_mm = hint_mm;
  b.hydroelastic = h;
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) quick = quick || std::strcmp(argv[i], "--quick") == 0;
  const std::string mugPath = std::string(SG_SOURCE_DIR) + "/models/objects/mug.xml";
  Body mug = loadBody(mugPath, BodyKind::Graspable, MaterialTable{});
  const auto mugBvh = bvhFor(mug.mesh);
  std::printf("bench_hydro: compliant sphere fingertip (R 9 mm, E 1 MPa) into the mug (%zu triangles)\n",
              mug.mesh->triangleCount());
#ifdef SG_HAVE_FCL
  const auto fclMug = bench::fclModel(*mug.mesh);
#else
  std::printf("(built without FCL: no reference times)\n");
#endif
  // The wall: the fingertip comes in along −x at the height of the mug's centre, touching where the
  // tessellated fingertip's distance to the mug reaches 0 (bisection).
  const AlignedBox& box = mug.mesh->bounds;
  const Vec3 centre = box.center();
  for (double hint : {2.0, 1.0, 0.5}) {
    const Body tip = fingertip(hint);
    const auto tipGeometry = compliantGeometryOf(tip);
    const auto tipBvh = bvhFor(tip.mesh);
    std::printf("\n  hint %.1f mm: %zu tets, fingertip mesh %zu triangles\n", hint,
                tipGeometry->volume->field.mesh.tetCount(), tip.mesh->triangleCount());
    double out = box.max.x() + 20, in = centre.x();
    auto at = [&](double x) { return Transform::fromTranslation(Vec3(x, centre.y(), centre.z())); };
    for (int it = 0; it < 80; ++it) {
      const double mid = 0.5 * (out + in);
      (meshesCollide(*tipBvh, at(mid), *mugBvh, Transform{}) ? in : out) = mid;
    }
    std::printf("    %-10s %8s %8s %10s %12s %12s %12s %8s\n", "depth mm", "polygons", "force N", "surface us",
                "us/polygon", "FCL us", "FCL contacts", "ratio");
    for (double depth : {0.1, 0.2, 0.3, 0.4, 0.5}) {
      const Transform X_WT = at(out - depth);
      ContactSurface s;
      const double tSurface = medianSeconds([&] {
        s = compliantRigidSurface(*tipGeometry->volume, X_WT, *mugBvh, Transform{}, SurfaceOptions{});
      });
      double tFcl = 0;
      std::size_t fclContacts = 0;
#ifdef SG_HAVE_FCL
      fcl::CollisionObjectd tipObject(bench::fclModel(*tip.mesh), bench::toFcl(X_WT));
      fcl::CollisionObjectd mugObject(fclMug, bench::toFcl(Transform{}));
      tFcl = medianSeconds([&] {
        fcl::CollisionRequestd request(100000, true);  // every contact, with contact points and normals
        fcl::CollisionResultd result;
        fcl::collide(&tipObject, &mugObject, request, result);
        fclContacts = result.numContacts();
      });
#endif
      const std::size_t n = s.polygons.size();
      std::printf("    %-10.1f %8zu %8.3f %10.1f %12.3f %12.1f %12zu %8.2f\n", depth, n, s.normalForce_N, 1e6 * tSurface,
                  n ? 1e6 * tSurface / static_cast<double>(n) : 0.0, 1e6 * tFcl, fclContacts,
                  tFcl > 0 ? tSurface / tFcl : 0.0);
    }
    // The whole per-pair call the model makes (cache look-ups included), at 0.3 mm.
    const Transform X_WT = at(out - 0.3);
    const double tCall = medianSeconds([&] {
      (void)hydroelasticContactSurface(tip, X_WT, 0, mug, Transform{}, 1, SurfaceOptions{});
    });
    std::printf("    hydroelasticContactSurface (cached representations) at 0.3 mm: %.1f us\n", 1e6 * tCall);
  }
  return 0;
}
