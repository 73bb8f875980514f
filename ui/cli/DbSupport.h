#pragma once
// The grasp database for the commands (src/store/README.md): the --db option of plan, evaluate, batch and
// batch-merge, saving a grasp list as one run, and the command line a run records.
#include <string>
#include <vector>

#include "OptionParser.h"
#include "grasp/planner/GraspList.h"
#include "model/World.h"

namespace sg::cli {

// main() records the arguments; a run stores them as its command.
void setCommandLine(const std::vector<std::string>& args);
std::string commandLine();

namespace db_options {
OptionSpec db(const std::string& what);  // --db URL: `what` says what goes into the database
OptionSpec noContacts();                 // --db-no-contacts: the grasps without their contacts
}

// plan/evaluate --db URL: `list` (planned or re-measured in `world`) as a new run of `kind` with one row (row 0),
// its grasps in the object's frame with the files' hashes (their contacts only when `withContacts`); one
// transaction. Returns the run's key. sg::Error naming the database or the file on failure.
std::string saveGraspListToDb(const std::string& url, const std::string& kind, const World& world,
                              const planner::GraspList& list, const std::string& contactModel, bool withContacts);

}  // namespace sg::cli
