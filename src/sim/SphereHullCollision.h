#pragma once
// An exact narrow phase for a sphere against a convex mesh piece (README.md §Exact sphere–mesh contact). MuJoCo 2.2
// collides a sphere with a mesh by MPR (libccd) over the piece's vertices, an iterative answer within its
// tolerance; a sphere against a convex polyhedron has a closed form: inside, the deepest face plane; outside, the
// closest point on the faces the centre sees. The faces' planes are computed once per model from the compiled
// mesh (vertices in the geom frame). In the default grasp's trials the hand's fingertip spheres against the mug's
// pieces were 75 % of MPR's instructions (tests/bench/README.md §Physics trial).
#include <vector>

#include <mujoco/mujoco.h>

namespace sg::sim {

// A convex polyhedron: its vertices and its triangles with their outward planes, n·x = d (unit n), in one frame.
struct HullShape {
  std::vector<double> vertices;  // 3 per vertex
  std::vector<int> triangles;    // 3 vertex indices per face
  std::vector<double> planes;    // 4 per face: n_x, n_y, n_z, d
  int faces() const { return static_cast<int>(planes.size() / 4); }
};

// The hull of a mesh given by its vertices and triangles when they bound a convex solid: every edge shared by two
// triangles, every vertex on or behind every face plane (to 1e-6 of the mesh's extent), a volume (the centroid
// of the vertices behind every plane). False for anything else (a flat piece, an open or non-convex mesh): such a
// mesh keeps MuJoCo's MPR. Degenerate (zero-area) triangles are left out of the planes.
bool buildHullShape(const float* vertices, int vertexCount, const int* triangles, int triangleCount, HullShape& out);

// A contact between a sphere (geom 1) and a hull (geom 2) in the hull's frame, by MuJoCo's conventions for a
// collision function: normal from the sphere towards the hull (the direction the hull is pushed), dist the signed
// distance between the surfaces (negative: penetration), pos halfway between the two surfaces along the normal.
struct SphereHullContact {
  double dist = 0;
  double normal[3] = {0, 0, 0};
  double pos[3] = {0, 0, 0};
};

// False when the surfaces are farther apart than `margin` (no contact); otherwise fills `out`. Exact: inside, the
// depth is the largest face-plane distance (the nearest face); outside, the distance to the closest point of the
// faces whose planes the centre is in front of.
bool collideSphereHull(const HullShape& hull, const double centre[3], double radius, double margin,
                       SphereHullContact& out);

// The hulls of a compiled model's meshes (an empty shape where buildHullShape refused the mesh), registered for
// the collision table's sphere–mesh entry (CollisionPrefilter.h) while the object lives. A model without one
// collides spheres with meshes by MuJoCo's own MPR.
class SphereHullCollider {
 public:
  explicit SphereHullCollider(const mjModel* m);
  ~SphereHullCollider();
  SphereHullCollider(const SphereHullCollider&) = delete;
  SphereHullCollider& operator=(const SphereHullCollider&) = delete;

  int usableMeshes() const;                 // meshes with a hull
  int meshes() const { return static_cast<int>(hulls_.size()); }

 private:
  const mjModel* model_;
  std::vector<HullShape> hulls_;            // per mesh id
  friend int collideSphereMeshRegistered(const mjModel*, const mjData*, mjContact*, int, int, mjtNum, bool&);
};

// The sphere–mesh collision of geoms g1 (sphere) and g2 (mesh) when the model has a registered collider and the
// mesh a hull (`handled` true; returns the contacts written, 0 or 1); otherwise `handled` is false.
int collideSphereMeshRegistered(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2, mjtNum margin,
                                bool& handled);

}  // namespace sg::sim
