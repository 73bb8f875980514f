#pragma once
// Procedural closed triangle meshes for SoftGrasp's model zoo (mm, counter-clockwise seen from outside).
// Used by sg_model_generator both for the small committed meshes and for the large build-time scan.
#include <vector>

#include "geometry/TriangleMesh.h"

namespace sg::zoo {

// Surface of revolution about +z. `profile` holds (r, z) points, mm, walked so that the solid lies to the
// left when going from the first to the last point in the (r, z) half-plane (e.g. bottom centre, outward,
// up the outside, down the inside); points with r == 0 become single pole vertices.
TriangleMesh lathe(const std::vector<Vec2>& profile, int segments);

// Axis-aligned box with its base centred on the origin: x in [-sx/2, sx/2], y likewise, z in [0, sz].
TriangleMesh boxOnBase(double sx_mm, double sy_mm, double sz_mm);

// Full torus about +z centred at the origin: major radius R, tube radius r.
TriangleMesh torus(double majorRadius_mm, double tubeRadius_mm, int majorSegments, int tubeSegments);

// Part of a torus in the x–z plane (a mug handle): tube centre line c + R·(cos t, 0, sin t) for t in
// [-halfAngle, halfAngle], both ends closed by flat caps.
TriangleMesh handleArc(const Vec3& centre_mm, double majorRadius_mm, double tubeRadius_mm, double halfAngle_rad,
                       int arcSegments, int tubeSegments);

// Unit icosphere subdivided `level` times: 20·4^level triangles.
TriangleMesh icosphere(int level);

// A stone-like scanned object: an icosphere of the given level, scaled to the semi-axes and displaced
// radially by a fixed sum of smooth bumps (amplitude in mm). Deterministic.
TriangleMesh bumpyStone(int level, const Vec3& semiAxes_mm, double bumpAmplitude_mm);

// Signed volume (mm³) by the divergence theorem: positive for a closed, outward-oriented mesh.
double signedVolume(const TriangleMesh& mesh);

}  // namespace sg::zoo
