#pragma once
// A compliant body's hydroelastic representation, ready for intersection queries (src/geometry/hydro/README.md
// §Representations): either a tet mesh with its field, the field's affine form per tet and a bounding-volume
// hierarchy over the tets, or an analytic compliant half-space. Body frame, mm, Pa. Built once per body
// geometry and field options and shared (compliantGeometryFor is a thread-safe cache).
#include <memory>
#include <optional>

#include "geometry/Bvh.h"
#include "geometry/Shapes.h"
#include "geometry/hydro/CompliantFields.h"

namespace sg {

// A BVH over tets (axis-aligned boxes in the body frame, one tet per leaf in `nodes`). Leaf ranges index `order`.
struct TetBvh {
  // The same tree as compact axis-aligned boxes (corner[0] = min, corner[1] = max, padded as the nodes' boxes;
  // 64 bytes a node, not BvhNode's 150), except that a subtree of at most kLeafTets tets is one leaf: the
  // per-triangle descent of compliantRigidSurface reads only these (fewer, cheaper visits: the boxes of the last
  // levels prune little). Leaf ranges index `order`.
  static constexpr std::uint32_t kLeafTets = 4;
  struct Box {
    double corner[2][3];
    std::int32_t firstChild = -1;  // as BvhNode
    std::uint32_t first = 0, count = 0;
  };
  std::vector<BvhNode> nodes;
  std::vector<Box> boxes;            // breadth-first; the children of boxes[i] are adjacent
  std::vector<std::uint32_t> order;  // tet indices in leaf order
};
TetBvh buildTetBvh(const VolumeMesh& mesh);

struct SoftVolume {
  VolumeMeshField field;
  // Per tet: p(x) = gradient·x + offset for x in the tet (body frame).
  std::vector<Vec3> gradient_Pa_per_mm;
  std::vector<double> offset_Pa;
  // Per tet and face k (opposite vertex k): inward unit normal and offset, inside ⇔ n·x ≥ d.
  std::vector<std::array<Vec3, 4>> faceNormal;
  std::vector<std::array<double, 4>> faceOffset_mm;
  // Per tet, for the inner loops: |gradient| (the normal filter without a square root), and the vertices and
  // face planes four lanes wide — lane k holds vertex k and face k (the one opposite vertex k), so that the
  // compliant–rigid loop tests a plane against the 4 vertices, or a point against the 4 faces, in one
  // expression (README.md §Performance), without indirection through the mesh's vertex list.
  struct TetLanes {
    Eigen::Array4d x_mm, y_mm, z_mm;          // vertex coordinates
    Eigen::Array4d faceX, faceY, faceZ;       // inward unit face normals
    Eigen::Array4d faceOffset_mm;             // inside ⇔ normal·x ≥ offset
    Vec3 vertex(int k) const { return Vec3(x_mm[k], y_mm[k], z_mm[k]); }
  };
  std::vector<double> gradientNorm_Pa_per_mm;
  std::vector<TetLanes> tetLanes;
  TetBvh bvh;
  // A sphere holding every vertex (centre of the vertices' box, radius padded by 1e-9 mm): a second cull of
  // rigid nodes and triangles besides the tree's root box (exact for a round body, whose box corners are empty).
  Vec3 boundCentre_mm = Vec3::Zero();
  double boundRadius_mm = 0;

  explicit SoftVolume(VolumeMeshField f);
  double pressureAt(std::size_t tet, const Vec3& p_B_mm) const {
    return gradient_Pa_per_mm[tet].dot(p_B_mm) + offset_Pa[tet];
  }
};

// The half-space z ≤ 0 of the primitive frame S: p = (E/h)·(−z) (0 on the plane), gradient −(E/h)·z_S.
struct CompliantHalfSpace {
  Transform X_BS;                  // the half-space's frame in the body frame
  double pressurePerDepth_Pa_per_mm = 0;  // E/h
  double margin_mm = 0;            // the surface polygons reach δ above the plane (negative pressure there)
};

struct CompliantGeometry {
  std::shared_ptr<const SoftVolume> volume;  // null for a half-space
  std::optional<CompliantHalfSpace> halfSpace;
};

struct CompliantSpec {
  CompliantFieldOptions field;
  double slabThickness_mm = 10;  // half-spaces: h
  bool operator==(const CompliantSpec& o) const {
    return field.modulus_Pa == o.field.modulus_Pa && field.resolutionHint_mm == o.field.resolutionHint_mm &&
           field.margin_mm == o.field.margin_mm && slabThickness_mm == o.slabThickness_mm;
  }
};

// The compliant representation of a body whose geometry is `primitive` (exact shape, body frame) when given,
// else the closed mesh `mesh` (convex: centroid fan; otherwise tetrahedralizeClosedMesh). Cached per mesh
// address (bodies own their meshes through shared_ptr; a freed mesh whose address is reused is detected) and
// spec. Thread-safe. Throws sg::Error when the body cannot be made compliant.
std::shared_ptr<const CompliantGeometry> compliantGeometryFor(const std::shared_ptr<const TriangleMesh>& mesh,
                                                              const std::optional<Primitive>& primitive,
                                                              const CompliantSpec& spec);
// The same, uncached (tests).
CompliantGeometry makeCompliantGeometry(const TriangleMesh* mesh, const std::optional<Primitive>& primitive,
                                        const CompliantSpec& spec);
void clearCompliantGeometryCache();
std::size_t compliantGeometryCacheSize();

}  // namespace sg
