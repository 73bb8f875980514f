// bench_contacts: BVH build time and median query times (collision, distance, all contacts) of a
// three-finger hand against the mug and against the ≥50k-triangle bumpy mesh, at separations 0.05 mm,
// 1 mm, 10 mm and a slight penetration; FCL's collision and distance side by side when available.
// Usage: bench_contacts [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "geometry/Bvh.h"
#include "geometry/Primitives.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "BenchTiming.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"

#ifdef SG_HAVE_FCL
#include <fcl/fcl.h>
#endif

using namespace sg;
namespace fs = std::filesystem;

namespace {

bool quick = false;

// Median seconds per call: at least 5 calls, then until ~0.3 s (0.05 s with --quick) or 500 calls.
double medianSeconds(const std::function<void()>& f) {
  return bench::medianSeconds(f, quick ? 0.05 : 0.3, 500);
}
using bench::secondsOf;

struct Part {
  std::string name;
  std::shared_ptr<const TriangleMesh> mesh;
  Transform pose;
};

// The hand's bodies, or a stand-in hand of boxes and spheres when the model files are missing.
std::vector<Part> loadHand(Robot& robotOut, bool& fromFile) {
  const std::string path = std::string(SG_SOURCE_DIR) + "/models/robots/ThreeFinger/ThreeFinger.xml";
  try {
    robotOut = loadRobot(path, MaterialTable{});
    fromFile = true;
  } catch (const std::exception& e) {
    std::printf("(ThreeFinger not loadable: %s; using a synthetic hand)\n", e.what());
    fromFile = false;
  }
  std::vector<Part> parts;
  if (fromFile) {
    // Pre-grasp: tripod spread, fingers half closed.
    RobotState state = defaultRobotState(robotOut);
    std::vector<double> v = state.dofValues;
    for (std::size_t k = 0; k < v.size(); ++k)
      v[k] = robotOut.dofs[k].minValue + (k == 0 ? 0.66 : 0.35) * (robotOut.dofs[k].maxValue - robotOut.dofs[k].minValue);
    setDofValues(robotOut, state, v);
    for (const auto& ref : robotOut.bodyRefs()) {
      const Body& b = robotOut.body(ref);
      if (b.mesh && !b.mesh->empty()) parts.push_back({b.name, b.mesh, X_WB(state, ref)});
    }
    return parts;
  }
  parts.push_back({"palm", std::make_shared<const TriangleMesh>(makeBox(Vec3(80, 80, 20))),
                   Transform::fromTranslation(Vec3(0, 0, -10))});
  for (int f = 0; f < 3; ++f) {
    const double a = 2 * kPi * f / 3;
    const Vec3 base(35 * std::cos(a), 35 * std::sin(a), 0);
    parts.push_back({"finger", std::make_shared<const TriangleMesh>(makeCylinder(8, 60, 48)),
                     Transform::fromTranslation(base + Vec3(0, 0, 30))});
    parts.push_back({"tip", std::make_shared<const TriangleMesh>(makeIcosphere(9, 3)),
                     Transform::fromTranslation(base + Vec3(0, 0, 65))});
  }
  return parts;
}

std::shared_ptr<const TriangleMesh> loadObject(const std::string& name, std::string& source) {
  std::vector<std::string> candidates;
  if (name == "mug") candidates = {std::string(SG_SOURCE_DIR) + "/models/objects/mug.xml"};
  else
    candidates = {std::string(SG_BINARY_DIR) + "/models/objects/bumpy.xml",
                  std::string(SG_SOURCE_DIR) + "/build/models/objects/bumpy.xml"};
  for (const auto& c : candidates) {
    if (!fs::exists(c)) continue;
    try {
      Body b = loadBody(c, BodyKind::Graspable, MaterialTable{});
      source = c;
      return b.mesh;
    } catch (const std::exception& e) {
      std::printf("(%s not loadable: %s)\n", c.c_str(), e.what());
    }
  }
  if (name == "mug") {
    source = "generated torus-and-cylinder stand-in";
    TriangleMesh m = makeCylinder(40, 100, 128);
    m.append(makeTorus(40, 6, 128, 32), Mat3::Identity(), Vec3(0, 0, 50));
    return std::make_shared<const TriangleMesh>(std::move(m));
  }
  source = "generated bumpy torus (makeTorus 256×128, bumps)";
  return std::make_shared<const TriangleMesh>(makeTorus(60, 25, 256, 128, 1.5, 24));
}

struct Scene {
  std::vector<Part> hand;
  std::vector<std::shared_ptr<const Bvh>> handBvh;
  std::shared_ptr<const Bvh> object;
  Transform objectPose;
  Transform handOffset;  // applied on top of each part's pose
};

double handDistance(const Scene& s) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < s.hand.size(); ++i) {
    const auto d = meshDistance(*s.handBvh[i], s.handOffset * s.hand[i].pose, *s.object, s.objectPose, best);
    if (d.found()) best = std::min(best, d.distance_mm);
  }
  return best;
}

bool handCollides(const Scene& s) {
  for (std::size_t i = 0; i < s.hand.size(); ++i)
    if (meshesCollide(*s.handBvh[i], s.handOffset * s.hand[i].pose, *s.object, s.objectPose)) return true;
  return false;
}

// Slides the hand along `dir` until its distance to the object is `target_mm` (> 0), or penetrates by
// −target_mm past first contact (target < 0).
void placeAt(Scene& s, const Vec3& dir, double target_mm) {
  const double aim = target_mm > 0 ? target_mm : 0.001;
  for (int it = 0; it < 60; ++it) {
    const double d = handDistance(s);
    if (d == 0 || !std::isfinite(d)) {  // overshot into collision: back off
      s.handOffset = Transform::fromTranslation(-dir * 0.5) * s.handOffset;
      continue;
    }
    if (std::abs(d - aim) < 1e-4 * std::max(1.0, aim)) break;
    s.handOffset = Transform::fromTranslation(dir * (d - aim) * 0.9) * s.handOffset;
  }
  if (target_mm < 0) s.handOffset = Transform::fromTranslation(dir * (-target_mm + 0.001)) * s.handOffset;
}

#ifdef SG_HAVE_FCL
using FclModel = fcl::BVHModel<fcl::OBBRSSd>;
std::shared_ptr<FclModel> fclModel(const TriangleMesh& m) {
  auto model = std::make_shared<FclModel>();
  std::vector<fcl::Vector3d> v(m.vertices.begin(), m.vertices.end());
  std::vector<fcl::Triangle> t;
  for (const auto& tri : m.triangles) t.emplace_back(tri[0], tri[1], tri[2]);
  model->beginModel();
  model->addSubModel(v, t);
  model->endModel();
  return model;
}
fcl::Transform3d toFcl(const Transform& t) {
  fcl::Transform3d x = fcl::Transform3d::Identity();
  x.linear() = t.rotationMatrix();
  x.translation() = t.translation();
  return x;
}
#endif

void runObject(const std::string& objectName, const std::vector<Part>& hand, const Transform& handBase, const Vec3& approach) {
  std::string source;
  const auto mesh = loadObject(objectName, source);
  std::printf("\n=== hand vs %s: %zu triangles (%s)\n", objectName.c_str(), mesh->triangleCount(), source.c_str());
  std::size_t handTris = 0;
  for (const auto& p : hand) handTris += p.mesh->triangleCount();
  std::printf("hand: %zu bodies, %zu triangles\n", hand.size(), handTris);

  struct Variant {
    const char* name;
    BvhOptions options;
  };
  const std::vector<Variant> variants = {{"AABB leaf1", {BoxFit::Aligned, 1}}, {"AABB leaf2", {BoxFit::Aligned, 2}},
                                         {"AABB leaf4", {BoxFit::Aligned, 4}}, {"OBB  leaf1", {BoxFit::Oriented, 1}},
                                         {"OBB  leaf2", {BoxFit::Oriented, 2}}};
  const std::size_t kDefault = 3;  // BvhOptions{} = OBB, one triangle per leaf
  std::printf("\nBVH build time (object / whole hand), ms:\n");
  std::vector<std::shared_ptr<const Bvh>> objectBvhs;
  std::vector<std::vector<std::shared_ptr<const Bvh>>> handBvhs;
  for (const auto& v : variants) {
    std::shared_ptr<const Bvh> ob;
    const double tObj = secondsOf([&] { ob = std::make_shared<const Bvh>(*mesh, v.options); });
    std::vector<std::shared_ptr<const Bvh>> hb;
    const double tHand = secondsOf([&] {
      for (const auto& p : hand) hb.push_back(std::make_shared<const Bvh>(*p.mesh, v.options));
    });
    std::printf("  %-11s %9.2f / %7.2f\n", v.name, 1e3 * tObj, 1e3 * tHand);
    objectBvhs.push_back(ob);
    handBvhs.push_back(hb);
  }
#ifdef SG_HAVE_FCL
  std::shared_ptr<FclModel> fclObject;
  std::vector<std::shared_ptr<FclModel>> fclHand;
  const double tFclObj = secondsOf([&] { fclObject = fclModel(*mesh); });
  const double tFclHand = secondsOf([&] {
    for (const auto& p : hand) fclHand.push_back(fclModel(*p.mesh));
  });
  std::printf("  %-11s %9.2f / %7.2f\n", "FCL OBBRSS", 1e3 * tFclObj, 1e3 * tFclHand);
#endif

  const std::vector<std::pair<const char*, double>> separations = {
      {"0.05 mm", 0.05}, {"1 mm", 1.0}, {"10 mm", 10.0}, {"-0.1 mm (penetrating)", -0.1}};
  for (const auto& [label, sep] : separations) {
    Scene scene{hand, handBvhs[kDefault], objectBvhs[kDefault], Transform::identity(), handBase};
    placeAt(scene, approach, sep);
    const double actual = handDistance(scene);
    std::printf("\n-- separation %s (measured min distance %.4f mm, colliding %s)\n", label, actual,
                handCollides(scene) ? "yes" : "no");
    std::printf("  %-11s %12s %12s %12s %9s\n", "", "collide us", "distance us", "contacts us", "#contacts");
    double ourContacts = 0;
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
      const auto& hb = handBvhs[vi];
      const Bvh& ob = *objectBvhs[vi];
      std::size_t count = 0;
      const double tc = medianSeconds([&] {
        for (std::size_t i = 0; i < hand.size(); ++i)
          if (meshesCollide(*hb[i], scene.handOffset * hand[i].pose, ob, scene.objectPose)) break;
      });
      const double td = medianSeconds([&] {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < hand.size(); ++i) {
          const auto d = meshDistance(*hb[i], scene.handOffset * hand[i].pose, ob, scene.objectPose, best);
          if (d.found()) best = std::min(best, d.distance_mm);
        }
      });
      const double tk = medianSeconds([&] {
        count = 0;
        for (std::size_t i = 0; i < hand.size(); ++i)
          count += meshContacts(*hb[i], scene.handOffset * hand[i].pose, ob, scene.objectPose).points.size();
      });
      std::printf("  %-11s %12.1f %12.1f %12.1f %9zu\n", variants[vi].name, 1e6 * tc, 1e6 * td, 1e6 * tk, count);
      if (vi == kDefault) {
        ourContacts = tk;
        // As FCL is called: every body on its own, no bound shared between bodies.
        const double tdAlone = medianSeconds([&] {
          for (std::size_t i = 0; i < hand.size(); ++i)
            meshDistance(*hb[i], scene.handOffset * hand[i].pose, ob, scene.objectPose);
        });
        std::printf("  %-11s %12s %12.1f   (distance per body, no bound shared between bodies)\n", "", "", 1e6 * tdAlone);
      }
    }
#ifdef SG_HAVE_FCL
    fcl::CollisionObjectd fo(fclObject, toFcl(scene.objectPose));
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> fh;
    for (std::size_t i = 0; i < hand.size(); ++i)
      fh.push_back(std::make_unique<fcl::CollisionObjectd>(fclHand[i], toFcl(scene.handOffset * hand[i].pose)));
    const double fc = medianSeconds([&] {
      for (auto& h : fh) {
        fcl::CollisionRequestd req;
        fcl::CollisionResultd res;
        if (fcl::collide(h.get(), &fo, req, res) > 0) break;
      }
    });
    double fclMin = 0;
    const double fd = medianSeconds([&] {
      double best = std::numeric_limits<double>::infinity();
      for (auto& h : fh) {
        fcl::DistanceRequestd req(true);
        fcl::DistanceResultd res;
        fcl::distance(h.get(), &fo, req, res);
        best = std::min(best, res.min_distance);
      }
      fclMin = best;
    });
    std::printf("  %-11s %12.1f %12.1f %12s   (FCL min distance %.4f)\n", "FCL OBBRSS", 1e6 * fc, 1e6 * fd, "-", fclMin);
    std::printf("  ratio: our all-contacts (default OBB leaf1) / FCL distance = %.4f  (target <= 0.5)\n", ourContacts / fd);
#else
    (void)ourContacts;
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
#ifndef SG_HAVE_FCL
  std::printf("(FCL not found at configure time: only SoftGrasp timings)\n");
#endif
  Robot robot;
  bool fromFile = false;
  const auto hand = loadHand(robot, fromFile);
  // The hand above the object, approach (palm +z) pointing down toward it.
  const Transform flip(Quat(Eigen::AngleAxisd(kPi, Vec3::UnitX())), Vec3(0, 0, 250));
  const Vec3 approach = flip.applyToVector(Vec3::UnitZ());
  std::vector<Part> placed = hand;
  for (auto& p : placed) p.pose = flip * p.pose;
  std::printf("all times are medians per query over every hand body against the object, in microseconds\n");
  runObject("mug", placed, Transform::identity(), approach);
  runObject("bumpy", placed, Transform::identity(), approach);
  return 0;
}
