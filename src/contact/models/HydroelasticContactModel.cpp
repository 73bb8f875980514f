// Drake's hydroelastic (pressure-field) contact as a contact model (src/geometry/hydro/README.md §The contact
// model): per touching body pair with a compliant body, the contact surface of the actual overlap when the
// bodies interpenetrate, else at the indentation where it carries the nominal normal force; its normal force
// and torsional limit make a soft-finger contact. Other contacts are point contacts.
#include "contact/models/HydroelasticContactModel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "contact/models/ModelDescription.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "geometry/BvhCache.h"

namespace sg {

const char* toString(SurfaceSource source) {
  return source == SurfaceSource::Overlap ? "from overlap" : "pressed to force";
}

std::shared_ptr<const CompliantGeometry> compliantGeometryOf(const Body& body) {
  if (!body.hydroelastic) return nullptr;
  if (body.hydroelastic->slabThickness_mm < 0)
    throw Error("compliant body " + body.name + ": slab thickness must be >= 0, found " +
                formatDouble(body.hydroelastic->slabThickness_mm));
  CompliantSpec spec;
  spec.field.modulus_Pa = body.hydroelasticModulus_Pa();
  spec.field.resolutionHint_mm = body.hydroelastic->resolutionHint_mm;
  spec.field.margin_mm = body.hydroelastic->margin_mm;
  spec.slabThickness_mm = body.hydroelastic->slabThickness_mm > 0 ? body.hydroelastic->slabThickness_mm : 10.0;
  try {
    return compliantGeometryFor(body.mesh, body.primitive, spec);
  } catch (const Error& e) {
    throw e.withContext("compliant body " + body.name);
  }
}

namespace {

bool isHalfSpace(const Body& b) { return b.primitive && std::holds_alternative<HalfSpace>(b.primitive->shape); }

// Rigid side N against compliant M.
ContactSurface rigidAgainst(const CompliantGeometry& M, const Transform& X_WM, const Body& N, const Transform& X_WN,
                            const SurfaceOptions& options) {
  if (isHalfSpace(N)) {
    if (!M.volume) throw Error("a rigid half-space against a compliant half-space has no contact surface");
    const Transform X_WS = X_WN * N.primitive->X_BS;
    return compliantRigidHalfSpaceSurface(*M.volume, X_WM, X_WS.translation(), X_WS.applyToVector(Vec3::UnitZ()), options);
  }
  if (!N.mesh || N.mesh->empty()) throw Error("rigid body " + N.name + " has no mesh");
  const std::shared_ptr<const Bvh> bvh = bvhFor(N.mesh);
  if (M.volume) return compliantRigidSurface(*M.volume, X_WM, *bvh, X_WN, options);
  return compliantHalfSpaceRigidSurface(*M.halfSpace, X_WM, *bvh, X_WN, options);
}

}  // namespace

std::optional<ContactSurface> hydroelasticContactSurface(const Body& a, const Transform& X_WA, int indexA,
                                                         const Body& b, const Transform& X_WB, int indexB,
                                                         const SurfaceOptions& options) {
  const auto ga = compliantGeometryOf(a), gb = compliantGeometryOf(b);
  if (!ga && !gb) return std::nullopt;
  ContactSurface s;
  if (ga && gb) {
    if (!ga->volume || !gb->volume)
      throw Error("a compliant half-space against another compliant body is not supported (as in Drake)");
    s = compliantCompliantSurface(*ga->volume, X_WA, *gb->volume, X_WB, options);
    s.bodyM = indexA;
    s.bodyN = indexB;
  } else if (ga) {
    s = rigidAgainst(*ga, X_WA, b, X_WB, options);
    s.bodyM = indexA;
    s.bodyN = indexB;
  } else {
    s = rigidAgainst(*gb, X_WB, a, X_WA, options);
    s.bodyM = indexB;
    s.bodyN = indexA;
  }
  return s;
}

namespace {

int handleIndex(const World& world, const BodyHandle& h) {
  const auto handles = world.bodyHandles();
  const auto it = std::find(handles.begin(), handles.end(), h);
  return it == handles.end() ? -1 : static_cast<int>(it - handles.begin());
}

}  // namespace

std::optional<ContactSurface> hydroelasticContactSurface(const World& world, const WorldState& state,
                                                         const BodyHandle& a, const BodyHandle& b,
                                                         const SurfaceOptions& options) {
  return hydroelasticContactSurface(world.body(a), X_WB(state, a), handleIndex(world, a), world.body(b),
                                    X_WB(state, b), handleIndex(world, b), options);
}

namespace {

// The outline of a surface: the convex hull of its vertices in its mean plane, counter-clockwise about `up`.
std::vector<Vec3> surfaceOutline(const ContactSurface& s, const Vec3& up) {
  const Vec3 u = (std::abs(up.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(up).normalized();
  const Vec3 w = up.cross(u);
  const Vec3& o = s.centreOfPressure_W_mm;
  std::vector<Vec2> pts;
  for (const ContactPolygon& p : s.polygons)
    for (const Vec3& v : p.p_WV_mm) pts.emplace_back((v - o).dot(u), (v - o).dot(w));
  std::sort(pts.begin(), pts.end(), [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return {};
  auto cross = [](const Vec2& c, const Vec2& a, const Vec2& b) {
    return (a.x() - c.x()) * (b.y() - c.y()) - (a.y() - c.y()) * (b.x() - c.x());
  };
  std::vector<Vec2> hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k - 1);
  std::vector<Vec3> out;
  for (const Vec2& q : hull) out.push_back(o + q.x() * u + q.y() * w);
  return out;
}

// The search for the nominal force stops at this indentation (src/geometry/hydro/README.md §The contact model).
constexpr double kMaxIndentation_mm = 10.0;

struct PairGroup {
  BodyHandle object, other;
  std::vector<std::size_t> members;  // indices into the input contacts
};

class HydroelasticContactModel final : public ContactModel {
 public:
  std::string name() const override { return "hydroelastic"; }
  std::string label() const override { return "Hydroelastic (pressure field)"; }
  std::string description() const override {
    return "Drake's pressure-field contact where a body is compliant (hydroelastic option): the contact surface at "
           "the nominal normal force gives the patch and the torsional limit; point contacts otherwise.";
  }

  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink& progress) const override {
    if (!(settings.soft.patch.normalForce_N > 0)) throw Error("hydroelastic model: the nominal normal force must be > 0");
    auto out = std::make_unique<HydroelasticModelResult>();
    std::vector<std::pair<int, ModelContact>> made;  // (first source, contact)
    std::vector<int> madeSurface;

    // Contacts on one body pair with a compliant body share one surface (one hydroelastic contact per pair).
    std::vector<PairGroup> groups;
    for (std::size_t i = 0; i < in.contacts.size(); ++i) {
      const Contact& c = in.contacts[i];
      const bool objectIs1 = c.side1.body.kind == BodyHandle::Kind::Graspable && c.side1.body.index == in.graspable;
      const BodyHandle object = objectIs1 ? c.side1.body : c.side2.body;
      const BodyHandle other = objectIs1 ? c.side2.body : c.side1.body;
      if (!in.world.body(object).isHydroelasticCompliant() && !in.world.body(other).isHydroelasticCompliant()) {
        ModelContact m = pointModelContact(c, in.graspable, in.sourceIndices[i], false, settings.edges);
        m.note = "no compliant body in the pair: point contact";
        made.emplace_back(in.sourceIndices[i], std::move(m));
        madeSurface.push_back(-1);
        continue;
      }
      auto g = std::find_if(groups.begin(), groups.end(), [&](const PairGroup& p) { return p.object == object && p.other == other; });
      if (g == groups.end()) {
        groups.push_back({object, other, {}});
        g = groups.end() - 1;
      }
      g->members.push_back(i);
    }

    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      progress.report(static_cast<double>(gi) / static_cast<double>(groups.size()), "hydroelastic surfaces");
      const PairGroup& g = groups[gi];
      // The record of the pair: its closest contact; every member is a source.
      const std::size_t best = *std::min_element(g.members.begin(), g.members.end(), [&](std::size_t a, std::size_t b) {
        return in.contacts[a].separation_mm < in.contacts[b].separation_mm;
      });
      const Contact& c = in.contacts[best];
      ModelContact m = pointModelContact(c, in.graspable, in.sourceIndices[best], false, settings.edges);
      m.sourceContacts.clear();
      for (std::size_t k : g.members) m.sourceContacts.push_back(in.sourceIndices[k]);
      std::sort(m.sourceContacts.begin(), m.sourceContacts.end());
      int surfaceIndex = -1;
      try {
        // Interpenetrating bodies: the surface of their actual overlap and its force (Drake). Apart or only
        // touching (no overlap volume): pressed together to the nominal force.
        const SurfaceSource source = c.penetrating && c.separation_mm < 0 ? SurfaceSource::Overlap
                                                                           : SurfaceSource::PressedToForce;
        auto [surface, depth, note] = source == SurfaceSource::Overlap ? surfaceAsPlaced(in, g, m)
                                                                       : surfaceAtNominalForce(in, g, c, m, settings);
        if (surface.empty())
          throw Error(source == SurfaceSource::Overlap
                          ? "the overlap of " + formatDouble(c.depth_mm()) + " mm gives no contact surface"
                          : "the bodies do not overlap within " + formatDouble(kMaxIndentation_mm) + " mm of indentation");
        applySurface(in, surface, m, settings);
        if (!note.empty()) m.note = note;
        surfaceIndex = static_cast<int>(out->surfaces.size());
        out->surfaces.push_back(std::move(surface));
        out->indentation_mm.push_back(depth);
        out->source.push_back(source);
      } catch (const Error& err) {
        m.note = "hydroelastic contact fell back to a point contact: " + err.message();
      }
      made.emplace_back(m.sourceContacts.front(), std::move(m));
      madeSurface.push_back(surfaceIndex);
    }

    // In the order of the input contacts' first sources.
    std::vector<std::size_t> order(made.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return made[a].first < made[b].first; });
    for (std::size_t k : order) {
      out->contacts.push_back(std::move(made[k].second));
      out->surfaceOfContact.push_back(madeSurface[k]);
    }
    return out;
  }

 private:
  struct Evaluated {
    ContactSurface surface;
    double depth_mm = 0;
    std::string note;
  };

  // The surface of the pair as placed (its actual overlap).
  Evaluated surfaceAsPlaced(const ContactModelInput& in, const PairGroup& g, const ModelContact& m) const {
    SurfaceOptions options;
    options.mu = m.mu;
    auto s = hydroelasticContactSurface(in.world, in.state, g.object, g.other, options);
    return Evaluated{s ? std::move(*s) : ContactSurface{}, 0.0, {}};
  }

  // Grasp contacts sit at a small separation, not in penetration: the body that is not the graspable is moved
  // along the contact normal into the graspable until the surface carries the nominal normal force
  // (src/geometry/hydro/README.md §The contact model), found by bracketing and the Illinois variant of regula falsi.
  Evaluated surfaceAtNominalForce(const ContactModelInput& in, const PairGroup& g, const Contact& c, const ModelContact& m,
                                  const ContactModelSettings& settings) const {
    const ContactSide& otherSide = m.objectIsSide1 ? c.side2 : c.side1;
    const Vec3 push = -otherSide.n_W;  // into the object
    const double target = settings.soft.patch.normalForce_N;
    const double maxDepth = kMaxIndentation_mm;
    SurfaceOptions options;  // polygons: the model's totals; callers may triangulate (triangulateContactSurface)
    options.mu = m.mu;
    const Body& object = in.world.body(g.object);
    const Body& other = in.world.body(g.other);
    const int objectIndex = handleIndex(in.world, g.object), otherIndex = handleIndex(in.world, g.other);
    const Transform X_WO = X_WB(in.state, g.object);
    const Transform X_WT0 = X_WB(in.state, g.other);
    auto surfaceAt = [&](double depth) {
      Transform X_WT = X_WT0;
      X_WT.setTranslation(X_WT0.translation() + (c.separation_mm + depth) * push);
      auto s = hydroelasticContactSurface(object, X_WO, objectIndex, other, X_WT, otherIndex, options);
      return s ? std::move(*s) : ContactSurface{};
    };
    Evaluated lo{ContactSurface{}, 0.0, {}};
    Evaluated hi{surfaceAt(std::min(0.1, maxDepth)), std::min(0.1, maxDepth), {}};
    while (hi.surface.normalForce_N < target && hi.depth_mm < maxDepth) {
      lo = std::move(hi);
      const double d = std::min(2 * lo.depth_mm, maxDepth);
      hi = Evaluated{surfaceAt(d), d, {}};
    }
    if (hi.surface.normalForce_N < target) {
      hi.note = "hydroelastic surface carries " + formatGeneral(hi.surface.normalForce_N, 4) + " N < nominal " +
                formatGeneral(target, 4) + " N at the maximum indentation " + formatGeneral(maxDepth, 4) + " mm";
      return hi;
    }
    double fLo = lo.surface.normalForce_N - target, fHi = hi.surface.normalForce_N - target;
    int side = 0;
    for (int it = 0; it < 60; ++it) {
      if (std::abs(fHi) <= 1e-4 * target) return hi;
      if (std::abs(fLo) <= 1e-4 * target) return lo;
      if (hi.depth_mm - lo.depth_mm < 1e-9) break;
      double d = (lo.depth_mm * fHi - hi.depth_mm * fLo) / (fHi - fLo);
      if (!(d > lo.depth_mm && d < hi.depth_mm)) d = 0.5 * (lo.depth_mm + hi.depth_mm);
      Evaluated mid{surfaceAt(d), d, {}};
      const double fMid = mid.surface.normalForce_N - target;
      if (fMid < 0) {
        lo = std::move(mid);
        fLo = fMid;
        if (side == -1) fHi *= 0.5;
        side = -1;
      } else {
        hi = std::move(mid);
        fHi = fMid;
        if (side == 1) fLo *= 0.5;
        side = 1;
      }
    }
    return std::abs(fHi) <= std::abs(fLo) || lo.surface.empty() ? hi : lo;
  }

  void applySurface(const ContactModelInput& in, const ContactSurface& s, ModelContact& m,
                    const ContactModelSettings& settings) const {
    const double N = s.normalForce_N;
    if (!(N > 0)) throw Error("the contact surface carries no compressive force");
    // e_n = τmax/(μN) = ∫p|r|dA / ∫p dA, independent of μ.
    const double en = m.mu > 0 ? s.torsionalLimit_Nmm / (m.mu * N) : 0.0;
    if (m.mu > 0) {
      m.kind = ContactKind::SoftFinger;
      m.torsion_mm = en;
      m.maxTorsionalFriction_Nmm = s.torsionalLimit_Nmm;
      m.frictionEdges = frictionEdgesFor(m.kind, en, settings.edges);
    }
    m.patchShape = "surface";
    m.patchArea_mm2 = s.area_mm2;
    m.normalForce_N = N;
    m.peakPressure_Pa = s.peakPressure_Pa;
    // Normals point out of N into M: outward of the object when the object is N.
    const int objectIndex = handleIndex(in.world, m.onObject().body);
    Vec3 meanNormal = Vec3::Zero();
    for (const ContactPolygon& p : s.polygons) meanNormal += p.area_mm2 * p.n_W;
    if (meanNormal.norm() > 0) meanNormal.normalize();
    const Vec3 outOfObject = s.bodyN == objectIndex ? meanNormal : Vec3(-meanNormal);
    m.patchOutline_W_mm = surfaceOutline(s, outOfObject);
  }
};

}  // namespace

std::unique_ptr<ContactModel> makeHydroelasticContactModel() { return std::make_unique<HydroelasticContactModel>(); }

}  // namespace sg

namespace sg {

Json HydroelasticModelResult::describeContact(std::size_t i) const {
  Json o = Json::object();
  if (i >= surfaceOfContact.size()) return o;
  const int k = surfaceOfContact[i];
  o.set("surface", k);  // -1: no surface (a point contact, ModelContact::note says why)
  if (k >= 0 && static_cast<std::size_t>(k) < source.size())
    o.set("surfaceSource", toString(source[static_cast<std::size_t>(k)]));
  return o;
}

Json HydroelasticModelResult::describe() const {
  // Keys as the CLI's contact --json "surfaces" (ui/cli/CommandContact.cpp), bodies as World::bodyHandles()
  // indices (a view turns them into labels).
  Json list = Json::array();
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const ContactSurface& s = surfaces[k];
    Json o = Json::object();
    if (k < source.size()) o.set("source", toString(source[k]));
    o.set("bodyM", s.bodyM);
    o.set("bodyN", s.bodyN);
    o.set("nCompliant", s.nCompliant);
    o.set("triangulated", s.triangulated);
    o.set("indentation_mm", k < indentation_mm.size() ? indentation_mm[k] : 0.0);
    o.set("polygonCount", static_cast<int>(s.polygons.size()));
    o.set("area_mm2", s.area_mm2);
    o.set("normalForce_N", s.normalForce_N);
    o.set("peakPressure_Pa", s.peakPressure_Pa);
    o.set("force_N", describeVec(s.force_W_N));
    o.set("centreOfPressure_mm", describeVec(s.centreOfPressure_W_mm));
    o.set("moment_Nmm", describeVec(s.moment_W_Nmm));
    o.set("torsionalLimit_Nmm", s.torsionalLimit_Nmm);
    Json polygons = Json::array();
    for (const ContactPolygon& p : s.polygons) {
      Json q = Json::object();
      Json vertices = Json::array(), pressures = Json::array();
      for (const Vec3& v : p.p_WV_mm) vertices.push(describeVec(v));
      for (double v : p.pressure_Pa) pressures.push(v);
      q.set("vertices_mm", std::move(vertices));
      q.set("pressures_Pa", std::move(pressures));
      q.set("normal", describeVec(p.n_W));
      q.set("pressureGradient_Pa_per_mm", describeVec(p.gradP_W_Pa_per_mm));
      q.set("area_mm2", p.area_mm2);
      q.set("centroid_mm", describeVec(p.centroid_W_mm));
      polygons.push(std::move(q));
    }
    o.set("polygons", std::move(polygons));
    list.push(std::move(o));
  }
  Json out = Json::object();
  out.set("surfaces", std::move(list));
  return out;
}

}  // namespace sg
