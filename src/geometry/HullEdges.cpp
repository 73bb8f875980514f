#include "geometry/HullEdges.h"

#include <libqhullcpp/Qhull.h>
#include <libqhullcpp/QhullError.h>
#include <libqhullcpp/QhullFacetList.h>
#include <libqhullcpp/QhullPoint.h>
#include <libqhullcpp/QhullVertex.h>
#include <libqhullcpp/QhullVertexSet.h>
#include <sstream>

namespace sg {

bool convexHullEdges(const std::vector<double>& coords, std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  edges.clear();
  const std::size_t n = coords.size() / 3;
  if (n < 4) return false;
  try {
    // The C++ interface, not bare libqhull_r: processes that also link libqhullcpp get its qh_fprintf, which
    // needs a C++ Qhull object.
    orgQhull::Qhull qhull;
    std::ostringstream sink;  // Qhull's own text (a flat set is an error to it) stays out of stdout/stderr
    qhull.setOutputStream(&sink);
    qhull.setErrorStream(&sink);
    qhull.runQhull("", 3, static_cast<int>(n), coords.data(), "Qt");
    for (const auto& facet : qhull.facetList()) {
      std::uint32_t ids[3];
      int count = 0;
      for (const auto& v : facet.vertices()) {
        if (count < 3) ids[count] = static_cast<std::uint32_t>(v.point().id());
        ++count;
      }
      if (count != 3) continue;  // triangulated output (Qt): simplicial facets only
      for (int k = 0; k < 3; ++k) {
        edges.push_back({ids[k], ids[(k + 1) % 3]});
        edges.push_back({ids[(k + 1) % 3], ids[k]});
      }
    }
  } catch (const orgQhull::QhullError&) {
    edges.clear();
  }
  return !edges.empty();
}

}  // namespace sg
