#include "grasp/GraspWrenchSpace.h"

#include <algorithm>
#include <numeric>

#include "core/Error.h"

namespace sg {

const char* toString(GwsType t) { return t == GwsType::L1 ? "L1 Norm" : "LInfinity Norm"; }

int GraspWrenchSpace::usedDimensionCount() const {
  return static_cast<int>(std::count(dimensions.begin(), dimensions.end(), true));
}

namespace {

std::vector<int> usedIndices(const std::array<bool, 6>& dims) {
  std::vector<int> idx;
  for (int k = 0; k < 6; ++k)
    if (dims[k]) idx.push_back(k);
  if (idx.size() < 2) throw Error("a grasp wrench space needs at least 2 of the 6 wrench coordinates");
  return idx;
}

MatX pack(const std::vector<Vec6>& wrenches, const std::vector<int>& idx) {
  MatX m(static_cast<Eigen::Index>(idx.size()), static_cast<Eigen::Index>(wrenches.size()));
  for (std::size_t j = 0; j < wrenches.size(); ++j)
    for (std::size_t i = 0; i < idx.size(); ++i)
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = wrenches[j](idx[i]);
  return m;
}

// Drops (numerically) repeated columns; keeps order irrelevant.
MatX uniqueColumns(const MatX& m) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(m.cols()));
  std::iota(order.begin(), order.end(), 0);
  auto less = [&](Eigen::Index a, Eigen::Index b) {
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      if (m(r, a) != m(r, b)) return m(r, a) < m(r, b);
    return false;
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<Eigen::Index> keep;
  for (auto c : order)
    if (keep.empty() || (m.col(c) - m.col(keep.back())).cwiseAbs().maxCoeff() > 1e-12) keep.push_back(c);
  MatX out(m.rows(), static_cast<Eigen::Index>(keep.size()));
  for (std::size_t j = 0; j < keep.size(); ++j) out.col(static_cast<Eigen::Index>(j)) = m.col(keep[j]);
  return out;
}

void finish(GraspWrenchSpace& g, const std::vector<int>& idx) {
  for (const auto& h : g.hull.facets) {
    Hyperplane e;
    e.normal = VecX::Zero(6);
    for (std::size_t i = 0; i < idx.size(); ++i) e.normal(idx[i]) = h.normal(static_cast<Eigen::Index>(i));
    e.offset = h.offset;
    g.hyperplanes6.push_back(std::move(e));
  }
}

}  // namespace

GraspWrenchSpace buildL1Gws(const std::vector<std::vector<Vec6>>& perContact, const GwsSettings& s) {
  GraspWrenchSpace g;
  g.type = GwsType::L1;
  g.dimensions = s.dimensions;
  const auto idx = usedIndices(s.dimensions);
  std::vector<Vec6> all;
  for (const auto& ws : perContact)
    for (Vec6 w : ws) {
      w.head<3>() += s.l1ForceOffset;
      all.push_back(w);
    }
  const MatX points = pack(all, idx);
  g.inputPointCount = static_cast<std::size_t>(points.cols());
  g.hull = convexHull(points, s.hull);
  finish(g, idx);
  return g;
}

GraspWrenchSpace buildLInfinityGws(const std::vector<std::vector<Vec6>>& perContact, const GwsSettings& s) {
  GraspWrenchSpace g;
  g.type = GwsType::LInfinity;
  g.dimensions = s.dimensions;
  const auto idx = usedIndices(s.dimensions);
  const auto d = static_cast<Eigen::Index>(idx.size());
  MatX sum = MatX::Zero(d, 1);  // the Minkowski sum so far, starting from {0}
  HullOptions vertexOptions = s.hull;
  vertexOptions.collectVertices = true;
  auto exceeded = [&] {
    g.limitExceeded = true;
    g.hull.status = HullStatus::Failed;
    g.hull.message = "L-infinity GWS: the Minkowski sum exceeds " + std::to_string(s.maxLInfinityPoints) +
                     " points (GwsSettings::maxLInfinityPoints)";
    return g;
  };
  for (const auto& ws : perContact) {
    if (ws.empty()) continue;
    const MatX w = pack(ws, idx);
    const Eigen::Index n = w.cols() + 1;  // {0} ∪ wrenches
    auto productSize = [&] { return static_cast<std::size_t>(sum.cols()) * static_cast<std::size_t>(n); };
    if (s.pruneLInfinity && productSize() > s.maxLInfinityPoints && sum.cols() > d) {
      // Too big: cut the sum so far back to its hull vertices (exact), if it is full-dimensional.
      const WrenchHull h = convexHull(sum, vertexOptions);
      if (h.ok() && !h.joggled && !h.vertexIndices.empty()) {
        MatX verts(d, static_cast<Eigen::Index>(h.vertexIndices.size()));
        for (std::size_t k = 0; k < h.vertexIndices.size(); ++k)
          verts.col(static_cast<Eigen::Index>(k)) = sum.col(h.vertexIndices[k]);
        sum = std::move(verts);
      }
    }
    if (productSize() > s.maxLInfinityPoints) return exceeded();
    MatX next(d, sum.cols() * n);
    for (Eigen::Index i = 0; i < sum.cols(); ++i) {
      next.col(i * n) = sum.col(i);
      for (Eigen::Index j = 0; j < w.cols(); ++j) next.col(i * n + j + 1) = sum.col(i) + w.col(j);
    }
    sum = uniqueColumns(next);
  }
  g.inputPointCount = static_cast<std::size_t>(sum.cols());
  g.hull = convexHull(sum, s.hull);
  finish(g, idx);
  return g;
}

GraspWrenchSpace buildGws(GwsType type, const std::vector<std::vector<Vec6>>& perContact, const GwsSettings& s) {
  return type == GwsType::L1 ? buildL1Gws(perContact, s) : buildLInfinityGws(perContact, s);
}

}  // namespace sg
