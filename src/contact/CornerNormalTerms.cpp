#include "contact/CornerNormalTerms.h"

#include <mutex>
#include <unordered_map>

#include "geometry/Bvh.h"

namespace sg {

CornerNormalTerm cornerNormalTerm(const std::vector<Vec3>& vertices, const TriangleMesh::Triangle& tri, int corner) {
  CornerNormalTerm term;
  const std::uint32_t a = tri[static_cast<std::size_t>(corner)];
  const std::uint32_t b = tri[static_cast<std::size_t>((corner + 1) % 3)];
  const std::uint32_t c = tri[static_cast<std::size_t>((corner + 2) % 3)];
  if (a >= vertices.size() || b >= vertices.size() || c >= vertices.size()) return term;
  const Vec3& v = vertices[a];
  const Vec3 e1 = vertices[b] - v;
  const Vec3 e2 = vertices[c] - v;
  const double d = e1.squaredNorm() * e2.squaredNorm();
  if (!(d > 0)) return term;
  term.w = e1.cross(e2);
  term.wn = term.w.norm();
  term.weighted = term.w / d;
  term.usable = true;
  return term;
}

CornerNormalTerms::CornerNormalTerms(const Bvh& bvh) : source_(&bvh) {
  const auto& triangles = bvh.sourceTriangles();
  terms_.resize(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int corner = 0; corner < 3; ++corner)
      terms_[t][static_cast<std::size_t>(corner)] = cornerNormalTerm(bvh.vertices(), triangles[t], corner);
}

namespace {
struct CornerTermsEntry {
  std::weak_ptr<const Bvh> bvh;
  std::shared_ptr<const CornerNormalTerms> terms;
};
std::mutex termsMutex;
std::unordered_map<const Bvh*, CornerTermsEntry>& termsCache() {
  static std::unordered_map<const Bvh*, CornerTermsEntry> c;
  return c;
}
}  // namespace

std::shared_ptr<const CornerNormalTerms> cornerNormalTermsFor(const std::shared_ptr<const Bvh>& bvh,
                                                              std::size_t maxTriangles) {
  if (!bvh || bvh->sourceTriangles().size() > maxTriangles) return nullptr;
  {
    std::lock_guard lock(termsMutex);
    auto it = termsCache().find(bvh.get());
    if (it != termsCache().end() && it->second.bvh.lock() == bvh) return it->second.terms;
  }
  auto terms = std::make_shared<const CornerNormalTerms>(*bvh);  // computed outside the lock
  std::lock_guard lock(termsMutex);
  // Entries of freed BVHs are swept here, so the cache cannot grow without bound.
  for (auto it = termsCache().begin(); it != termsCache().end();)
    it = it->second.bvh.expired() ? termsCache().erase(it) : std::next(it);
  termsCache()[bvh.get()] = CornerTermsEntry{bvh, terms};
  return terms;
}

std::size_t cornerNormalTermsCacheSize() {
  std::lock_guard lock(termsMutex);
  return termsCache().size();
}

}  // namespace sg
