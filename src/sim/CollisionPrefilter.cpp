#include "sim/CollisionPrefilter.h"

#include "sim/SphereHullCollision.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace sg::sim {

namespace {

mjfCollision original[mjNGEOMTYPES][mjNGEOMTYPES] = {};

// Half extents and centre (geom frame) of a geom's shape; false for a plane or height field (unbounded).
bool localBox(const mjModel* m, int g, mjtNum c[3], mjtNum h[3]) {
  const mjtNum* s = m->geom_size + 3 * g;
  c[0] = c[1] = c[2] = 0;
  switch (m->geom_type[g]) {
    case mjGEOM_SPHERE:
      h[0] = h[1] = h[2] = s[0];
      return true;
    case mjGEOM_CAPSULE:
      h[0] = h[1] = s[0];
      h[2] = s[1] + s[0];
      return true;
    case mjGEOM_CYLINDER:
      h[0] = h[1] = s[0];
      h[2] = s[1];
      return true;
    case mjGEOM_ELLIPSOID:
    case mjGEOM_BOX:
      std::copy(s, s + 3, h);
      return true;
    case mjGEOM_MESH: {
      // The compiled mesh's vertices are in the geom frame (MuJoCo moved the geom to the mesh's frame).
      const int mesh = m->geom_dataid[g];
      if (mesh < 0 || m->mesh_vertnum[mesh] == 0) return false;
      mjtNum lo[3], hi[3];
      const float* v = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
      for (int k = 0; k < 3; ++k) lo[k] = hi[k] = v[k];
      for (int i = 1; i < m->mesh_vertnum[mesh]; ++i)
        for (int k = 0; k < 3; ++k) {
          lo[k] = std::min<mjtNum>(lo[k], v[3 * i + k]);
          hi[k] = std::max<mjtNum>(hi[k], v[3 * i + k]);
        }
      for (int k = 0; k < 3; ++k) {
        c[k] = 0.5 * (lo[k] + hi[k]);
        h[k] = 0.5 * (hi[k] - lo[k]);
      }
      return true;
    }
    default:
      return false;
  }
}

// True when box b lies more than `gap` outside box a along one of a's axes (a separating axis of the two
// boxes; each box's own three axes are tried, which rejects most far pairs with a few products).
bool separatedAlongAxesOf(const mjtNum* ca, const mjtNum* ha, const mjtNum* Ra, const mjtNum* cb, const mjtNum* hb,
                          const mjtNum* Rb, mjtNum gap) {
  const mjtNum d[3] = {cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]};
  for (int i = 0; i < 3; ++i) {
    // Axis i of a: column i of the row-major rotation matrix.
    const mjtNum ax = Ra[i], ay = Ra[3 + i], az = Ra[6 + i];
    const mjtNum dist = std::abs(d[0] * ax + d[1] * ay + d[2] * az);
    mjtNum reach = ha[i];
    for (int j = 0; j < 3; ++j) reach += hb[j] * std::abs(Rb[j] * ax + Rb[3 + j] * ay + Rb[6 + j] * az);
    if (dist > reach + gap) return true;
  }
  return false;
}

// The box of geom g in the world: centre and rotation (world frame), half extents.
void worldBox(const mjModel* m, const mjData* d, int g, mjtNum c[3], const mjtNum*& R, const mjtNum*& h) {
  const mjtNum* box = m->geom_user + kGeomBoxUserSize * g;
  R = d->geom_xmat + 9 * g;
  mju_rotVecMat(c, box, R);
  mju_addTo3(c, d->geom_xpos + 3 * g);
  h = box + 3;
}

int prefiltered(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  if (geomBoxesApart(m, d, g1, g2, margin)) return 0;
  return original[m->geom_type[g1]][m->geom_type[g2]](m, d, con, g1, g2, margin);
}

// Sphere (g1) against mesh (g2): the exact function where the model registered its hulls (SphereHullCollision.h),
// MuJoCo's MPR otherwise.
int prefilteredSphereMesh(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2, mjtNum margin) {
  if (geomBoxesApart(m, d, g1, g2, margin)) return 0;
  bool handled = false;
  const int n = collideSphereMeshRegistered(m, d, con, g1, g2, margin, handled);
  return handled ? n : original[mjGEOM_SPHERE][mjGEOM_MESH](m, d, con, g1, g2, margin);
}

}  // namespace

bool geomBoxesApart(const mjModel* m, const mjData* d, int g1, int g2, mjtNum margin) {
  if (m->nuser_geom != kGeomBoxUserSize) return false;
  mjtNum c1[3], c2[3];
  const mjtNum *R1, *R2, *h1, *h2;
  worldBox(m, d, g1, c1, R1, h1);
  worldBox(m, d, g2, c2, R2, h2);
  return geomBoxesApart(m, d, c1, c2, g1, g2, margin);
}

bool geomBoxesApart(const mjModel* m, const mjData* d, const mjtNum c1[3], const mjtNum c2[3], int g1, int g2,
                    mjtNum margin) {
  if (m->nuser_geom != kGeomBoxUserSize) return false;
  const mjtNum *R1 = d->geom_xmat + 9 * g1, *R2 = d->geom_xmat + 9 * g2;
  const mjtNum *h1 = m->geom_user + kGeomBoxUserSize * g1 + 3, *h2 = m->geom_user + kGeomBoxUserSize * g2 + 3;
  // A contact needs the shapes within `margin`; 1e-9 m more covers rounding in the boxes' placement. The test is
  // symmetric in g1 and g2 to the bit (the centre difference only changes sign).
  const mjtNum gap = margin + 1e-9;
  return separatedAlongAxesOf(c1, h1, R1, c2, h2, R2, gap) || separatedAlongAxesOf(c2, h2, R2, c1, h1, R1, gap);
}

void geomBoxCentres(const mjModel* m, const mjData* d, mjtNum* c) {
  if (m->nuser_geom != kGeomBoxUserSize) return;
  const mjtNum *R, *h;
  for (int g = 0; g < m->ngeom; ++g) worldBox(m, d, g, c + 3 * g, R, h);
}

void installCollisionPrefilter() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int a = 0; a < mjNGEOMTYPES; ++a)
      for (int b = 0; b < mjNGEOMTYPES; ++b) {
        original[a][b] = mjCOLLISIONFUNC[a][b];
        // Planes and height fields are unbounded: their entries stay MuJoCo's own.
        const bool bounded = a >= mjGEOM_SPHERE && b >= mjGEOM_SPHERE;
        if (original[a][b] && bounded) mjCOLLISIONFUNC[a][b] = prefiltered;
      }
    if (original[mjGEOM_SPHERE][mjGEOM_MESH]) mjCOLLISIONFUNC[mjGEOM_SPHERE][mjGEOM_MESH] = prefilteredSphereMesh;
  });
}

mjfCollision mujocoCollisionFunction(int type1, int type2) {
  installCollisionPrefilter();
  return original[type1][type2];
}

void writeGeomBoxes(mjModel* m, bool enabled) {
  if (m->nuser_geom != kGeomBoxUserSize) return;
  constexpr mjtNum kUnbounded = 1e30;  // m: no pair is that far apart (infinity would give inf·0 = NaN)
  for (int g = 0; g < m->ngeom; ++g) {
    mjtNum* box = m->geom_user + kGeomBoxUserSize * g;
    if (!enabled || !localBox(m, g, box, box + 3)) {
      std::fill(box, box + 3, 0.0);
      std::fill(box + 3, box + 6, kUnbounded);
    }
  }
}

}  // namespace sg::sim
