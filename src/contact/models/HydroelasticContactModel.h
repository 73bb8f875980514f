#pragma once
// The hydroelastic model's results (src/geometry/hydro/README.md; the model is registered in
// BuiltinContactModels.cpp under "hydroelastic"). Views read describe() (the surfaces as data); the surface
// drawing is registered under the model's name (src/render/ModelOverlays.h).
#include <optional>
#include <vector>

#include "contact/ContactModel.h"
#include "geometry/hydro/ContactSurfaces.h"

namespace sg {

// Where a surface's force comes from (src/geometry/hydro/README.md §The contact model): the bodies' actual overlap (Drake's
// semantics, when the pair interpenetrates), or the pair pressed together until the surface carries the
// nominal normal force (when the bodies are apart or only touch).
enum class SurfaceSource { Overlap, PressedToForce };
const char* toString(SurfaceSource source);  // "from overlap", "pressed to force"

struct HydroelasticModelResult : ContactModelResult {
  // Every contact surface between a compliant body and another body touching the graspable, world frame.
  std::vector<ContactSurface> surfaces;
  // Parallel to `contacts`: the index into `surfaces` the contact's normal force and torsional limit come
  // from, or -1 (no compliant body in the pair, or no overlap: the contact falls back with a note).
  std::vector<int> surfaceOfContact;
  // Parallel to `surfaces`: the nominal indentation (mm) at which a pressed surface was evaluated — the body
  // that is not the graspable was moved by it along the contact normal into the other (src/geometry/hydro/README.md §The contact
  // model), so the surface lies up to this far from the bodies' actual surfaces.
  // 0 for a surface from the overlap (the bodies as placed).
  std::vector<double> indentation_mm;
  // Parallel to `surfaces`: whether the surface is the actual overlap's or pressed to the nominal force.
  std::vector<SurfaceSource> source;

  // The contact's surface index and that surface's source ("surface", "surfaceSource").
  Json describeContact(std::size_t i) const override;
  // "surfaces": per surface its source, bodies (World::bodyHandles() indices), indentation, totals (area,
  // normal force, peak pressure, net force, centre of pressure, moment, torsional limit) and polygons.
  Json describe() const override;
};

// The hydroelastic contact surface of bodies a and b placed at X_WA, X_WB, when at least one of them is
// compliant (Body::hydroelastic); nullopt when neither is. M is the compliant one (a when both are). bodyM
// and bodyN are set to indexA / indexB accordingly. Throws sg::Error for an unsupported pair (two compliant
// half-spaces, a compliant half-space against a compliant volume, a rigid half-space against a compliant
// half-space) or a body that cannot be made compliant.
std::optional<ContactSurface> hydroelasticContactSurface(const Body& a, const Transform& X_WA, int indexA,
                                                         const Body& b, const Transform& X_WB, int indexB,
                                                         const SurfaceOptions& options);
// The same for two bodies of a world placed as in `state`; bodyM/bodyN index world.bodyHandles().
std::optional<ContactSurface> hydroelasticContactSurface(const World& world, const WorldState& state,
                                                         const BodyHandle& a, const BodyHandle& b,
                                                         const SurfaceOptions& options);
// The body's compliant representation (cached), or null for a rigid body.
std::shared_ptr<const CompliantGeometry> compliantGeometryOf(const Body& body);

}  // namespace sg
