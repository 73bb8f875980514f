#pragma once
// Curvature estimators for the soft-contact model (src/contact/README.md §Curvature estimators).
//
// GraspItParaboloid is QuadricFit.h's fitQuadric. OsculatingJet fits, in the contact frame, a graph
//   z = f(x, y) = Σ_{i+j ≤ d} c_ij x^i y^j      (d = 6 by default, lowered while the data cannot determine it:
//                                                at least 2 equations per coefficient above d = 2)
// to the neighbourhood's positions (z_k = f(x_k, y_k)) and to the slopes given by its vertex normals
// (f_x = −n_x/n_z, f_y = −n_y/n_z, n outward), each sample weighted by exp(−(d_k/σ)²) of its tangent distance.
// The curvatures are the eigenvalues of the shape operator I⁻¹·II of the fitted surface at the point above
// the contact point (slopes included), so a contact normal slightly off the surface normal costs nothing.
// A paraboloid fitted over a radius r overestimates a sphere's curvature by ≈ 3r²/(16R²); the degree-6 jet
// and the normals remove that bias (≤ 1 % on the shapes tested in tests/contact/tst_soft.cpp).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "contact/QuadricFit.h"
#include "geometry/TriangleMesh.h"

namespace sg {

class Bvh;                // geometry/Bvh.h
class CornerNormalTerms;  // contact/CornerNormalTerms.h

// Unit outward normals (mesh frame) at the vertices `indices` of `mesh`, from the incident faces with Max's
// weights (N. Max, 1999: each face's e1 × e2 divided by |e1|²·|e2|², exact for vertices on a sphere). A vertex
// without faces (or whose weights cancel) gets the zero vector ("no normal"). O(triangles + vertices).
std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const std::vector<std::uint32_t>& indices);
// The same, but only faces whose outward normal lies within acos(minFaceCosine) of `outward` (mesh frame, unit)
// contribute: at a crease or corner the normal is that of the side the contact is on (a box corner seen from
// one face gets that face's normal, a cylinder's rim vertex the side's radial normal), not an average over
// faces meeting at an angle. A vertex without such a face gets the zero vector.
std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const std::vector<std::uint32_t>& indices,
                                const Vec3& outward, double minFaceCosine);
// The same with the mesh's BVH (geometry/BvhCache.h `bvhFor(mesh)`, built over exactly this mesh): only the
// triangles incident to the asked vertices (Bvh::trianglesAtVertex) are visited, in mesh order, so the sums and
// the result are identical; O(neighbourhood) instead of O(mesh). Null (or a BVH of another mesh) → every triangle.
std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const Bvh* bvh, const std::vector<std::uint32_t>& indices,
                                const Vec3& outward, double minFaceCosine);
// The same reading each corner's term from `terms` (CornerNormalTerms.h, computed from this `bvh`) instead of
// computing it: identical results. Terms of another BVH (or null) → the overload above.
std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const Bvh* bvh, const CornerNormalTerms* terms,
                                const std::vector<std::uint32_t>& indices, const Vec3& outward, double minFaceCosine);

// The osculating-jet estimator. `outwardNormals_W` is parallel to `points_mm` (world, outward unit normals);
// a zero vector (or a shorter vector) means "no normal at this point". `frame`: world, origin at the contact
// point, z = inward normal. Never gives NaN: too few or degenerate data give flat curvatures and a status.
QuadricFit fitOsculatingJet(const std::vector<Vec3>& points_mm, const std::vector<Vec3>& outwardNormals_W,
                            const Transform& frame, const QuadricFitSettings& settings = {});

// The estimator chosen by settings.estimator (normals are ignored by GraspItParaboloid), judged by
// judgeFitSupport against `neighbourhoodRadius_mm` (0: the points' largest distance from the frame's z axis).
QuadricFit fitCurvature(const std::vector<Vec3>& points_mm, const std::vector<Vec3>& outwardNormals_W,
                        const Transform& frame, const QuadricFitSettings& settings = {},
                        double neighbourhoodRadius_mm = 0);

// Whether an Ok fit is supported by its neighbourhood (README.md §Coarse meshes): its weighted RMS position
// residual at most settings.maxRelativeResidual × neighbourhoodRadius_mm and its weighted RMS slope residual at
// most settings.maxSlopeResidual. If not, the status becomes Unreliable with the reason in fit.note; the jet's
// curvatures become flat (directions from `frame`), GraspIt!'s paraboloid keeps them. Sets relativeResidual and
// neighbourhoodRadius_mm; other statuses and Exact fits are left as they are.
void judgeFitSupport(QuadricFit& fit, const Transform& frame, double neighbourhoodRadius_mm,
                     const QuadricFitSettings& settings);

// The estimators a user chooses (settings dialog, INI key analysis/curvatureEstimator, CLI --curvature), default
// first. Their stable keys: "jet" (OsculatingJet), "graspit" (GraspItParaboloid); "" for any other value (a
// curvature source that is not a choice).
const std::vector<CurvatureEstimator>& selectableCurvatureEstimators();
const char* curvatureEstimatorKey(CurvatureEstimator e);
std::optional<CurvatureEstimator> curvatureEstimatorFromKey(std::string_view key);

}  // namespace sg
