#include "contact/SoftContactModel.h"

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

// Outward world normals parallel to nb.allPoints_mm(): none (zero) at the contact points, the mesh's vertex
// normals at the vertices. Only the osculating jet needs them.
std::vector<Vec3> neighbourhoodNormals(const World& world, const WorldState& state, const ContactSide& side,
                                       const SoftNeighbourhood& nb, const QuadricFitSettings& fit) {
  std::vector<Vec3> normals(nb.contactPoints_mm.size(), Vec3::Zero());
  if (fit.estimator == CurvatureEstimator::GraspItParaboloid || !world.isValid(side.body) ||
      !world.body(side.body).mesh)
    return normals;
  const TriangleMesh& mesh = *world.body(side.body).mesh;
  const Transform pose = X_WB(state, side.body);
  // The contact's outward normal in the mesh frame selects the faces each vertex normal averages.
  const Vec3 outward_B = pose.inverse().applyToVector(-side.n_W);
  const std::shared_ptr<const Bvh> bvh = bvhFor(world.body(side.body).mesh);
  for (const Vec3& n : vertexNormals(mesh, bvh.get(), nb.vertexIndices, outward_B, fit.jetFaceNormalMinCosine))
    normals.push_back(pose.applyToVector(n));
  return normals;
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

SoftContactResult analyseSoftContact(const World& world, const WorldState& state, const Contact& c,
                                     SoftNeighbourhoodPair nb, const SoftContactSettings& s) {
  SoftContactResult r;
  const auto e1 = youngsOf(world, c.side1.body), e2 = youngsOf(world, c.side2.body);
  r.neighbourhoodRadius_mm = neighbourhoodRadius_mm(e1, e2, s.neighbourhood);
  // Frames rebuilt from position and normal (the record's convention), so hand-made contacts work too.
  // A primitive body's exact curvature (PrimitiveCurvature.h), else the estimator's fit of the neighbourhood.
  if (auto exact = exactPrimitiveFit(world, state, c.side1, s.fit)) r.fit1 = *exact;
  else r.fit1 = fitCurvature(nb.side1.allPoints_mm(), neighbourhoodNormals(world, state, c.side1, nb.side1, s.fit),
                             contactFrame(c.side1.p_WC_mm, c.side1.n_W), s.fit);
  if (auto exact = exactPrimitiveFit(world, state, c.side2, s.fit)) r.fit2 = *exact;
  else r.fit2 = fitCurvature(nb.side2.allPoints_mm(), neighbourhoodNormals(world, state, c.side2, nb.side2, s.fit),
                             contactFrame(c.side2.p_WC_mm, c.side2.n_W), s.fit);
  r.relative = relativeCurvature(r.fit1.curvatures, r.fit2.curvatures, c.side1.n_W.normalized(),
                                 s.patch.concaveRule);
  r.patch = computeSoftPatch(r.relative, e1, e2, s.patch);
  r.neighbourhoods = std::move(nb);
  return r;
}

}  // namespace sg
