#pragma once
// The soft-finger model for one contact, end to end (README.md §Soft finger): both bodies' neighbourhoods,
// their paraboloid fits, the relative curvature, the patch and the torsional friction limit.
#include <vector>

#include "contact/Contact.h"
#include "contact/QuadricFit.h"
#include "contact/QuadricRelativeCurvature.h"
#include "contact/SoftNeighbourhood.h"
#include "contact/SoftPatch.h"
#include "contact/TouchingPoint.h"
#include "model/World.h"

namespace sg {

struct SoftContactSettings {
  TouchingPointSettings touching;  // where a soft contact sits: the locally closest point of its region (default)
  SoftNeighbourhoodSettings neighbourhood;
  QuadricFitSettings fit;       // fit.estimator chooses GraspIt!'s paraboloid or the osculating jet
  SoftPatchSettings patch;
};

struct SoftContactResult {
  double neighbourhoodRadius_mm = 0;
  SoftNeighbourhoodPair neighbourhoods;
  QuadricFit fit1, fit2;        // side 1 and side 2, each in its own contact frame (fit.estimator: which estimator)
  RelativeCurvature relative;   // about side 1's inward normal
  SoftPatch patch;
};

// The neighbourhoods of every contact (one pair per contact, sourceContacts = {its index}), meshes placed as in
// `state`. Contacts whose bodies are not in the world get empty neighbourhoods (just the contact points).
std::vector<SoftNeighbourhoodPair> gatherSoftNeighbourhoods(const World& world, const WorldState& state,
                                                            const std::vector<Contact>& contacts,
                                                            const SoftContactSettings& settings);
// The same on the world's current state.
inline std::vector<SoftNeighbourhoodPair> gatherSoftNeighbourhoods(const World& world,
                                                                   const std::vector<Contact>& contacts,
                                                                   const SoftContactSettings& settings) {
  return gatherSoftNeighbourhoods(world, world.state, contacts, settings);
}

// Fits, relative curvature and patch for one contact from its neighbourhoods. Throws sg::Error when neither
// body is elastic (use pointContactEdges then) or a setting is invalid. The osculating-jet estimator also uses
// the vertex normals of the neighbourhood vertices, from the body meshes placed as in `state` (the state the
// neighbourhoods were gathered in).
SoftContactResult analyzeSoftContact(const World& world, const WorldState& state, const Contact& contact,
                                     SoftNeighbourhoodPair neighbourhoods, const SoftContactSettings& settings);
// The same on the world's current state.
inline SoftContactResult analyzeSoftContact(const World& world, const Contact& contact,
                                            SoftNeighbourhoodPair neighbourhoods, const SoftContactSettings& settings) {
  return analyzeSoftContact(world, world.state, contact, std::move(neighbourhoods), settings);
}

// Either body of the contact has a Young's modulus.
bool hasElasticBody(const World& world, const Contact& contact);

}  // namespace sg
