#pragma once
// Soft-contact neighbourhoods (README.md §Soft finger): the surface vertices of a body around a contact that the
// local paraboloid fit (QuadricFit.h) uses, and the merging of contacts whose neighbourhoods overlap.
//
// Differences from GraspIt! (README.md §Differences from GraspIt!), all settable:
//  * GraspIt!'s radius 400·E^-0.333 mm uses max(E1, E2) (the STIFFER elastic body when both are elastic);
//    here the softer elastic body decides by default (it is the one that deforms). With one elastic body —
//    the usual soft finger on a rigid object — both rules agree.
//  * GraspIt!'s intended clamp "outside [3, 10] mm" can never trigger; here the radius is clamped to
//    [minRadius_mm, maxRadius_mm] (default 3..10 mm). Set the clamp to [0, inf] for GraspIt!'s raw value.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "contact/Contact.h"
#include "geometry/TriangleMesh.h"

namespace sg {

class Bvh;

enum class NeighbourhoodRadiusRule {
  GraspItFormula,  // coefficient · (1 / E)^exponent mm, E in Pa, then clamped
  Fixed            // fixedRadius_mm
};

enum class ModulusRule {
  Softer,          // the smaller Young's modulus among the elastic bodies (default)
  Stiffer,         // GraspIt!'s max(E1, E2)
  Series           // E1·E2 / (E1 + E2) when both are elastic
};

enum class NeighbourhoodVertexRule {
  WholeTriangles,  // GraspIt!: every vertex of a triangle whose closest point is within the radius
  VerticesInside   // only vertices themselves within the radius
};

struct SoftNeighbourhoodSettings {
  NeighbourhoodRadiusRule radiusRule = NeighbourhoodRadiusRule::GraspItFormula;
  double coefficient_mm = 400.0;        // GraspIt!'s "fudge" factor
  double exponent = 0.333;              // GraspIt!'s cube root (as written there)
  double minRadius_mm = 3.0;            // clamp (fixes the impossible GraspIt! clamp)
  double maxRadius_mm = 10.0;
  double fixedRadius_mm = 5.0;          // radiusRule == Fixed, or when no body is elastic
  ModulusRule modulusRule = ModulusRule::Softer;
  NeighbourhoodVertexRule vertexRule = NeighbourhoodVertexRule::WholeTriangles;
  // A face belongs to the contact side when faceNormal·inwardNormal <= maxFaceNormalDot (0 = GraspIt!).
  double maxFaceNormalDot = 0.0;
  bool mergeOverlapping = true;         // merge contacts whose neighbourhoods share a vertex (src/contact/README.md §Soft finger)
};

// The modulus (Pa) that sizes soft contacts between two bodies, or nullopt when neither is elastic.
std::optional<double> contactModulus_Pa(std::optional<double> youngs1_Pa, std::optional<double> youngs2_Pa,
                                        ModulusRule rule);

// The neighbourhood radius (mm) for a contact between bodies with these moduli.
double neighbourhoodRadius_mm(std::optional<double> youngs1_Pa, std::optional<double> youngs2_Pa,
                              const SoftNeighbourhoodSettings& settings);

// One body's neighbourhood around one contact.
struct SoftNeighbourhood {
  std::vector<std::uint32_t> vertexIndices;  // into the body's mesh, sorted, unique
  std::vector<Vec3> vertexPoints_mm;         // world frame, parallel to vertexIndices
  std::vector<Vec3> contactPoints_mm;        // world frame: the contact point(s) (several after a merge)

  std::size_t size() const { return vertexPoints_mm.size() + contactPoints_mm.size(); }
  std::vector<Vec3> allPoints_mm() const;    // contact points then vertices
};

// Vertices of `mesh` (body frame, placed in the world by `pose`) around `contact_mm` (world) on faces
// opposing `inwardNormal` (world, into the body). An empty mesh gives just the contact point.
SoftNeighbourhood gatherNeighbourhood(const TriangleMesh& mesh, const Transform& pose, const Vec3& contact_mm,
                                      const Vec3& inwardNormal, double radius_mm,
                                      const SoftNeighbourhoodSettings& settings);
// The same with the mesh's BVH (geometry/BvhCache.h `bvhFor(mesh)`, built over exactly these triangles):
// only triangles in BVH nodes whose bounding sphere reaches the query ball are tested, with the same
// per-triangle rule, so the result is identical (vertex indices sorted and unique). Null → every triangle.
SoftNeighbourhood gatherNeighbourhood(const TriangleMesh& mesh, const Bvh* bvh, const Transform& pose,
                                      const Vec3& contact_mm, const Vec3& inwardNormal, double radius_mm,
                                      const SoftNeighbourhoodSettings& settings);

// Both sides of one contact.
struct SoftNeighbourhoodPair {
  SoftNeighbourhood side1, side2;
  std::vector<int> sourceContacts;           // indices of the contacts merged into this one
};

// GraspIt!'s merge (README.md §Soft finger): while two contacts between the same pair of bodies share a side-1 vertex, keep
// the one with the smaller separation and union both sides' neighbourhoods. `contacts` and `pairs` are
// parallel and are rewritten in place (the survivor keeps its own point, normal and frame).
void mergeOverlappingContacts(std::vector<Contact>& contacts, std::vector<SoftNeighbourhoodPair>& pairs);

}  // namespace sg
