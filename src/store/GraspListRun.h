#pragma once
// A grasp list in and out of the grasp database (src/store/README.md §Grasp lists): a planner's list stored as a
// run of its own (what `plan --db` and the app's Planner dock write), and stored grasps turned back into a grasp
// list placed at an object pose (what the app's Grasp Library exports and applies).
#include <cstdint>
#include <string>
#include <vector>

#include "grasp/planner/GraspList.h"
#include "model/World.h"
#include "store/GraspStore.h"

namespace sg::store {

// `list` (planned or measured in `world`) as a new run of `kind` ("plan", "evaluate", ...) with one row (row 0):
// grasps in the object's frame, the files' hashes, measures under `contactModel`; one transaction. `command`
// is recorded as the run's command; without `withContacts` the run stores no contacts (README.md §Tables).
// Returns the run's key. sg::Error naming the database or a file.
std::string insertGraspListRun(GraspStore& store, const std::string& kind, const World& world,
                               const planner::GraspList& list, const std::string& contactModel,
                               const std::string& command, bool withContacts = true);

// Stored grasps as one grasp list of robot `robotIndex` and graspable `graspableIndex` whose object is at X_WO:
// palm poses (final and pre-grasp) and contacts moved from the object's frame into the world, measures of each
// row's primary contact model, in the order given (ranks are the list's order). The robot and object names
// are the first row's; sg::Error when the rows name more than one robot or object (a list has one of each).
planner::GraspList graspListFromRows(const std::vector<GraspRow>& rows, const Transform& X_WO, int robotIndex,
                                     int graspableIndex);

}  // namespace sg::store
