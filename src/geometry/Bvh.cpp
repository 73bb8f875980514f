#include "geometry/Bvh.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <numeric>

namespace sg {

Bvh::Bvh(const TriangleMesh& mesh, const BvhOptions& options) : options_(options) {
  options_.maxLeafTriangles = std::max(1, options_.maxLeafTriangles);
  vertices_ = mesh.vertices;
  bounds_ = mesh.bounds;
  const std::size_t n = mesh.triangles.size();
  if (n == 0) return;
  sourceTriangles_ = mesh.triangles;
  triangles_.reserve(n);
  sourceIndex_.resize(n);
  std::vector<Vec3> centroids;
  centroids.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& t = mesh.triangles[i];
    triangles_.push_back({mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]});
    centroids.push_back((triangles_.back()[0] + triangles_.back()[1] + triangles_.back()[2]) / 3.0);
    sourceIndex_[i] = static_cast<std::uint32_t>(i);
  }
  // Vertex → incident triangles (CSR), filled in triangle order so each list is ascending.
  vertexTriangleStart_.assign(vertices_.size() + 1, 0);
  for (const auto& t : mesh.triangles)
    for (const auto v : t)
      if (v < vertices_.size()) ++vertexTriangleStart_[v + 1];
  for (std::size_t v = 0; v < vertices_.size(); ++v) vertexTriangleStart_[v + 1] += vertexTriangleStart_[v];
  vertexTriangles_.resize(vertexTriangleStart_.back());
  {
    std::vector<std::uint32_t> fill(vertexTriangleStart_.begin(), vertexTriangleStart_.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (const auto v : mesh.triangles[i])
        if (v < vertices_.size()) vertexTriangles_[fill[v]++] = static_cast<std::uint32_t>(i);
  }
  if (bounds_.empty())
    for (const auto& t : triangles_)
      for (const auto& v : t) bounds_.extend(v);
  nodes_.reserve(2 * n / options_.maxLeafTriangles + 1);
  nodes_.emplace_back();
  build(0, 0, static_cast<std::uint32_t>(n), centroids);
  normals_.reserve(n);
  edgeNormals_.reserve(n);
  for (const auto& t : triangles_) {
    const Vec3 c = (t[1] - t[0]).cross(t[2] - t[0]);
    const double len = c.norm();
    normals_.push_back(len > 0 ? Vec3(c / len) : Vec3::UnitZ());
    edgeNormals_.push_back(triangleEdgeNormals(t));
  }
  compactNodes_.reserve(nodes_.size());
  for (const BvhNode& node : nodes_) {
    CompactNode c;
    c.box = makeCompactBox(node.box.axes, node.box.center, node.box.halfExtents);
    c.child = node.isLeaf() ? static_cast<std::int32_t>(~node.firstTriangle) : node.firstChild;
    c.count = node.triangleCount;
    c.radius = static_cast<float>(node.box.radius);
    compactNodes_.push_back(c);
    coordinateScale_ = std::max(coordinateScale_, node.box.center.norm() + node.box.radius);
  }
}

BvhBox Bvh::fitBox(std::uint32_t first, std::uint32_t count) const {
  BvhBox box;
  if (options_.fit == BoxFit::Oriented) {
    // Area-weighted covariance of the triangles (Ericson, Real-Time Collision Detection §4.4.3 style).
    Mat3 second = Mat3::Zero();
    Vec3 mean = Vec3::Zero();
    double area = 0;
    for (std::uint32_t i = first; i < first + count; ++i) {
      const auto& t = triangles_[i];
      const double a = 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).norm();
      const Vec3 c = (t[0] + t[1] + t[2]) / 3.0;
      mean += a * c;
      area += a;
      second += a / 12.0 * (9.0 * c * c.transpose() + t[0] * t[0].transpose() + t[1] * t[1].transpose() +
                            t[2] * t[2].transpose());
    }
    if (area > 0) {
      mean /= area;
      const Mat3 cov = second / area - mean * mean.transpose();
      Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
      if (eig.info() == Eigen::Success && eig.eigenvectors().allFinite()) {
        Mat3 axes = eig.eigenvectors();
        // Largest spread first, right-handed.
        axes.col(0).swap(axes.col(2));
        axes.col(2) = axes.col(0).cross(axes.col(1)).normalized();
        box.axes = axes;
      }
    }
  }
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (std::uint32_t i = first; i < first + count; ++i)
    for (const auto& v : triangles_[i]) {
      const Vec3 p = box.axes.transpose() * v;
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  box.center = box.axes * (0.5 * (lo + hi));
  // A hair of padding keeps flat boxes from having exactly zero thickness.
  box.halfExtents = (0.5 * (hi - lo)).array() + 1e-9;
  double r2 = 0;
  for (std::uint32_t i = first; i < first + count; ++i)
    for (const auto& v : triangles_[i]) r2 = std::max(r2, (v - box.center).squaredNorm());
  box.radius = std::sqrt(r2) + 1e-9;
  return box;
}

void Bvh::build(std::uint32_t nodeIndex, std::uint32_t first, std::uint32_t count, std::vector<Vec3>& centroids) {
  nodes_[nodeIndex].box = fitBox(first, count);
  nodes_[nodeIndex].firstTriangle = first;
  nodes_[nodeIndex].triangleCount = count;
  if (count <= static_cast<std::uint32_t>(options_.maxLeafTriangles)) return;

  const BvhBox box = nodes_[nodeIndex].box;
  int axis = 0;
  box.halfExtents.maxCoeff(&axis);
  const Vec3 dir = box.axes.col(axis);
  double mean = 0;
  for (std::uint32_t i = first; i < first + count; ++i) mean += dir.dot(centroids[i]);
  mean /= count;

  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), first);
  auto mid = std::partition(order.begin(), order.end(), [&](std::uint32_t i) { return dir.dot(centroids[i]) < mean; });
  if (mid == order.begin() || mid == order.end()) {
    // All centroids on one side of the mean: split at the median projection instead.
    mid = order.begin() + count / 2;
    std::nth_element(order.begin(), mid, order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return dir.dot(centroids[a]) < dir.dot(centroids[b]); });
  }
  // Apply the permutation to the triangle arrays.
  std::vector<TrianglePoints> tris(count);
  std::vector<std::uint32_t> src(count);
  std::vector<Vec3> cents(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    tris[k] = triangles_[order[k]];
    src[k] = sourceIndex_[order[k]];
    cents[k] = centroids[order[k]];
  }
  std::copy(tris.begin(), tris.end(), triangles_.begin() + first);
  std::copy(src.begin(), src.end(), sourceIndex_.begin() + first);
  std::copy(cents.begin(), cents.end(), centroids.begin() + first);

  const auto leftCount = static_cast<std::uint32_t>(mid - order.begin());
  const auto child = static_cast<std::int32_t>(nodes_.size());
  nodes_[nodeIndex].firstChild = child;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(child, first, leftCount, centroids);
  build(child + 1, first + leftCount, count - leftCount, centroids);
}

}  // namespace sg
