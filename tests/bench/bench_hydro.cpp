// bench_hydro: hydroelastic contact surfaces (compliant tets ∩ rigid triangles, src/geometry/hydro/ContactSurfaces.h,
// representations cached as in the model) of a compliant spherical fingertip (R 9 mm, E 1 MPa, resolution hints
// 2, 1 and 0.5 mm), accuracy against time:
//  * onto a flat face (a rigid box's top, 2 triangles) at depths 0.1–2 mm: µs per surface and the normal force
//    against the sphere's closed form F = πEd²(1 − 2d/3R) (src/geometry/hydro/README.md §Validation V1);
//  * into the side wall of the mug (models/objects/mug.xml, 2592 triangles) at 0.1–0.5 mm: µs per surface.
// Each case is 8 jittered placements (the fingertip moved up to 1 mm across the surface, the depth kept): median
// and 90th percentile over every call, the placements in turn; polygons and force are the placements' medians.
// The time is per surface, the query's unit of work (µs per polygon would reward finer meshes). There is no FCL
// row: FCL has no hydroelastic query (its contact query on the surface meshes answers a different question).
// Wall clock; on a shared machine run it when quiet (`uptime`) and compare runs of one session only.
// Usage: bench_hydro [--quick]
//        bench_hydro --profile HINT DEPTH[,DEPTH…] CALLS — only those cases (mug wall, unjittered), CALLS surfaces,
//        no timing: for `valgrind --tool=callgrind --toggle-collect='sg::compliantRigidSurface*'
//        --dump-after='sg::compliantRigidSurface*'`: each dump's instruction count divided by the printed polygon
//        count is the deterministic cost per polygon (a call's instructions, its heap allocations included, not
//        the freeing of the surface after it); the digests check that a speed change leaves the output bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "BenchStats.h"
#include "BenchTiming.h"
#include "contact/models/HydroelasticContactModel.h"
#include "geometry/BvhCache.h"
#include "geometry/Primitives.h"
#include "geometry/Proximity.h"
#include "geometry/ShapeTessellation.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

bool quick = false;
double profileHint = 0;
std::vector<double> profileDepths;
int profileCalls = 0;

constexpr double kRadius_mm = 9, kModulus_Pa = 1e6;
constexpr std::size_t kPlacements = 8;

double medianSeconds(const std::function<void()>& f) { return bench::medianSeconds(f, quick ? 0.05 : 0.3, 2000); }

Body fingertip(double hint_mm) {
  Body b;
  b.name = "tip";
  b.primitive = Primitive{Sphere{kRadius_mm}, {}};
  TessellationOptions t;
  t.segments = std::max(8, static_cast<int>(std::ceil(2 * kPi * kRadius_mm / hint_mm)));
  b.mesh = std::make_shared<const TriangleMesh>(tessellatePrimitive(*b.primitive, t));
  HydroelasticProperties h;
  h.modulus_Pa = kModulus_Pa;
  h.resolutionHint_mm = hint_mm;
  b.hydroelastic = h;
  return b;
}


// The sphere's closed form on a rigid plane at depth d (src/geometry/hydro/README.md §Validation), N.
double closedFormForce_N(double depth_mm) {
  const double d_m = 1e-3 * depth_mm;
  return kPi * kModulus_Pa * d_m * d_m * (1 - 2 * depth_mm / (3 * kRadius_mm));
}

double medianOf(std::vector<double> v) { return bench::quantileOf(std::move(v), 0.5); }

// `count` offsets across a surface with normal n: up to 1 mm along two directions orthogonal to n, the first zero.
std::vector<Vec3> acrossOffsets(const Vec3& n, std::size_t count) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec3 e1 = n.unitOrthogonal(), e2 = n.cross(e1);
  std::vector<Vec3> out{Vec3::Zero()};
  while (out.size() < count) out.push_back(u(rng) * e1 + u(rng) * e2);
  return out;
}

struct CaseFigures {
  bench::Spread time;
  double polygons = 0, force_N = 0;
};

// Times the surfaces at the given fingertip poses, the poses in turn.
CaseFigures timeSurfaces(const SoftVolume& tip, const std::vector<Transform>& X_WT, const Bvh& rigid) {
  std::vector<double> polygons, forces;
  for (const Transform& X : X_WT) {
    const ContactSurface s = compliantRigidSurface(tip, X, rigid, Transform{}, SurfaceOptions{});
    polygons.push_back(static_cast<double>(s.polygons.size()));
    forces.push_back(s.normalForce_N);
  }
  CaseFigures f;
  f.time = bench::spreadOverStates(X_WT.size(), [&](std::size_t k) {
    (void)compliantRigidSurface(tip, X_WT[k], rigid, Transform{}, SurfaceOptions{});
  }, quick ? 0.05 : 0.3, 5, 2000);
  f.polygons = medianOf(polygons);
  f.force_N = medianOf(forces);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    if (std::strcmp(argv[i], "--profile") == 0 && i + 3 < argc) {
      profileHint = std::atof(argv[i + 1]);
      for (const char* d = argv[i + 2]; d && *d; d = std::strchr(d, ',') ? std::strchr(d, ',') + 1 : nullptr)
        profileDepths.push_back(std::atof(d));
      profileCalls = std::atoi(argv[i + 3]);
      i += 3;
    }
  }
  const std::string mugPath = std::string(SG_SOURCE_DIR) + "/models/objects/mug.xml";
  Body mug = loadBody(mugPath, BodyKind::Graspable, MaterialTable{});
  const auto mugBvh = bvhFor(mug.mesh);
  // The flat face: the top (z = 10 mm) of an 80 × 80 × 20 mm rigid box.
  const auto slab = std::make_shared<const TriangleMesh>(makeBox(Vec3(80, 80, 20)));
  const auto slabBvh = bvhFor(slab);
  std::printf("bench_hydro: compliant sphere fingertip (R %.0f mm, E %.0f MPa); µs per surface, median and p90 over %zu"
              " placements\n", kRadius_mm, 1e-6 * kModulus_Pa, kPlacements);
  // The wall: the fingertip comes in along −x at the height of the mug's centre (moved across the wall per
  // placement), touching where the tessellated fingertip's distance to the mug reaches 0 (bisection).
  const AlignedBox& box = mug.mesh->bounds;
  const Vec3 centre = box.center();
  const std::vector<Vec3> acrossWall = acrossOffsets(Vec3::UnitX(), kPlacements);
  const std::vector<Vec3> acrossFace = acrossOffsets(Vec3::UnitZ(), kPlacements);
  for (double hint : {2.0, 1.0, 0.5}) {
    if (profileCalls > 0 && hint != profileHint) continue;
    const Body tip = fingertip(hint);
    const auto tipGeometry = compliantGeometryOf(tip);
    const auto tipBvh = bvhFor(tip.mesh);
    std::printf("\n  hint %.1f mm: %zu tets, fingertip mesh %zu triangles\n", hint,
                tipGeometry->volume->field.mesh.tetCount(), tip.mesh->triangleCount());
    // x of first touch for a placement moved by `across` (y, z).
    auto touching = [&](const Vec3& across) {
      double out = box.max.x() + 20, in = centre.x();
      auto at = [&](double x) { return Transform::fromTranslation(Vec3(x, centre.y(), centre.z()) + across); };
      for (int it = 0; it < 80; ++it) {
        const double mid = 0.5 * (out + in);
        (meshesCollide(*tipBvh, at(mid), *mugBvh, Transform{}) ? in : out) = mid;
      }
      return out;
    };
    const double out0 = touching(Vec3::Zero());
    auto wallPose = [&](const Vec3& across, double touchX, double depth) {
      return Transform::fromTranslation(Vec3(touchX - depth, centre.y(), centre.z()) + across);
    };
    for (double profileDepth : profileDepths) {
      const Transform X_WT = wallPose(Vec3::Zero(), out0, profileDepth);
      ContactSurface s;
      for (int k = 0; k < profileCalls; ++k)
        s = compliantRigidSurface(*tipGeometry->volume, X_WT, *mugBvh, Transform{}, SurfaceOptions{});
      // A digest of the polygons' bits (FNV-1a over vertices, pressures, normals), to check that a change to the
      // query leaves its output bit-for-bit identical.
      std::uint64_t digest = 1469598103934665603ull;
      auto mix = [&](const void* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) digest = (digest ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
      };
      for (const ContactPolygon& p : s.polygons) {
        mix(p.p_WV_mm.data(), p.p_WV_mm.size() * sizeof(Vec3));
        mix(p.pressure_Pa.data(), p.pressure_Pa.size() * sizeof(double));
        mix(p.n_W.data(), sizeof(Vec3));
      }
      std::printf("    profile: depth %.2f mm, %d calls, %zu polygons per surface, force %.17g N, digest %016llx\n",
                  profileDepth, profileCalls, s.polygons.size(), s.normalForce_N, static_cast<unsigned long long>(digest));
    }
    if (profileCalls > 0) return 0;

    std::printf("    flat face:  %-8s %9s %11s %11s %9s %9s %9s\n", "depth mm", "polygons", "us/surface", "p90",
                "force N", "exact N", "error");
    for (double depth : {0.1, 0.3, 0.5, 1.0, 2.0}) {
      std::vector<Transform> poses;
      for (const Vec3& a : acrossFace) poses.push_back(Transform::fromTranslation(a + Vec3(0, 0, 10 + kRadius_mm - depth)));
      const CaseFigures f = timeSurfaces(*tipGeometry->volume, poses, *slabBvh);
      const double exact = closedFormForce_N(depth);
      std::printf("                %-8.1f %9.0f %11.1f %11.1f %9.5f %9.5f %+8.1f%%\n", depth, f.polygons,
                  1e6 * f.time.median_s, 1e6 * f.time.p90_s, f.force_N, exact, 100 * (f.force_N - exact) / exact);
    }
    std::printf("    mug wall:   %-8s %9s %11s %11s %9s\n", "depth mm", "polygons", "us/surface", "p90", "force N");
    std::vector<double> touchX;
    for (const Vec3& a : acrossWall) touchX.push_back(touching(a));
    for (double depth : {0.1, 0.2, 0.3, 0.4, 0.5}) {
      std::vector<Transform> poses;
      for (std::size_t k = 0; k < acrossWall.size(); ++k) poses.push_back(wallPose(acrossWall[k], touchX[k], depth));
      const CaseFigures f = timeSurfaces(*tipGeometry->volume, poses, *mugBvh);
      std::printf("                %-8.1f %9.0f %11.1f %11.1f %9.5f\n", depth, f.polygons, 1e6 * f.time.median_s,
                  1e6 * f.time.p90_s, f.force_N);
    }
    // The whole per-pair call the model makes (cache look-ups included), at 0.3 mm.
    const Transform X_WT = wallPose(Vec3::Zero(), out0, 0.3);
    const double tCall = medianSeconds([&] {
      (void)hydroelasticContactSurface(tip, X_WT, 0, mug, Transform{}, 1, SurfaceOptions{});
    });
    std::printf("    hydroelasticContactSurface (cached representations), mug wall at 0.3 mm: %.1f us\n", 1e6 * tCall);
  }
  return 0;
}
