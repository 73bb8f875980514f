#pragma once
// Contact models behind one interface (src/contact/README.md §Contact models). Detection (ContactDetection.h)
// finds WHERE bodies touch; a contact model decides WHAT each contact can transmit: its friction edges
// (FrictionEdges.h: a linearised cone or soft-finger limit surface for a unit normal force), μ, the torsional
// limit, and its own intermediate data (neighbourhood points, fits, patches, ...).
//
// Adding a model = one implementation of ContactModel (its own settings declared by parameters(),
// ModelParameter.h) + its result type (derived from ContactModelResult, describing itself as data) + one line
// in BuiltinContactModels.cpp. Nothing else switches on the model: the grasp layer turns every model's
// ModelContact edges into wrenches, views render the result's description, and drawings of a model's own data
// register under its name (src/render/ModelOverlays.h).
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "contact/Contact.h"
#include "contact/FrictionEdges.h"
#include "contact/ModelParameter.h"
#include "contact/SoftContactModel.h"
#include "contact/patch/ContactPatch.h"
#include "contact/penalty/PenaltyLaw.h"
#include "core/Json.h"
#include "core/Progress.h"

namespace sg {

struct RawPairContacts;  // contact/ContactDetection.h

// "frictionless", "point-with-friction", "soft-finger".
const char* toString(ContactKind kind);  // "frictionless", "point-with-friction", "soft-finger"

// Settings every model may read; each model uses what applies to it. A model's own settings are declared by
// ContactModel::parameters(): the built-in ones map onto the typed structs below, a new model's live in
// modelValues (read through modelParameter(), ModelParameter.h).
struct ContactModelSettings {
  SoftContactSettings soft;    // neighbourhood, paraboloid fit, patch (normal force, layer thickness, ν)
  FrictionEdgeSettings edges;  // point-contact pyramid and soft-finger rings
  ContactPatchSettings patch;  // the "patch" model: support-plane tolerance, samples, vertex bound
  PenaltySettings penalty;     // the "penalty" model: spring-damper law, stick-slip, squeeze threshold
  ModelParameterValues modelValues;  // the generic store: model name → key → value (missing = default)
};

// One contact of a grasp as a model sees it (plain data, world frame, mm).
struct ModelContact {
  std::vector<int> sourceContacts;   // indices into the input contacts (several after a merge)
  Contact contact;                   // the (surviving) record
  bool objectIsSide1 = true;         // which side lies on the graspable
  ContactKind kind = ContactKind::PointWithFriction;
  double mu = 0;                     // 0 for a frictionless contact
  double torsion_mm = 0;             // e_n = τmax/(μN); 0 without torsional friction
  double maxTorsionalFriction_Nmm = 0;  // μ·N·e_n at the model's normal force (0 without torsion)
  std::vector<Vec6> frictionEdges;   // contact frame, unit normal force, μ not applied (FrictionEdges.h)
  std::string note;                  // e.g. why a soft contact fell back to a point contact

  // The patch as every model reports it, for the side-by-side comparison (0 / empty when the model has no
  // such notion, e.g. a point contact). Filled by each model from its own result.
  std::string patchShape;            // "ellipse", "circle", "polygon", "surface" (hydroelastic), or empty
  double patchArea_mm2 = 0;
  double normalForce_N = 0;          // the normal force the model assumes or computes at this contact
  double peakPressure_Pa = 0;
  std::vector<Vec3> patchOutline_W_mm;  // boundary polygon, counter-clockwise seen from outside the object

  const ContactSide& onObject() const { return objectIsSide1 ? contact.side1 : contact.side2; }
};

// A model's results: the generic per-contact records, in the order of the input contacts' first source.
// Models derive from it to keep their intermediate data (parallel to `contacts`).
//
// Every model also describes what it computed as data: a small tree (sg::Json objects, arrays, numbers,
// strings, booleans) whose keys carry their unit as a suffix ("peakPressure_Pa", "radius_mm"). The inspectors,
// the CLI's text and JSON and the legend render these trees without knowing the model's type, so a new model
// shows its data everywhere by overriding the two functions below.
struct ContactModelResult {
  virtual ~ContactModelResult() = default;
  std::vector<ModelContact> contacts;
  // The model's own data about contacts[i] beyond ModelContact's fields; an empty object when it has none.
  virtual Json describeContact(std::size_t i) const;
  // Model-wide data (e.g. contact surfaces, squeezes); an empty object when it has none.
  virtual Json describe() const;
};

// The contacts a model evaluates: all on one graspable body of `world` (side 1 or 2), bodies placed as in `state`.
struct ContactModelInput {
  const World& world;
  const WorldState& state;
  int graspable = 0;
  const std::vector<Contact>& contacts;  // the grasp's contacts
  const std::vector<int>& sourceIndices;  // each contact's index in the caller's list (ModelContact::sourceContacts)
  // The detection's raw points (findAllContacts), when the caller kept them: models that look for the
  // touching points (touchingRegions) read them instead of querying the pairs again. Null: they query.
  const std::vector<RawPairContacts>* rawContacts = nullptr;
};

class ContactModel {
 public:
  virtual ~ContactModel() = default;
  // Stable key used by the CLI (--contact-model), settings files and JSON: "soft-finger", "hertz", ...
  virtual std::string name() const = 0;
  // Shown in the application ("GraspIt! soft finger (elastic layer)").
  virtual std::string label() const = 0;
  // One or two sentences for --help and tooltips.
  virtual std::string description() const = 0;
  // The model's own settings (none by default): what the settings file's [name] group, the settings dialog's
  // page of the model and --model-param name.KEY=VALUE hold. Settings several models read (the normal force,
  // the friction edges, the curvature estimator) are the analysis' own, not declared here.
  virtual std::vector<ModelParameter> parameters() const { return {}; }
  // Throws sg::Error for invalid settings; a contact the model cannot treat falls back (with a note).
  virtual std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& input,
                                                       const ContactModelSettings& settings,
                                                       ProgressSink& progress) const = 0;
};

// The registry (filled once with the built-in models of BuiltinContactModels.cpp).
const std::vector<const ContactModel*>& contactModels();
// Adds a model after the built-in ones (a plug-in, or a test's model). Call it before any analysis runs: the
// registry is not locked against concurrent readers. Throws sg::Error for a null model or a name (or alias)
// already registered.
void registerContactModel(std::unique_ptr<ContactModel> model);
// nullptr for an unknown name; a few old names are accepted as aliases ("auto", "soft" → "soft-finger",
// "point-with-friction" → "point").
const ContactModel* findContactModel(std::string_view name);
// The model a settings-less caller gets: GraspIt!'s soft finger.
const ContactModel& defaultContactModel();
// "soft-finger, hertz, point, frictionless" (for messages).
std::string contactModelNames();

// Helpers shared by the implementations.
// `p` stored in a typed field of ContactModelSettings: `field` is a generic lambda returning the field by
// reference ([](auto& s) -> auto& { return s.patch.tolerance_mm; }); the default is the struct's own.
template <class Field>
ModelParameter boundParameter(ModelParameter p, Field field) {
  const ContactModelSettings defaults;
  p.defaultValue = static_cast<double>(field(defaults));
  p.get = [field](const ContactModelSettings& s) { return static_cast<double>(field(s)); };
  p.set = [field](ContactModelSettings& s, double v) {
    auto& f = field(s);
    f = static_cast<std::remove_reference_t<decltype(f)>>(v);
  };
  return p;
}

// A ModelContact for a contact treated as a point (μ > 0) or frictionless (μ = 0 or `frictionless`).
ModelContact pointModelContact(const Contact& contact, int graspable, int source, bool frictionless,
                               const FrictionEdgeSettings& edges);

}  // namespace sg
