#pragma once
// The touching point of each connected contact region (src/contact/README.md §Touching points).
//
// Detection reports what GraspIt! reports (src/geometry/README.md §Contact points): duplicates within 3 mm are
// removed and each normal group is reduced to the vertices of its 2-D convex hull. Good for point contacts
// (the hull spans the support polygon), but it throws away the point nearest the touch as soon as the
// in-threshold region is wider than the duplicate radius (a relative radius above ~45 mm at a 0.1 mm gap,
// ~22 mm when touching): the soft model then fitted the surface a few millimetres off the touch.
// Here the soft model works at the LOCALLY CLOSEST point of each connected region instead: the pair's raw
// contact points (neither duplicate removal nor compaction) are grouped into regions, every detected contact
// is assigned to the region of its nearest raw point, and each region is represented by its closest raw
// point pair. Point contacts keep GraspIt!'s compaction.
#include <vector>

#include "contact/Contact.h"
#include "contact/ContactDetection.h"

namespace sg {

enum class TouchingPointRule {
  GraspItSurvivor,  // the detected contacts as they are (GraspIt!: a survivor of duplicate removal and the hull)
  LocallyClosest    // one contact per connected region at its closest raw point pair (default)
};

struct TouchingPointSettings {
  TouchingPointRule rule = TouchingPointRule::LocallyClosest;
  // Raw points whose side-1 points are closer than this (mm) belong to one region (single linkage). GraspIt!'s
  // duplicate radius: what it calls one contact.
  double regionLinkDistance_mm = 3.0;
  // Raw points within this (mm) of a region's smallest distance tie (a flat face on a flat face); the tied
  // point nearest the centroid of the tied points represents the region.
  double tieTolerance_mm = 1e-6;
};

struct TouchingRegion {
  Contact contact;                   // at the region's locally closest point (side 1 = the input's side 1)
  std::vector<int> sourceContacts;   // indices into the input contacts assigned to this region, ascending
  int rawPointCount = 0;             // raw contact points in the region (0: the input contact was kept as is)
};

// Regions of `contacts` (bodies placed as in `state`), in the order of their first source contact. The raw
// points of a body pair are those closer than the largest separation among its contacts (every region's
// minimum is at most the separation of any contact in it, so nothing nearer the touch is missed). A contact
// whose pair has no mesh, or no raw point (a hand-made record), or that collides, is kept as its own region.
// Throws sg::Error for a non-positive link distance or a negative tie tolerance.
// `raw`: the raw points the detection kept (findAllContacts); a pair found there with a threshold at least
// the one needed takes its points from it (those closer than that threshold: the same points, in the same
// order, as the query) instead of querying the pair again.
std::vector<TouchingRegion> touchingRegions(const World& world, const WorldState& state,
                                            const std::vector<Contact>& contacts,
                                            const TouchingPointSettings& settings = {},
                                            const std::vector<RawPairContacts>* raw = nullptr);

}  // namespace sg
