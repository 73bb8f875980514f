#pragma once
// Convex hull of a point set in d dimensions (2..8) with reentrant Qhull (libqhullcpp), one Qhull object per
// call, so it is safe to run from several threads (QUALITY.md §Qhull). Never throws for geometric
// reasons: a flat or too-small point set is reported in `status`, not as an error.
#include <string>
#include <vector>

#include "core/Math.h"

namespace sg {

enum class HullStatus {
  Ok,
  Empty,          // no points
  TooFewPoints,   // fewer than dimension + 1 points (Qhull 6214)
  Flat,           // the points span fewer dimensions (Qhull 6154 "initial simplex is flat")
  Failed          // any other Qhull error (message kept)
};

const char* toString(HullStatus status);

// A facet: unit outward normal and offset; interior points satisfy normal·x + offset <= 0.
struct Hyperplane {
  VecX normal;
  double offset = 0;
};

struct HullOptions {
  // Qhull's defaults: exact hyperplanes (merged facets where the input is degenerate, no joggle, so offsets
  // are exact to round-off). Add "Qt" when simplicial facets are needed (GwsProjection does). GraspIt!
  // used "Pp n Qx QJ C-0.0001", which joggles the input randomly.
  std::string qhullOptions = "";
  // On a precision error (not flat/too-few), retry once joggled ("QJ").
  bool joggleFallback = true;
  bool collectVertices = false;   // fill WrenchHull::vertexIndices
};

struct WrenchHull {
  HullStatus status = HullStatus::Empty;
  std::string message;            // Qhull's message for Flat/Failed/TooFewPoints
  int dimension = 0;
  int pointCount = 0;
  std::vector<Hyperplane> facets;
  double volume = 0, area = 0;    // in the points' units (d-volume, (d−1)-area)
  std::vector<int> vertexIndices; // input indices of hull vertices (if collected), ascending
  std::vector<std::vector<int>> facetVertexIndices;  // per facet, its vertices' input indices (if collected)
  bool joggled = false;           // the QJ fallback was used
  // Qhull merged nearly coplanar facets (some facet has more than `dimension` vertices). Its volume is then
  // summed over facets whose vertices lie only within the merge tolerance of their hyperplane, so on a
  // near-degenerate set it moves by up to ~1e-3 relative when the input moves by round-off (QUALITY.md).
  bool merged = false;
  bool ok() const { return status == HullStatus::Ok; }
};

// points: one column per point (dimension × count).
WrenchHull convexHull(const MatX& points, const HullOptions& options = {});

}  // namespace sg
