#include "contact/SoftContactModel.h"

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
  return gatherNeighbourhood(*body.mesh, X_WB(state, side.body), side.p_WC_mm, side.n_W, radius_mm, s);
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

SoftContactResult analyseSoftContact(const World& world, const Contact& c, SoftNeighbourhoodPair nb,
                                     const SoftContactSettings& s) {
  SoftContactResult r;
  const auto e1 = youngsOf(world, c.side1.body), e2 = youngsOf(world, c.side2.body);
  r.neighbourhoodRadius_mm = neighbourhoodRadius_mm(e1, e2, s.neighbourhood);
  // Frames rebuilt from position and normal (the record's convention), so hand-made contacts work too.
  r.fit1 = fitQuadric(nb.side1.allPoints_mm(), contactFrame(c.side1.p_WC_mm, c.side1.n_W), s.fit);
  r.fit2 = fitQuadric(nb.side2.allPoints_mm(), contactFrame(c.side2.p_WC_mm, c.side2.n_W), s.fit);
  r.relative = relativeCurvature(r.fit1.curvatures, r.fit2.curvatures, c.side1.n_W.normalized(),
                                 s.patch.concaveRule);
  r.patch = computeSoftPatch(r.relative, e1, e2, s.patch);
  r.neighbourhoods = std::move(nb);
  return r;
}

}  // namespace sg
