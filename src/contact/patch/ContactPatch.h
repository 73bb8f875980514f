#pragma once
// Contact patches in the manner of Coal's ContactPatch (src/contact/README.md §Contact patches): for a contact
// of two bodies, the planar convex polygon where their support sets overlap. Each body's support set is the
// part of it within `tolerance_mm` of its support plane (the plane through its witness point, normal to the
// contact normal), projected onto the contact plane; the patch is their intersection, counter-clockwise,
// with at most `maxVertices` vertices. Exact primitives (Body::primitive) use their closed-form support
// mappings, meshes the triangles within the slab. World frame, mm.
#include <string>
#include <vector>

#include "contact/Contact.h"
#include "contact/patch/PatchPolygon.h"

namespace sg {

struct ContactPatchSettings {
  double tolerance_mm = 0.1;  // support-plane thickness (Coal's patch_tolerance), ≥ 0
  int curvedSamples = 12;     // directions sampling a curved support set (Coal's num_samples_curved_shapes), ≥ 3
  int maxVertices = 24;       // bound on the patch's vertex count (Coal's former max_size_patch), ≥ 3
  double regionLinkDistance_mm = 3.0;  // meshes: slab pieces closer than this form one region (> 0)
};
// Throws sg::Error naming the setting for a negative tolerance or counts below 3.
void checkContactPatchSettings(const ContactPatchSettings& settings);

// How one body's support set was found (for reports).
enum class SupportSetSource { Primitive, Mesh, HalfSpace, None };
const char* toString(SupportSetSource source);  // "primitive", "mesh", "half-space", "none"

struct ContactPatch {
  // Patch frame P in world: origin = the midpoint of the contact's witness points, z = the contact normal
  // pointing from side 1 into side 2 (Coal's convention: o1 → o2), x and y as contactFrame() builds them.
  Transform X_WP;
  Polygon2 polygon_P_mm;       // counter-clockwise about +z; 1 point = the contact point, 2 = a segment
  double separation_mm = 0;    // signed distance d of the contact (< 0: penetration)
  SupportSetSource source1 = SupportSetSource::None, source2 = SupportSetSource::None;
  std::string note;            // why the patch is a point (empty support sets, no overlap, ...)

  std::size_t size() const { return polygon_P_mm.size(); }
  Vec3 n_W() const { return X_WP.applyToVector(Vec3::UnitZ()); }
  Vec3 p_WV_mm(std::size_t i) const;          // vertex i in the contact plane
  Vec3 pointOnSide1_W_mm(std::size_t i) const;   // p − (d/2)·n
  Vec3 pointOnSide2_W_mm(std::size_t i) const;   // p + (d/2)·n, so p2 − p1 = d·n
  double area_mm2() const { return polygonArea(polygon_P_mm); }
  Vec3 centroid_W_mm() const;
  // Mean distance of the patch from its centroid (mm): e_n = τmax/(μN) under uniform pressure.
  double meanRadius_mm() const;
  const char* shapeName() const;  // "polygon", "segment" or "point"
};

// The patch of one contact (its two bodies placed as in `state`). Throws sg::Error for invalid settings.
ContactPatch computeContactPatch(const World& world, const WorldState& state, const Contact& contact,
                                 const ContactPatchSettings& settings = {});

}  // namespace sg
