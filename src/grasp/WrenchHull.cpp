#include "grasp/WrenchHull.h"

#include <algorithm>
#include <sstream>

#include <libqhullcpp/Qhull.h>
#include <libqhullcpp/QhullError.h>
#include <libqhullcpp/QhullFacetList.h>
#include <libqhullcpp/QhullHyperplane.h>
#include <libqhullcpp/QhullPoint.h>
#include <libqhullcpp/QhullVertex.h>
#include <libqhullcpp/QhullVertexSet.h>

namespace sg {

const char* toString(HullStatus s) {
  switch (s) {
    case HullStatus::Ok: return "ok";
    case HullStatus::Empty: return "no points";
    case HullStatus::TooFewPoints: return "too few points";
    case HullStatus::Flat: return "flat (lower-dimensional) point set";
    case HullStatus::Failed: return "Qhull failed";
  }
  return "?";
}

namespace {

constexpr int kQhullFlat = 6154;
constexpr int kQhullTooFew = 6214;

// One run on a fresh Qhull object; throws orgQhull::QhullError.
WrenchHull runOnce(const MatX& points, const std::string& options, bool collectVertices) {
  WrenchHull out;
  out.dimension = static_cast<int>(points.rows());
  out.pointCount = static_cast<int>(points.cols());
  orgQhull::Qhull qhull;
  std::ostringstream sink;  // Qhull's own text (warnings, traces) stays out of stdout/stderr
  qhull.setOutputStream(&sink);
  qhull.setErrorStream(&sink);
  qhull.runQhull("", out.dimension, out.pointCount, points.data(), options.c_str());
  for (const auto& facet : qhull.facetList()) {
    const auto plane = facet.hyperplane();
    Hyperplane h;
    h.normal.resize(out.dimension);
    const double* c = plane.coordinates();
    for (int k = 0; k < out.dimension; ++k) h.normal(k) = c[k];
    h.offset = plane.offset();
    out.facets.push_back(std::move(h));
    if (static_cast<int>(facet.vertices().size()) > out.dimension) out.merged = true;
    if (collectVertices) {
      std::vector<int> ids;
      for (const auto& v : facet.vertices()) ids.push_back(static_cast<int>(v.point().id()));
      out.facetVertexIndices.push_back(std::move(ids));
    }
  }
  out.volume = qhull.volume();
  out.area = qhull.area();
  if (collectVertices) {
    for (const auto& v : qhull.vertexList()) out.vertexIndices.push_back(static_cast<int>(v.point().id()));
    std::sort(out.vertexIndices.begin(), out.vertexIndices.end());
  }
  out.status = HullStatus::Ok;
  return out;
}

}  // namespace

WrenchHull convexHull(const MatX& points, const HullOptions& options) {
  WrenchHull out;
  out.dimension = static_cast<int>(points.rows());
  out.pointCount = static_cast<int>(points.cols());
  if (points.cols() == 0 || points.rows() == 0) return out;
  if (!points.allFinite()) {
    out.status = HullStatus::Failed;
    out.message = "non-finite coordinates";
    return out;
  }
  if (points.cols() < points.rows() + 1) {
    out.status = HullStatus::TooFewPoints;
    out.message = "fewer than dimension + 1 points";
    return out;
  }
  const MatX packed = points;  // column-major, contiguous: Qhull's layout
  try {
    return runOnce(packed, options.qhullOptions, options.collectVertices);
  } catch (const orgQhull::QhullError& e) {
    if (e.errorCode() == kQhullFlat) out.status = HullStatus::Flat;
    else if (e.errorCode() == kQhullTooFew) out.status = HullStatus::TooFewPoints;
    else out.status = HullStatus::Failed;
    out.message = std::string(toString(out.status)) + " (Qhull " + std::to_string(e.errorCode()) + ": " + e.what() + ")";
    if (out.status != HullStatus::Failed) return out;
  } catch (const std::exception& e) {
    out.status = HullStatus::Failed;
    out.message = e.what();
  }
  if (!options.joggleFallback) return out;
  try {
    WrenchHull joggled = runOnce(packed, "QJ", options.collectVertices);
    joggled.joggled = true;
    return joggled;
  } catch (const orgQhull::QhullError& e) {
    out.message += std::string("; joggled retry: ") + e.what();
  } catch (const std::exception& e) {
    out.message += std::string("; joggled retry: ") + e.what();
  }
  return out;
}

}  // namespace sg
