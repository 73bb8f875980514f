#include "contact/patch/ContactPatch.h"

#include <cmath>

#include "contact/patch/SupportSet.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "model/WorldState.h"

namespace sg {

void checkContactPatchSettings(const ContactPatchSettings& s) {
  if (!(s.tolerance_mm >= 0) || !std::isfinite(s.tolerance_mm))
    throw Error("contact patch: tolerance must be a finite number ≥ 0 mm, found " + formatDouble(s.tolerance_mm));
  if (!(s.regionLinkDistance_mm > 0) || !std::isfinite(s.regionLinkDistance_mm))
    throw Error("contact patch: region link distance must be > 0 mm, found " + formatDouble(s.regionLinkDistance_mm));
  if (s.curvedSamples < 3)
    throw Error("contact patch: curved-shape samples must be ≥ 3, found " + std::to_string(s.curvedSamples));
  if (s.maxVertices < 3)
    throw Error("contact patch: maximum vertex count must be ≥ 3, found " + std::to_string(s.maxVertices));
}

Vec3 ContactPatch::p_WV_mm(std::size_t i) const {
  const Vec2& p = polygon_P_mm.at(i);
  return X_WP * Vec3(p.x(), p.y(), 0);
}
Vec3 ContactPatch::pointOnSide1_W_mm(std::size_t i) const { return p_WV_mm(i) - 0.5 * separation_mm * n_W(); }
Vec3 ContactPatch::pointOnSide2_W_mm(std::size_t i) const { return p_WV_mm(i) + 0.5 * separation_mm * n_W(); }

Vec3 ContactPatch::centroid_W_mm() const {
  const Vec2 c = polygonCentroid(polygon_P_mm);
  return X_WP * Vec3(c.x(), c.y(), 0);
}

double ContactPatch::meanRadius_mm() const {
  return polygonMeanDistance(polygon_P_mm, polygonCentroid(polygon_P_mm));
}

const char* ContactPatch::shapeName() const {
  return polygon_P_mm.size() >= 3 ? "polygon" : polygon_P_mm.size() == 2 ? "segment" : "point";
}

ContactPatch computeContactPatch(const World& world, const WorldState& state, const Contact& contact,
                                 const ContactPatchSettings& settings) {
  checkContactPatchSettings(settings);
  ContactPatch patch;
  Vec3 n = contact.side2.n_W - contact.side1.n_W;  // both inward: side 2's minus side 1's points 1 → 2
  n = n.norm() > 1e-12 ? n.normalized() : contact.side2.n_W.normalized();
  const Vec3 pos = 0.5 * (contact.side1.p_WC_mm + contact.side2.p_WC_mm);
  patch.X_WP = contactFrame(pos, n);
  patch.separation_mm = contact.separation_mm;
  patch.polygon_P_mm = {Vec2::Zero()};

  const SupportSet s1 = bodySupportSet(world.body(contact.side1.body), X_WB(state, contact.side1.body), n,
                                       contact.side1.p_WC_mm, settings);
  const SupportSet s2 = bodySupportSet(world.body(contact.side2.body), X_WB(state, contact.side2.body), -n,
                                       contact.side2.p_WC_mm, settings);
  patch.source1 = s1.source;
  patch.source2 = s2.source;
  const Mat3 R_WP = patch.X_WP.rotationMatrix();
  auto project = [&](const SupportSet& s) {
    std::vector<Vec2> pts;
    for (const Vec3& p : s.points_W_mm) {
      const Vec3 q = R_WP.transpose() * (p - pos);
      pts.emplace_back(q.x(), q.y());
    }
    return convexHullPolygon(pts);
  };
  if (s1.unbounded && s2.unbounded) {
    patch.note = "both bodies are half-spaces: the patch is the contact point";
    return patch;
  }
  if ((!s1.unbounded && s1.points_W_mm.empty()) || (!s2.unbounded && s2.points_W_mm.empty())) {
    patch.note = "no support set found (body without geometry): the patch is the contact point";
    return patch;
  }
  Polygon2 polygon;
  if (s1.unbounded) polygon = project(s2);
  else if (s2.unbounded) polygon = project(s1);
  else polygon = intersectConvex(project(s1), project(s2), 1e-9);
  if (polygon.empty()) {
    patch.note = "the support sets do not overlap: the patch is the contact point";
    return patch;
  }
  patch.polygon_P_mm = reducePolygon(std::move(polygon), static_cast<std::size_t>(settings.maxVertices));
  return patch;
}

}  // namespace sg
