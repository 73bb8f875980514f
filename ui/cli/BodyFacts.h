#pragma once
// Geometric facts about a body that the model structs do not store: closedness, enclosed volume,
// surface area and bounding boxes in the body and world frames.
#include <optional>

#include "model/Body.h"

namespace sg::cli {

struct BodyFacts {
  std::size_t triangles = 0, vertices = 0;
  AlignedBox boundsBody_mm;   // body frame
  AlignedBox boundsWorld_mm;  // world frame, of the posed vertices (tight, not a rotated box)
  bool closed = false;
  std::optional<double> volume_mm3;  // only for closed meshes
  double surfaceArea_mm2 = 0;
};

// Closed = watertight and consistently oriented: after welding vertices at identical positions, every
// directed edge a→b is matched by as many edges b→a.
bool isClosedMesh(const TriangleMesh& mesh);

BodyFacts computeBodyFacts(const Body& body, const Transform& X_WB);

}  // namespace sg::cli
