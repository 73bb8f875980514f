#pragma once
// Drake's hydroelastic margin δ for compliant meshes (src/geometry/hydro/README.md §Margin): the tet mesh's
// boundary is pushed out by δ and the field is extended into that skirt, so that the zero-pressure level stays
// on the original surface and the skirt carries negative pressure. Body frame, mm and Pa.
#include <vector>

#include "geometry/hydro/VolumeMesh.h"

namespace sg {

// The smallest displacement u (Euclidean norm) with n·u ≥ margin for every unit normal n in `normals`
// (the outward normals of the boundary faces at one vertex). Solved in its dual by projected Gauss–Seidel;
// the result is scaled up if needed so that every constraint holds. Where no u meets them all (the normals
// surround the origin) or the smallest is longer than 10·margin (a needle-sharp apex): margin along the mean
// normal (zero if the normals cancel). Zero for margin 0 or no normals.
Vec3 minimumInflation(const std::vector<Vec3>& normals, double margin_mm);

// Moves every boundary vertex of `field` (a vertex of a face that belongs to one tet only and has p = 0 at its
// corners) by
// minimumInflation of its boundary faces' outward normals; interior vertices stay. A moved vertex's pressure
// becomes the field extrapolated along its displacement, averaged over the tets at it whose pressure is not
// constant (∇p·u, negative: ∇p points inwards). Where every face at a vertex is offset by exactly δ and the
// field is linear across them (a convex fan whose faces are equally deep, a box) the zero level is exactly
// the original surface. Does nothing for margin 0; throws sg::Error for a negative or non-finite margin.
void inflateField(VolumeMeshField& field, double margin_mm);

}  // namespace sg
