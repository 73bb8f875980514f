#include "contact/SoftNeighbourhood.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "geometry/Bvh.h"

namespace sg {

std::optional<double> contactModulus_Pa(std::optional<double> e1, std::optional<double> e2, ModulusRule rule) {
  // Non-positive moduli mean "rigid" (GraspIt! writes -1).
  if (e1 && *e1 <= 0) e1.reset();
  if (e2 && *e2 <= 0) e2.reset();
  if (!e1 && !e2) return std::nullopt;
  if (!e1) return e2;
  if (!e2) return e1;
  switch (rule) {
    case ModulusRule::Softer: return std::min(*e1, *e2);
    case ModulusRule::Stiffer: return std::max(*e1, *e2);
    case ModulusRule::Series: return (*e1 * *e2) / (*e1 + *e2);
  }
  return std::min(*e1, *e2);
}

double neighbourhoodRadius_mm(std::optional<double> e1, std::optional<double> e2, const SoftNeighbourhoodSettings& s) {
  const auto e = contactModulus_Pa(e1, e2, s.modulusRule);
  if (s.radiusRule == NeighbourhoodRadiusRule::Fixed || !e) return s.fixedRadius_mm;
  const double r = s.coefficient_mm * std::pow(1.0 / *e, s.exponent);
  return std::clamp(r, s.minRadius_mm, std::max(s.minRadius_mm, s.maxRadius_mm));
}

std::vector<Vec3> SoftNeighbourhood::allPoints_mm() const {
  std::vector<Vec3> out = contactPoints_mm;
  out.insert(out.end(), vertexPoints_mm.begin(), vertexPoints_mm.end());
  return out;
}

namespace {

// Closest point on triangle (a, b, c) to p (Ericson, Real-Time Collision Detection §5.1.5).
Vec3 nearestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace

constexpr double kFaceNormalDotTolerance = 1e-9;

SoftNeighbourhood gatherNeighbourhood(const TriangleMesh& mesh, const Transform& pose, const Vec3& contact_mm,
                                      const Vec3& inwardNormal, double radius_mm,
                                      const SoftNeighbourhoodSettings& s) {
  return gatherNeighbourhood(mesh, nullptr, pose, contact_mm, inwardNormal, radius_mm, s);
}

SoftNeighbourhood gatherNeighbourhood(const TriangleMesh& mesh, const Bvh* bvh, const Transform& pose,
                                      const Vec3& contact_mm, const Vec3& inwardNormal, double radius_mm,
                                      const SoftNeighbourhoodSettings& s) {
  SoftNeighbourhood out;
  out.contactPoints_mm.push_back(contact_mm);
  // Work in the body frame: one transform of the query instead of one per vertex.
  const Transform toBody = pose.inverse();
  const Vec3 p = toBody * contact_mm;
  const Vec3 n = toBody.applyToVector(inwardNormal).normalized();
  const double r2 = radius_mm * radius_mm;
  const double reach = std::abs(radius_mm);  // NaN: no cheap rejection, the exact test decides
  const bool haveNormals = mesh.faceNormals.size() == mesh.triangles.size();
  // Per-thread buffers that only grow: a gathering allocates just its result.
  thread_local std::vector<std::uint32_t> picked, stack;
  picked.clear();
  auto test = [&](std::size_t t) {
    const auto& tri = mesh.triangles[t];
    const Vec3& a = mesh.vertices[tri[0]];
    const Vec3& b = mesh.vertices[tri[1]];
    const Vec3& c = mesh.vertices[tri[2]];
    const Vec3 faceNormal = haveNormals ? mesh.faceNormals[t] : Vec3((b - a).cross(c - a).normalized());
    // A tolerance: faces perpendicular to the normal (dot = 0 exactly, e.g. a cylinder's cap next to a contact on
    // its side) are in, as the rule says, whatever the round-off of the poses (rigid motions of the world).
    if (faceNormal.dot(n) > s.maxFaceNormalDot + kFaceNormalDotTolerance) return;
    if (s.vertexRule == NeighbourhoodVertexRule::WholeTriangles) {
      // Cheap rejection first: a triangle wholly beyond one face of the cube of half-side r around p is farther
      // than r (most triangles of a mesh; the exact test below decides the rest).
      const Vec3 lo = a.cwiseMin(b).cwiseMin(c) - p, hi = a.cwiseMax(b).cwiseMax(c) - p;
      if ((lo.array() > reach).any() || (hi.array() < -reach).any()) return;
      if ((nearestPointOnTriangle(p, a, b, c) - p).squaredNorm() > r2) return;
      picked.insert(picked.end(), tri.begin(), tri.end());
    } else {
      for (auto v : tri)
        if ((mesh.vertices[v] - p).squaredNorm() <= r2) picked.push_back(v);
    }
  };
  const bool useBvh = bvh && !bvh->empty() && bvh->sourceIndex().size() == mesh.triangles.size() && std::isfinite(reach);
  if (useBvh) {
    // A node whose bounding sphere (centre, radius: it holds the node's triangles) lies farther than r from p
    // holds no triangle (nor vertex) within r. The margin covers the sphere's own round-off.
    const auto& nodes = bvh->nodes();
    const auto& source = bvh->sourceIndex();
    stack.assign(1, 0);
    while (!stack.empty()) {
      const BvhNode& node = nodes[stack.back()];
      stack.pop_back();
      const double limit = node.box.radius + reach + 1e-9 * (1 + node.box.radius + reach);
      if ((node.box.center - p).squaredNorm() > limit * limit) continue;
      if (node.isLeaf()) {
        for (std::uint32_t k = 0; k < node.triangleCount; ++k) test(source[node.firstTriangle + k]);
        continue;
      }
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
    }
  } else {
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) test(t);
  }
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  out.vertexIndices.assign(picked.begin(), picked.end());
  out.vertexPoints_mm.reserve(out.vertexIndices.size());
  for (auto v : out.vertexIndices) out.vertexPoints_mm.push_back(pose * mesh.vertices[v]);
  return out;
}

namespace {

bool shareVertex(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j]) ++i; else ++j;
  }
  return false;
}

void unite(SoftNeighbourhood& into, const SoftNeighbourhood& from) {
  SoftNeighbourhood merged;
  std::size_t i = 0, j = 0;
  const auto& a = into.vertexIndices;
  const auto& b = from.vertexIndices;
  while (i < a.size() || j < b.size()) {
    if (j >= b.size() || (i < a.size() && a[i] < b[j])) {
      merged.vertexIndices.push_back(a[i]); merged.vertexPoints_mm.push_back(into.vertexPoints_mm[i]); ++i;
    } else if (i >= a.size() || b[j] < a[i]) {
      merged.vertexIndices.push_back(b[j]); merged.vertexPoints_mm.push_back(from.vertexPoints_mm[j]); ++j;
    } else {
      merged.vertexIndices.push_back(a[i]); merged.vertexPoints_mm.push_back(into.vertexPoints_mm[i]); ++i; ++j;
    }
  }
  merged.contactPoints_mm = into.contactPoints_mm;
  merged.contactPoints_mm.insert(merged.contactPoints_mm.end(), from.contactPoints_mm.begin(),
                                 from.contactPoints_mm.end());
  into = std::move(merged);
}

bool samePair(const Contact& a, const Contact& b) {
  return a.side1.body == b.side1.body && a.side2.body == b.side2.body;
}

}  // namespace

void mergeOverlappingContacts(std::vector<Contact>& contacts, std::vector<SoftNeighbourhoodPair>& pairs) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::size_t i = 0; i < contacts.size() && !merged; ++i) {
      for (std::size_t j = i + 1; j < contacts.size() && !merged; ++j) {
        if (!samePair(contacts[i], contacts[j])) continue;
        if (!shareVertex(pairs[i].side1.vertexIndices, pairs[j].side1.vertexIndices)) continue;
        const bool keepI = contacts[i].separation_mm <= contacts[j].separation_mm;
        const std::size_t keep = keepI ? i : j, drop = keepI ? j : i;
        unite(pairs[keep].side1, pairs[drop].side1);
        unite(pairs[keep].side2, pairs[drop].side2);
        pairs[keep].sourceContacts.insert(pairs[keep].sourceContacts.end(), pairs[drop].sourceContacts.begin(),
                                          pairs[drop].sourceContacts.end());
        std::sort(pairs[keep].sourceContacts.begin(), pairs[keep].sourceContacts.end());
        contacts.erase(contacts.begin() + static_cast<std::ptrdiff_t>(drop));
        pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(drop));
        merged = true;
      }
    }
  }
}

}  // namespace sg
