#include "contact/SoftContactModel.h"

#include <cstdio>
#include <string>
#include <utility>

#include "core/NumberFormat.h"
#include "contact/CornerNormalTerms.h"
#include "contact/CurvatureEstimator.h"
#include "contact/PrimitiveCurvature.h"
#include "geometry/Bvh.h"
#include "geometry/BvhCache.h"

namespace sg {

namespace {

std::optional<double> youngsOf(const World& world, const BodyHandle& h) {
  if (!world.isValid(h)) return std::nullopt;
  return world.body(h).youngs_Pa;
}

SoftNeighbourhood gatherSide(const World& world, const WorldState& state, const ContactSide& side, double radius_mm,
                             const SoftNeighbourhoodSettings& s) {
  if (!world.isValid(side.body) || !world.body(side.body).mesh) {
    SoftNeighbourhood only;
    only.contactPoints_mm.push_back(side.p_WC_mm);
    return only;
  }
  const Body& body = world.body(side.body);
  // The mesh's cached BVH prunes the triangles far from the contact (same result as the full scan).
  const std::shared_ptr<const Bvh> bvh = bvhFor(body.mesh);
  return gatherNeighbourhood(*body.mesh, bvh.get(), X_WB(state, side.body), side.p_WC_mm, side.n_W, radius_mm, s);
}

// The estimator's fit of one side's neighbourhood, judged against radius_mm (CurvatureEstimator.h). The jet also
// uses the mesh's vertex normals, each averaging only the faces within acos(jetFaceNormalMinCosine) of the
// contact's outward normal, and leaves out the vertices that have no such face: they lie only on faces turned
// away from the contact (a cylinder's cap centre next to a contact on its rim, the far side of an edge), not on
// the surface the contact is on, and a graph over the tangent plane cannot pass through them.
QuadricFit fitNeighbourhood(const World& world, const WorldState& state, const ContactSide& side,
                            const SoftNeighbourhood& nb, double radius_mm, const QuadricFitSettings& fit) {
  const Transform frame = contactFrame(side.p_WC_mm, side.n_W);
  if (fit.estimator == CurvatureEstimator::GraspItParaboloid || !world.isValid(side.body) ||
      !world.body(side.body).mesh)
    return fitCurvature(nb.allPoints_mm(), {}, frame, fit, radius_mm);
  const TriangleMesh& mesh = *world.body(side.body).mesh;
  const Transform pose = X_WB(state, side.body);
  // The contact's outward normal in the mesh frame selects the faces each vertex normal averages.
  const Vec3 outward_B = pose.inverse().applyToVector(-side.n_W);
  const std::shared_ptr<const Bvh> bvh = bvhFor(world.body(side.body).mesh);
  // Each corner's normal term is computed once per mesh (CornerNormalTerms.h), not per fit.
  const std::shared_ptr<const CornerNormalTerms> terms = cornerNormalTermsFor(bvh);
  const std::vector<Vec3> vertexNormals_B =
      vertexNormals(mesh, bvh.get(), terms.get(), nb.vertexIndices, outward_B, fit.jetFaceNormalMinCosine);
  std::vector<Vec3> points = nb.contactPoints_mm;
  std::vector<Vec3> normals(points.size(), Vec3::Zero());  // no normal at the contact points
  int dropped = 0;
  for (std::size_t k = 0; k < nb.vertexPoints_mm.size(); ++k) {
    if (vertexNormals_B[k].isZero()) {
      ++dropped;
      continue;
    }
    points.push_back(nb.vertexPoints_mm[k]);
    normals.push_back(pose.applyToVector(vertexNormals_B[k]));
  }
  QuadricFit out = fitCurvature(points, normals, frame, fit, radius_mm);
  out.droppedPoints = dropped;
  return out;
}

// One side's curvatures: the primitive's exact ones, else the fit of its neighbourhood. An osculating-jet fit on a
// mesh that is not supported (or failed) is refitted over neighbourhoods grown by fit.growFactor, at most
// fit.growSteps times; the first supported one is kept (README.md §Coarse meshes).
QuadricFit fitSide(const World& world, const WorldState& state, const ContactSide& side, const SoftNeighbourhood& nb,
                   double radius_mm, const SoftContactSettings& s) {
  if (auto exact = exactPrimitiveFit(world, state, side, s.fit)) return *exact;
  QuadricFit fit = fitNeighbourhood(world, state, side, nb, radius_mm, s.fit);
  const bool jet = s.fit.estimator != CurvatureEstimator::GraspItParaboloid;
  if (fit.status == QuadricFitStatus::Ok || !jet || !world.isValid(side.body) || !world.body(side.body).mesh ||
      !(s.fit.growFactor > 1))
    return fit;
  double r = radius_mm;
  for (int step = 0; step < s.fit.growSteps; ++step) {
    r *= s.fit.growFactor;
    SoftNeighbourhood grown = gatherSide(world, state, side, r, s.neighbourhood);
    grown.contactPoints_mm = nb.contactPoints_mm;  // a merged contact keeps all its points
    QuadricFit refit = fitNeighbourhood(world, state, side, grown, r, s.fit);
    if (refit.status != QuadricFitStatus::Ok) continue;
    refit.note = "neighbourhood grown from " + formatGeneral(radius_mm, 3) + " to " + formatGeneral(r, 3) +
                 " mm, where the fit is supported; at " + formatGeneral(radius_mm, 3) + " mm: " + (fit.note.empty() ? std::string(quadricFitStatusKey(fit.status)) : fit.note);
    return refit;
  }
  if (s.fit.growSteps <= 0) return fit;
  fit.note = (fit.note.empty() ? std::string(quadricFitStatusKey(fit.status)) : fit.note) +
             "; neighbourhoods grown up to " + formatGeneral(r, 3) + " mm did not support a fit either";
  return fit;
}

// A side whose fit was not Ok entered the relative curvature as flat (the jet's unreliable and failed fits are
// flat; GraspIt!'s unreliable paraboloid is kept and only reported): the patch says so.
void noteFitFallback(SoftPatch& patch, const QuadricFit& fit1, const QuadricFit& fit2) {
  std::string sides;
  bool unreliable = false;
  for (const auto& [fit, name] : {std::pair{&fit1, "side 1"}, std::pair{&fit2, "side 2"}}) {
    if (fit->status == QuadricFitStatus::Ok) continue;
    if (fit->status == QuadricFitStatus::Unreliable && fit->estimator == CurvatureEstimator::GraspItParaboloid)
      continue;
    unreliable = unreliable || fit->status == QuadricFitStatus::Unreliable;
    sides += std::string(sides.empty() ? "" : " and ") + name + " (" + quadricFitStatusKey(fit->status) + ")";
  }
  if (sides.empty()) return;
  patch.fallback = unreliable ? PatchFallback::UnreliableFit : PatchFallback::FailedFit;
  patch.fallbackReason = "the fit of " + sides + " was not usable: taken as flat" +
                         (patch.flatReplaced ? ", and the flat direction got the flat radius" : "");
}

}  // namespace

bool hasElasticBody(const World& world, const Contact& c) {
  const auto e1 = youngsOf(world, c.side1.body), e2 = youngsOf(world, c.side2.body);
  return (e1 && *e1 > 0) || (e2 && *e2 > 0);
}

std::vector<SoftNeighbourhoodPair> gatherSoftNeighbourhoods(const World& world, const WorldState& state,
                                                            const std::vector<Contact>& contacts,
                                                            const SoftContactSettings& s) {
  std::vector<SoftNeighbourhoodPair> out;
  out.reserve(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const double r = neighbourhoodRadius_mm(youngsOf(world, c.side1.body), youngsOf(world, c.side2.body),
                                            s.neighbourhood);
    SoftNeighbourhoodPair pair;
    pair.side1 = gatherSide(world, state, c.side1, r, s.neighbourhood);
    pair.side2 = gatherSide(world, state, c.side2, r, s.neighbourhood);
    pair.sourceContacts = {static_cast<int>(i)};
    out.push_back(std::move(pair));
  }
  return out;
}

SoftContactResult analyzeSoftContact(const World& world, const WorldState& state, const Contact& c,
                                     SoftNeighbourhoodPair nb, const SoftContactSettings& s) {
  SoftContactResult r;
  const auto e1 = youngsOf(world, c.side1.body), e2 = youngsOf(world, c.side2.body);
  r.neighbourhoodRadius_mm = neighbourhoodRadius_mm(e1, e2, s.neighbourhood);
  // Frames rebuilt from position and normal (the record's convention), so hand-made contacts work too.
  r.fit1 = fitSide(world, state, c.side1, nb.side1, r.neighbourhoodRadius_mm, s);
  r.fit2 = fitSide(world, state, c.side2, nb.side2, r.neighbourhoodRadius_mm, s);
  r.relative = relativeCurvature(r.fit1.curvatures, r.fit2.curvatures, c.side1.n_W.normalized(),
                                 s.patch.concaveRule);
  r.patch = computeSoftPatch(r.relative, e1, e2, s.patch);
  noteFitFallback(r.patch, r.fit1, r.fit2);
  r.neighbourhoods = std::move(nb);
  return r;
}

}  // namespace sg
