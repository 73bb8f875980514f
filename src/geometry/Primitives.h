#pragma once
// Closed, outward-oriented triangle meshes of simple shapes, centred at the origin (mm). Used by tests,
// benchmarks and anyone who needs a shape without a file. Every builder returns a finalized mesh.
#include "geometry/TriangleMesh.h"

namespace sg {

// Axis-aligned box with the given full edge lengths (12 triangles).
TriangleMesh makeBox(const Vec3& size_mm);
// Icosahedron subdivided `subdivisions` times, vertices on the sphere: 20·4^subdivisions triangles.
TriangleMesh makeIcosphere(double radius_mm, int subdivisions);
// Latitude/longitude sphere: 2·slices·(stacks−1) triangles (poles at ±z).
TriangleMesh makeUvSphere(double radius_mm, int slices, int stacks);
// Closed cylinder along z from −height/2 to +height/2.
TriangleMesh makeCylinder(double radius_mm, double height_mm, int slices);
// Torus around z: tube centre circle of radius majorRadius_mm, tube radius minorRadius_mm;
// 2·majorSegments·minorSegments triangles. An optional radial bump amplitude (mm) modulates the
// tube radius by amplitude·sin(bumps·u)·sin(bumps·v) — a "bumpy" test surface.
TriangleMesh makeTorus(double majorRadius_mm, double minorRadius_mm, int majorSegments, int minorSegments,
                       double bumpAmplitude_mm = 0.0, int bumps = 0);
// A flat square in the z = 0 plane facing +z, `divisions`² quads (open mesh, one-sided).
TriangleMesh makePlane(double size_mm, int divisions = 1);

}  // namespace sg
