// bench_quality: median time of a full grasp-quality update (contact detection + soft contacts + L1/L∞ GWS and
// ε) on the default world and the ThreeFinger-on-a-ball world after auto-grasp, then ε alone next to bare
// Qhull on the same wrenches; the same on a synthetic grasp (four soft fingertips on a sphere mesh) that
// needs no model files.
// Usage: bench_quality [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "contact/ContactDetection.h"
#include "geometry/Primitives.h"
#include "grasp/AutoGrasp.h"
#include "grasp/GraspEvaluation.h"
#include "grasp/QualityMeasure.h"
#include "BenchTiming.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

bool quick = false;

// Median seconds per call: at least 5 calls, then until ~0.5 s (0.05 s with --quick) or 200 calls.
double medianSeconds(const std::function<void()>& f) {
  return bench::medianSeconds(f, quick ? 0.05 : 0.5, 200);
}
using bench::secondsOf;

// ε with the plain C library (reentrant libqhull_r, GraspIt!'s quantity): min −offset over facets.
double bareQhullEpsilon(std::vector<double> coords, int dim) {
  qhT qhStorage;
  qhT* qh = &qhStorage;
  QHULL_LIB_CHECK
  qh_zero(qh, nullptr);
  char options[] = "qhull";
  double eps = 0;
  const int n = static_cast<int>(coords.size()) / dim;
  if (n > dim && qh_new_qhull(qh, dim, n, coords.data(), False, options, nullptr, nullptr) == 0) {
    eps = 1e300;
    facetT* facet;
    FORALLfacets eps = std::min(eps, -facet->offset);
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  return eps;
}

// `handContactsOnly` false: the synthetic grasp's fingertips are obstacles (a fixture), not a hand.
void report(const char* title, const World& world, const std::function<std::vector<Contact>()>& contacts,
            bool handContactsOnly = true) {
  std::printf("\n== %s\n", title);
  QualitySettings settings;
  settings.handContactsOnly = handContactsOnly;
  const std::vector<Contact> cs = contacts();
  const ContactModel& model = defaultContactModel();
  NullProgress progress;
  const std::vector<std::string> l1Measures = {"epsilon-l1", "volume-l1"};
  auto evaluate = [&](const std::vector<Contact>& contacts, const std::vector<std::string>& measures) {
    GraspEvaluation e = evaluateGrasp(world, contacts, 0, model, settings);
    computeMeasures(e, measures, progress);
    return e;
  };
  const GraspEvaluation e = evaluate(cs, qualityMeasureNames());
  int soft = 0;
  for (const auto& c : e.contacts) soft += c.kind == ContactKind::SoftFinger ? 1 : 0;
  std::printf("contacts: %zu found, %zu on the object (%d soft), %zu wrenches\n", cs.size(), e.contacts.size(), soft,
              e.l1.inputPointCount);
  for (const auto& c : cs)
    std::printf("  %s - %s, separation %.3f mm\n", world.bodyLabel(c.side1.body).c_str(),
                world.bodyLabel(c.side2.body).c_str(), c.separation_mm);
  std::printf("L1: eps %.6f  volume %.6g  facets %d  force closure %s\n", e.l1Quality.epsilon, e.l1Quality.volume,
              e.l1Quality.facetCount, e.l1Quality.forceClosure ? "yes" : "no");
  if (e.lInfinity.limitExceeded)
    std::printf("Linf: not built (%s)\n", e.lInfinity.hull.message.c_str());
  else
    std::printf("Linf: eps %.6f  volume %.6g  facets %d\n", e.lInfinityQuality.epsilon, e.lInfinityQuality.volume,
                e.lInfinityQuality.facetCount);

  const double tDetect = medianSeconds([&] { (void)contacts(); });
  const double tEval = medianSeconds([&] { (void)evaluate(cs, l1Measures); });
  const double tEvalBoth = medianSeconds([&] { (void)evaluate(cs, qualityMeasureNames()); });
  const double tFull = medianSeconds([&] { (void)evaluate(contacts(), l1Measures); });
  std::vector<std::vector<Vec6>> wrenches;
  std::vector<double> coords;
  for (const auto& c : e.contacts) {
    wrenches.push_back(c.wrenches);
    for (const auto& w : c.wrenches) coords.insert(coords.end(), w.data(), w.data() + 6);
  }
  const double tEps = medianSeconds([&] { (void)l1Epsilon(wrenches); });
  double bareEps = 0;
  const double tBare = medianSeconds([&] { bareEps = bareQhullEpsilon(coords, 6); });
  std::printf("median: contact detection %.3f ms | evaluateGrasp L1 %.3f ms, L1+Linf %.3f ms | full update "
              "(detection + L1 evaluation) %.3f ms\n",
              1e3 * tDetect, 1e3 * tEval, 1e3 * tEvalBoth, 1e3 * tFull);
  std::printf("median: L1 eps alone %.3f ms (eps %.9f) | bare libqhull_r %.3f ms (eps %.9f)\n", 1e3 * tEps,
              l1Epsilon(wrenches), 1e3 * tBare, bareEps);
}

World sphereGraspWorld(std::vector<Contact>& contacts) {
  World w;
  Body ball;
  ball.name = "ball";
  ball.kind = BodyKind::Graspable;
  ball.mesh = std::make_shared<const TriangleMesh>(makeIcosphere(30, 5));
  ball.maxRadius_mm = 30;
  w.graspables.push_back(ball);
  const std::vector<Vec3> dirs = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3 u = dirs[i].normalized();
    Body tip;
    tip.name = "tip" + std::to_string(i);
    tip.youngs_Pa = 1.5e6;
    tip.mesh = std::make_shared<const TriangleMesh>(makeIcosphere(8, 4));
    tip.pose = Transform::fromTranslation(38 * u);
    w.obstacles.push_back(tip);
    Contact c;
    c.side1.body = {BodyHandle::Kind::Graspable, 0, {}};
    c.side1.position_mm = 30 * u;
    c.side1.normal = -u;
    c.side1.frame = contactFrame(c.side1.position_mm, c.side1.normal);
    c.side2.body = {BodyHandle::Kind::Obstacle, static_cast<int>(i), {}};
    c.side2.position_mm = 30 * u;
    c.side2.normal = u;
    c.side2.frame = contactFrame(c.side2.position_mm, c.side2.normal);
    c.muStatic = 0.5;
    c.muKinetic = 0.4;
    contacts.push_back(c);
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) quick = quick || std::strcmp(argv[i], "--quick") == 0;
  // The default world (ThreeFinger over the mug) and the ThreeFinger-on-a-ball world, each after auto-grasp.
  for (const char* name : {"default.xml", "threefinger_sphere.xml"}) {
    try {
      World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
      if (world.robots.empty() || world.graspables.empty()) continue;
      const double graspSeconds = secondsOf([&] { autoGrasp(world, 0); });
      std::printf("\n%s: auto-grasp %.1f ms", name, 1e3 * graspSeconds);
      report((std::string("worlds/") + name + " after auto-grasp").c_str(), world, [&] { return findAllContacts(world); });
    } catch (const std::exception& e) {
      std::printf("(worlds/%s not usable: %s)\n", name, e.what());
    }
  }
  std::vector<Contact> contacts;
  const World sphere = sphereGraspWorld(contacts);
  report("synthetic: four soft fingertips (E = 1.5 MPa) on a 30 mm icosphere", sphere, [&] { return contacts; },
         /*handContactsOnly=*/false);
  return 0;
}
