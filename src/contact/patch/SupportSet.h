#pragma once
// One body's support set for a contact patch (src/contact/README.md §Contact patches): the points of the body
// within `tolerance` of its support plane {x : x·d = h} in the outward direction d, as world points (the
// caller projects them onto the contact plane and takes their hull).
#include <vector>

#include "contact/patch/ContactPatch.h"

namespace sg {

struct SupportSet {
  SupportSetSource source = SupportSetSource::None;
  bool unbounded = false;          // a half-space facing d: the whole plane
  std::vector<Vec3> points_W_mm;   // empty with `unbounded` or when nothing was found
};

// `d_W`: unit direction out of the body towards the other one; `witness_W_mm`: the body's contact point.
// Convex primitives: the cap {x ∈ body : x·d ≥ h − tolerance}, h the support height (box: its vertices and
// edge crossings; curved shapes: the support points of the cap's sections at h − tolerance and just below
// h in `curvedSamples` directions, by bisection on the support mapping). Meshes (and the torus, through its
// tessellation): the triangles clipped to the slab |x·d − h| ≤ tolerance, h through the witness point, in
// the region (single linkage at regionLinkDistance_mm) of the triangle nearest the witness point.
SupportSet bodySupportSet(const Body& body, const Transform& X_WB, const Vec3& d_W, const Vec3& witness_W_mm,
                          const ContactPatchSettings& settings);

}  // namespace sg
