#include "contact/models/SoftFingerContactModel.h"

#include "contact/models/ModelDescription.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/Error.h"

namespace sg {

namespace {

// The generic patch fields every model reports (ContactModel.h): the ellipse of semi-axes a, b in the contact
// plane at the object's contact point, its area πab, the model's normal force and peak pressure. A circle
// when both semi-axes agree (Hertz on a sphere); the outline runs counter-clockwise seen from outside the
// object, i.e. about the object's outward normal −n.
void fillPatchFields(ModelContact& m, const SoftPatch& patch) {
  constexpr int kOutlinePoints = 32;
  constexpr double kPi = 3.14159265358979323846;
  const double a = patch.semiAxisLong_mm, b = patch.semiAxisShort_mm;
  if (!(a > 0) || !(b > 0)) return;
  m.patchShape = std::abs(a - b) <= 1e-9 * a ? "circle" : "ellipse";
  m.patchArea_mm2 = kPi * a * b;
  m.normalForce_N = patch.normalForce_N;
  m.peakPressure_Pa = patch.maxPressure_Pa;
  const ContactSide& side = m.onObject();
  const Vec3 outward = -side.n_W;
  const Vec3 u = patch.axisLong;
  Vec3 v = patch.axisShort;
  if (u.cross(v).dot(outward) < 0) v = -v;
  m.patchOutline_W_mm.clear();
  for (int k = 0; k < kOutlinePoints; ++k) {
    const double t = 2 * kPi * k / kOutlinePoints;
    m.patchOutline_W_mm.push_back(side.p_WC_mm + a * std::cos(t) * u + b * std::sin(t) * v);
  }
}

}  // namespace

std::vector<ModelParameter> SoftFingerContactModel::parameters() const {
  return {boundParameter({"layerThickness_mm", "Elastic layer thickness", "mm", ParameterKind::Number, 0.01, 1000, 0,
                          {}, "thickness h of the fingertip's elastic layer in the patch formula (GraspIt!: 3 mm)"},
                         [](auto& s) -> auto& { return s.soft.patch.layerThickness_mm; })};
}

std::unique_ptr<ContactModelResult> SoftFingerContactModel::evaluate(const ContactModelInput& in,
                                                                     const ContactModelSettings& settings,
                                                                     ProgressSink& progress) const {
  SoftContactSettings soft = settings.soft;
  soft.patch.model = patchModel();
  auto out = std::make_unique<SoftFingerResult>();

  // Rigid pairs and μ = 0 are point or frictionless contacts; the others go through the soft pipeline.
  std::vector<Contact> softContacts;
  std::vector<int> softSources;
  for (std::size_t i = 0; i < in.contacts.size(); ++i) {
    const Contact& c = in.contacts[i];
    if (c.muStatic > 0 && hasElasticBody(in.world, c)) {
      softContacts.push_back(c);
      softSources.push_back(in.sourceIndices[i]);
    } else {
      out->contacts.push_back(pointModelContact(c, in.graspable, in.sourceIndices[i], false, settings.edges));
      out->soft.emplace_back();
    }
  }

  // One soft contact per connected region, at its locally closest point (README.md §Touching points); GraspIt!'s
  // survivors of the compaction stay as they are with TouchingPointRule::GraspItSurvivor.
  std::vector<std::vector<int>> sources;
  for (int id : softSources) sources.push_back({id});
  if (soft.touching.rule == TouchingPointRule::LocallyClosest) {
    std::vector<Contact> touching;
    std::vector<std::vector<int>> touchingSources;
    for (TouchingRegion& r : touchingRegions(in.world, in.state, softContacts, soft.touching, in.rawContacts)) {
      touching.push_back(std::move(r.contact));
      std::vector<int> ids;
      for (int k : r.sourceContacts) ids.push_back(softSources[static_cast<std::size_t>(k)]);
      std::sort(ids.begin(), ids.end());
      touchingSources.push_back(std::move(ids));
    }
    softContacts = std::move(touching);
    sources = std::move(touchingSources);
  }

  // Neighbourhoods, then GraspIt!'s merge of overlapping ones.
  auto pairs = gatherSoftNeighbourhoods(in.world, in.state, softContacts, soft);
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i].sourceContacts = sources[i];
  if (soft.neighbourhood.mergeOverlapping) mergeOverlappingContacts(softContacts, pairs);

  for (std::size_t i = 0; i < softContacts.size(); ++i) {
    progress.report(static_cast<double>(i) / static_cast<double>(softContacts.size()), "soft contacts");
    ModelContact m = pointModelContact(softContacts[i], in.graspable, 0, false, settings.edges);
    m.sourceContacts = pairs[i].sourceContacts;
    try {
      SoftContactResult r = analyzeSoftContact(in.world, in.state, softContacts[i], std::move(pairs[i]), soft);
      m.kind = ContactKind::SoftFinger;
      m.torsion_mm = r.patch.torsionPerFriction_mm;
      m.maxTorsionalFriction_Nmm = r.patch.maxTorsionalFriction_Nmm(m.mu);
      m.frictionEdges = frictionEdgesFor(m.kind, m.torsion_mm, settings.edges);
      fillPatchFields(m, r.patch);
      out->soft.emplace_back(std::move(r));
    } catch (const Error& err) {
      m.note = "soft contact fell back to a point contact: " + err.message();
      out->soft.emplace_back();
    }
    out->contacts.push_back(std::move(m));
  }

  // In the order of the input contacts (soft ones were treated after the others), results kept parallel.
  std::vector<std::size_t> order(out->contacts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out->contacts[a].sourceContacts.front() < out->contacts[b].sourceContacts.front();
  });
  SoftFingerResult sorted;
  for (std::size_t k : order) {
    sorted.contacts.push_back(std::move(out->contacts[k]));
    sorted.soft.push_back(std::move(out->soft[k]));
  }
  *out = std::move(sorted);
  return out;
}

std::unique_ptr<ContactModel> makeSoftFingerContactModel() { return std::make_unique<SoftFingerContactModel>(); }

}  // namespace sg

namespace sg {

const SoftContactResult* softContactResult(const ContactModelResult* result, std::size_t index) {
  const auto* soft = dynamic_cast<const SoftFingerResult*>(result);
  if (!soft || index >= soft->soft.size() || !soft->soft[index]) return nullptr;
  return &*soft->soft[index];
}

}  // namespace sg

namespace sg {

Json SoftFingerResult::describeContact(std::size_t i) const {
  Json o = Json::object();
  if (i >= soft.size() || !soft[i]) return o;
  const SoftContactResult& s = *soft[i];
  const SoftPatch& patch = s.patch;
  // Keys as the CLI's quality --json "soft" object (ui/cli/QualityReport.cpp).
  o.set("neighbourhoodRadius_mm", s.neighbourhoodRadius_mm);
  o.set("neighbourhood1", static_cast<int>(s.neighbourhoods.side1.size()));
  o.set("neighbourhood2", static_cast<int>(s.neighbourhoods.side2.size()));
  o.set("fit1", describeFit(s.fit1));
  o.set("fit2", describeFit(s.fit2));
  o.set("relativeKappaMax_per_mm", s.relative.kappaMax_per_mm);
  o.set("relativeKappaMin_per_mm", s.relative.kappaMin_per_mm);
  o.set("conforming", s.relative.conforming());
  o.set("relativeRadiusMin_mm", patch.relativeRadiusMin_mm);
  o.set("relativeRadiusMax_mm", patch.relativeRadiusMax_mm);
  o.set("flatReplaced", patch.flatReplaced);
  o.set("patch", patch.model == PatchModel::Hertz ? "hertz" : "elastic-layer");
  o.set("patchFallback", patchFallbackKey(patch.fallback));
  o.set("patchFallbackReason", patch.fallbackReason);
  o.set("semiAxisLong_mm", patch.semiAxisLong_mm);
  o.set("semiAxisShort_mm", patch.semiAxisShort_mm);
  o.set("axisLong", describeVec(patch.axisLong));
  o.set("axisShort", describeVec(patch.axisShort));
  o.set("penetration_mm", patch.penetration_mm);
  o.set("modulus_Pa", patch.modulus_Pa);
  o.set("normalForce_N", patch.normalForce_N);
  o.set("maxPressure_Pa", patch.maxPressure_Pa);
  o.set("torsionPerFriction_mm", patch.torsionPerFriction_mm);
  return o;
}

}  // namespace sg
