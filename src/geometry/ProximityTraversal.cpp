#include "geometry/ProximityTraversal.h"

namespace sg::detail {

namespace {
thread_local MappingScratch threadScratch;
}

PairFrame::PairFrame(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB)
    : a_(a),
      b_(b),
      mapA_(a.nodes().size() < b.nodes().size()),
      mapped_(mapA_ ? &a : &b),
      rel_(mapA_ ? RelativePose(X_WB, X_WA) : RelativePose(X_WA, X_WB)),
      frameToWorld_(mapA_ ? X_WB : X_WA),
      compactRel_(rel_.R, rel_.t),
      compactMargin_(compactGapMargin(std::max((mapA_ ? b : a).coordinateScale(),
                                               rel_.t.norm() + mapped_->coordinateScale()))) {
  if (threadScratch.inUse) {
    own_ = std::make_unique<MappingScratch>();
    s_ = own_.get();
  } else {
    s_ = &threadScratch;
  }
  s_->inUse = true;
  if (++s_->generation == 0) {  // wrapped: no stale stamp may equal a new generation
    std::fill(s_->nodeStamp.begin(), s_->nodeStamp.end(), 0u);
    std::fill(s_->triangleStamp.begin(), s_->triangleStamp.end(), 0u);
    for (CompactNode& c : s_->compact) c.stamp = 0;
    s_->generation = 1;
  }
  const std::size_t nodes = mapped_->nodes().size(), triangles = mapped_->triangles().size();
  if (s_->nodeStamp.size() < nodes) {
    s_->nodeStamp.resize(nodes, 0u);
    s_->boxes.resize(nodes);
  }
  if (s_->compact.size() < nodes) s_->compact.resize(nodes);
  if (s_->triangleStamp.size() < triangles) {
    s_->triangleStamp.resize(triangles, 0u);
    s_->triangles.resize(triangles);
    s_->normals.resize(triangles);
    s_->edgeNormals.resize(triangles);
  }
}

PairFrame::~PairFrame() {
  if (s_ == &threadScratch) s_->inUse = false;
}

}  // namespace sg::detail
