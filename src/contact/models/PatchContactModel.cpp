// The contact-patch model (src/contact/README.md §Contact patches): one Coal-style patch polygon per touching
// region; the contact acts at the patch centroid, its torsional limit is that of uniform pressure over the
// polygon (e_n = mean distance from the centroid), at the nominal normal force of the soft settings.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "contact/TouchingPoint.h"
#include "contact/models/PatchContactModel.h"
#include "contact/models/ModelDescription.h"
#include "core/Error.h"

namespace sg {

namespace {

class PatchContactModel final : public ContactModel {
 public:
  std::string name() const override { return "patch"; }
  std::string label() const override { return "Contact patch polygon (Coal)"; }
  std::string description() const override {
    return "the planar polygon where both bodies' support sets overlap within the patch tolerance; uniform "
           "pressure over it gives the torsional limit.";
  }
  std::vector<ModelParameter> parameters() const override {
    using K = ParameterKind;
    return {
        boundParameter({"tolerance_mm", "Support-plane tolerance", "mm", K::Number, 0, 10, 0, {},
                        "thickness of the slab around the support plane (Coal's patch_tolerance)"},
                       [](auto& s) -> auto& { return s.patch.tolerance_mm; }),
        boundParameter({"curvedSamples", "Curved-shape samples", "", K::Integer, 3, 256, 0, {},
                        "directions sampling a curved support set (Coal's num_samples_curved_shapes)"},
                       [](auto& s) -> auto& { return s.patch.curvedSamples; }),
        boundParameter({"maxVertices", "Maximum patch vertices", "", K::Integer, 3, 256, 0, {},
                        "bound on the patch polygon's vertex count"},
                       [](auto& s) -> auto& { return s.patch.maxVertices; }),
        boundParameter({"regionLinkDistance_mm", "Region link distance", "mm", K::Number, 0.001, 100, 0, {},
                        "meshes: slab pieces closer than this form one region"},
                       [](auto& s) -> auto& { return s.patch.regionLinkDistance_mm; }),
    };
  }

  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink& progress) const override {
    checkContactPatchSettings(settings.patch);
    const double force_N = settings.soft.patch.normalForce_N;
    if (!(force_N > 0)) throw Error("contact patch: the nominal normal force must be > 0 N");
    auto out = std::make_unique<PatchContactResult>();
    const std::vector<TouchingRegion> regions = touchingRegions(in.world, in.state, in.contacts, settings.soft.touching, in.rawContacts);
    for (std::size_t r = 0; r < regions.size(); ++r) {
      progress.report(static_cast<double>(r) / static_cast<double>(regions.size()), "contact patches");
      const TouchingRegion& region = regions[r];
      ContactPatch patch = computeContactPatch(in.world, in.state, region.contact, settings.patch);
      if (ModelContact* same = samePatch(*out, region.contact, patch)) {  // e.g. ties on one flat face
        for (int k : region.sourceContacts) same->sourceContacts.push_back(in.sourceIndices[static_cast<std::size_t>(k)]);
        std::sort(same->sourceContacts.begin(), same->sourceContacts.end());
        continue;
      }
      ModelContact m = pointModelContact(region.contact, in.graspable, 0, false, settings.edges);
      m.sourceContacts.clear();
      for (int k : region.sourceContacts) m.sourceContacts.push_back(in.sourceIndices[static_cast<std::size_t>(k)]);
      std::sort(m.sourceContacts.begin(), m.sourceContacts.end());
      if (patch.size() >= 2) {  // the resultant of uniform pressure acts at the centroid
        const Vec3 c = patch.centroid_W_mm(), n = patch.n_W();
        Contact& k = m.contact;
        k.side1.p_WC_mm = c - 0.5 * patch.separation_mm * n;
        k.side2.p_WC_mm = c + 0.5 * patch.separation_mm * n;
        k.side1.X_WC = contactFrame(k.side1.p_WC_mm, k.side1.n_W);
        k.side2.X_WC = contactFrame(k.side2.p_WC_mm, k.side2.n_W);
        if (m.kind != ContactKind::Frictionless) {
          m.kind = ContactKind::SoftFinger;
          m.torsion_mm = patch.meanRadius_mm();
          m.maxTorsionalFriction_Nmm = m.mu * force_N * m.torsion_mm;
          m.frictionEdges = frictionEdgesFor(m.kind, m.torsion_mm, settings.edges);
        }
      }
      if (!patch.note.empty()) m.note = patch.note;
      m.patchShape = patch.shapeName();
      m.patchArea_mm2 = patch.area_mm2();
      m.normalForce_N = force_N;
      m.peakPressure_Pa = m.patchArea_mm2 > 0 ? force_N / (m.patchArea_mm2 * 1e-6) : 0.0;
      for (std::size_t i = 0; i < patch.size(); ++i) m.patchOutline_W_mm.push_back(patch.p_WV_mm(i));
      // Counter-clockwise about the patch normal = seen from outside side 1; reversed when side 2 is the object.
      if (!m.objectIsSide1) std::reverse(m.patchOutline_W_mm.begin(), m.patchOutline_W_mm.end());
      out->contacts.push_back(std::move(m));
      out->patches.push_back(std::move(patch));
    }
    return out;
  }

 private:
  // A contact already in `out` of the same body pair whose patch overlaps this one (same plane up to the
  // tolerance): the two regions are one patch.
  static ModelContact* samePatch(PatchContactResult& out, const Contact& c, const ContactPatch& patch) {
    for (std::size_t i = 0; i < out.contacts.size(); ++i) {
      const Contact& k = out.contacts[i].contact;
      const bool samePair = (k.side1.body == c.side1.body && k.side2.body == c.side2.body) ||
                            (k.side1.body == c.side2.body && k.side2.body == c.side1.body);
      const ContactPatch& other = out.patches[i];
      if (!samePair || std::abs(other.n_W().dot(patch.n_W())) < 1 - 1e-6) continue;
      std::vector<Vec2> mine;
      const Transform X_PW = other.X_WP.inverse();
      bool coplanar = true;
      for (std::size_t v = 0; v < patch.size(); ++v) {
        const Vec3 q = X_PW * patch.p_WV_mm(v);
        coplanar = coplanar && std::abs(q.z()) <= 1e-6 + std::abs(other.separation_mm) + std::abs(patch.separation_mm);
        mine.emplace_back(q.x(), q.y());
      }
      if (coplanar && !intersectConvex(other.polygon_P_mm, convexHullPolygon(mine), 1e-9).empty())
        return &out.contacts[i];
    }
    return nullptr;
  }
};

}  // namespace

std::unique_ptr<ContactModel> makePatchContactModel() { return std::make_unique<PatchContactModel>(); }

}  // namespace sg

namespace sg {

Json PatchContactResult::describeContact(std::size_t i) const {
  Json o = Json::object();
  if (i >= patches.size()) return o;
  const ContactPatch& p = patches[i];
  o.set("shape", p.shapeName());
  o.set("vertexCount", static_cast<int>(p.size()));
  o.set("separation_mm", p.separation_mm);
  o.set("supportSource1", toString(p.source1));
  o.set("supportSource2", toString(p.source2));
  o.set("normal", describeVec(p.n_W()));
  o.set("centroid_mm", describeVec(p.centroid_W_mm()));
  o.set("area_mm2", p.area_mm2());
  o.set("meanRadius_mm", p.meanRadius_mm());
  Json vertices = Json::array();
  for (std::size_t k = 0; k < p.size(); ++k) vertices.push(describeVec(p.p_WV_mm(k)));
  o.set("vertices_mm", std::move(vertices));
  if (!p.note.empty()) o.set("note", p.note);
  return o;
}

}  // namespace sg
