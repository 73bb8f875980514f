#pragma once
// An exact box test in front of MuJoCo's narrow phase (README.md §Collision prefilter). MuJoCo 2.2 sends every
// geom pair whose bounding spheres overlap to its convex-collision routine (MPR over the pieces' vertices); the
// mug's 43 pieces against the hand's geoms give ~125 such pairs a step, of which ~4 touch. This wraps the
// entries of MuJoCo's collision table so a pair whose oriented boxes are farther apart than the contact margin is
// answered "no contact" without running MPR. Such a pair cannot have a contact, so the contacts, and with them
// the trajectory, are the same bit for bit (bench_sim and tests/sim assert it).
#include <mujoco/mujoco.h>

namespace sg::sim {

// Numbers per geom in mjModel::geom_user that hold its box: centre (3) and half extents (3), geom frame, m.
// MjcfBuilder declares them (`<size nuser_geom>`); the test skips a model without them.
inline constexpr int kGeomBoxUserSize = 6;

// Wraps MuJoCo's collision table once per process (thread-safe; later calls do nothing). The sphere–mesh entry
// also runs the exact function of SphereHullCollision.h for a model that registered its hulls.
void installCollisionPrefilter();

// True when the boxes of geoms g1 and g2 (geom_user, below) are farther apart than `margin`, so the geoms cannot
// touch; false for a model without the boxes. PairList.h runs the same test before a step.
bool geomBoxesApart(const mjModel* m, const mjData* d, int g1, int g2, mjtNum margin);
// The same test with the boxes' world centres given (geomBoxCentres: 3 per geom, the same bits).
bool geomBoxesApart(const mjModel* m, const mjData* d, const mjtNum c1[3], const mjtNum c2[3], int g1, int g2,
                    mjtNum margin);
void geomBoxCentres(const mjModel* m, const mjData* d, mjtNum* centres);

// MuJoCo's own entry of its collision table for two geom types (before this file wrapped it; null where MuJoCo
// has none): the reference the tests compare SphereHullCollision.h against.
mjfCollision mujocoCollisionFunction(int type1, int type2);

// Writes each geom's box into geom_user from the compiled model (mesh vertices, primitive sizes). With
// `enabled` false the boxes are unbounded, so the test never rejects a pair (the reference for cross-checks).
void writeGeomBoxes(mjModel* m, bool enabled);

}  // namespace sg::sim
