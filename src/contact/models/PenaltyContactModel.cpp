// The penalty contact model (src/contact/README.md §Penalty contact): one point contact per body pair with the
// normal force of a quasi-static torque squeeze (Squeeze.h) of the hand touching the object; μ = μs, the
// peak of the smooth stick-slip law. No patch, no torsional friction (a single penalty point has none).
#include <algorithm>
#include <map>

#include "contact/models/PenaltyContactModel.h"

#include "contact/models/ModelDescription.h"

namespace sg {

namespace {

bool sameBody(const BodyHandle& a, const BodyHandle& b) { return a == b; }

class PenaltyContactModel final : public ContactModel {
 public:
  std::string name() const override { return "penalty"; }
  std::string label() const override { return "Penalty contact (spring-damper, stick-slip)"; }
  std::string description() const override {
    return "one point per body pair; normal force = stiffness × penetration of a quasi-static torque squeeze "
           "of the hand (each DOF at its effort), smooth stick-slip friction with μ = μs at its peak.";
  }
  // The ranges are those checkPenaltySettings accepts, bounded above so a spin box can hold them.
  std::vector<ModelParameter> parameters() const override {
    using K = ParameterKind;
    return {
        boundParameter({"stiffness_N_per_mm", "Stiffness", "N/mm", K::Number, 1e-6, 1e9, 0, {},
                        "spring constant k of the penalty law"},
                       [](auto& s) -> auto& { return s.penalty.stiffness_N_per_mm; }),
        boundParameter({"damping_N_s_per_mm", "Damping", "N·s/mm", K::Number, 0, 1e9, 0, {},
                        "damping c of the penalty law"},
                       [](auto& s) -> auto& { return s.penalty.damping_N_s_per_mm; }),
        boundParameter({"transitionWidth_mm", "Transition width", "mm", K::Number, 0, 100, 0, {},
                        "penetration over which the force blends in smoothly (0: a step)"},
                       [](auto& s) -> auto& { return s.penalty.transitionWidth_mm; }),
        boundParameter({"criticalVelocity_mm_per_s", "Critical velocity", "mm/s", K::Number, 1e-6, 1e6, 0, {},
                        "slip speed at which stick-slip friction peaks at μs"},
                       [](auto& s) -> auto& { return s.penalty.criticalVelocity_mm_per_s; }),
        boundParameter({"clampNormalForce", "Clamp normal force at 0", "", K::Bool, 0, 1, 0, {},
                        "a contact never pulls (f_n = max(f_n, 0))"},
                       [](auto& s) -> auto& { return s.penalty.clampNormalForce; }),
        boundParameter({"contactThreshold_mm", "Squeeze contact threshold", "mm", K::Number, 0, 20, 0, {},
                        "pairs closer than this take part in the squeeze"},
                       [](auto& s) -> auto& { return s.penalty.contactThreshold_mm; }),
    };
  }

  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink& progress) const override {
    checkPenaltySettings(settings.penalty);
    auto out = std::make_unique<PenaltyContactResult>();
    // Squeeze every robot with a link in the contacts.
    std::vector<int> robots;
    for (const Contact& c : in.contacts)
      for (const ContactSide* s : {&c.side1, &c.side2})
        if (s->body.kind == BodyHandle::Kind::Robot &&
            std::find(robots.begin(), robots.end(), s->body.index) == robots.end())
          robots.push_back(s->body.index);
    SqueezeSettings squeeze;
    squeeze.penalty = settings.penalty;
    squeeze.penalty.contactThreshold_mm = std::max(squeeze.penalty.contactThreshold_mm, largestSeparation(in));
    for (std::size_t r = 0; r < robots.size(); ++r) {
      progress.report(static_cast<double>(r) / static_cast<double>(robots.size()), "penalty squeeze");
      WorldState copy = in.state;
      out->squeezes.push_back(squeezeHand(in.world, copy, robots[r], squeeze));
    }
    // One contact per body pair, in the order of its first input contact.
    for (std::size_t i = 0; i < in.contacts.size(); ++i) {
      const Contact& c = in.contacts[i];
      const int source = in.sourceIndices[i];
      auto same = [&](const ModelContact& m) {
        const Contact& k = m.contact;
        return (sameBody(k.side1.body, c.side1.body) && sameBody(k.side2.body, c.side2.body)) ||
               (sameBody(k.side1.body, c.side2.body) && sameBody(k.side2.body, c.side1.body));
      };
      auto found = std::find_if(out->contacts.begin(), out->contacts.end(), same);
      if (found != out->contacts.end()) {
        found->sourceContacts.push_back(source);
        continue;
      }
      const PenaltySensing* sensed = squeezedPair(*out, c);
      ModelContact m = pointModelContact(sensed ? sensed->contact : c, in.graspable, source, false, settings.edges);
      if (sensed) {
        m.normalForce_N = sensed->normalForce_N;
        if (sensed->normalForce_N <= 0) m.note = "no penetration at the squeeze's equilibrium";
        out->sensing.push_back(*sensed);
      } else {
        m.note = "no hand link in this pair: not squeezed, no force";
        out->sensing.push_back(penaltySensing(c, Vec3::Zero(), Vec3::Zero(), settings.penalty));
      }
      out->contacts.push_back(std::move(m));
    }
    return out;
  }

 private:
  static double largestSeparation(const ContactModelInput& in) {
    double s = 0;
    for (const Contact& c : in.contacts) s = std::max(s, c.separation_mm);
    return s;
  }
  static const PenaltySensing* squeezedPair(const PenaltyContactResult& r, const Contact& c) {
    for (const SqueezeResult& s : r.squeezes)
      for (const SqueezeContact& k : s.contacts) {
        const Contact& p = k.sensing.contact;
        if ((p.side1.body == c.side1.body && p.side2.body == c.side2.body) ||
            (p.side1.body == c.side2.body && p.side2.body == c.side1.body))
          return &k.sensing;
      }
    return nullptr;
  }
};

}  // namespace

std::unique_ptr<ContactModel> makePenaltyContactModel() { return std::make_unique<PenaltyContactModel>(); }

}  // namespace sg

namespace sg {

Json PenaltyContactResult::describeContact(std::size_t i) const {
  Json o = Json::object();
  if (i < sensing.size()) o.set("sensing", describeSensing(sensing[i]));
  return o;
}

Json PenaltyContactResult::describe() const {
  Json list = Json::array();
  for (const SqueezeResult& s : squeezes) {
    Json o = Json::object();
    o.set("converged", s.converged);
    o.set("iterations", s.iterations);
    // DOF values in each joint's unit (rad for revolute, mm for prismatic), efforts in N mm or N.
    o.set("dofBefore", describeNumbers(s.dofBefore));
    o.set("dofAfter", describeNumbers(s.dofAfter));
    o.set("effort", describeNumbers(s.effort));
    o.set("contactLoad", describeNumbers(s.contactLoad));
    o.set("contactCount", static_cast<int>(s.contacts.size()));
    Json notes = Json::array();
    for (const std::string& n : s.notes) notes.push(n);
    o.set("notes", std::move(notes));
    list.push(std::move(o));
  }
  Json out = Json::object();
  out.set("squeezes", std::move(list));
  return out;
}

}  // namespace sg
