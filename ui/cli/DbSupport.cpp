#include "DbSupport.h"

#include <unistd.h>

#include "batch/Provenance.h"
#include "core/Version.h"
#include "store/GraspStore.h"
#include "store/Import.h"

namespace sg::cli {
namespace {
std::vector<std::string>& arguments() {
  static std::vector<std::string> args;
  return args;
}
}  // namespace

void setCommandLine(const std::vector<std::string>& args) { arguments() = args; }

std::string commandLine() {
  std::string line = "softgrasp-cli";
  for (const std::string& a : arguments()) {
    const bool quote = a.empty() || a.find_first_of(" \t\"'\\$") != std::string::npos;
    line += quote ? " '" + a + "'" : " " + a;
  }
  return line;
}

namespace db_options {
OptionSpec db(const std::string& what) {
  return {"--db", "URL", what + " (a SQLite file, created if missing, sqlite:///path or postgresql://...; "
                                "src/store/README.md §URLs)"};
}
OptionSpec noContacts() {
  return {"--db-no-contacts", "", "with --db: store the grasps without their contacts (a smaller database; a run "
                                  "keeps the choice it was created with, src/store/README.md §Tables)"};
}
}  // namespace db_options

std::string saveGraspListToDb(const std::string& url, const std::string& kind, const World& world,
                              const planner::GraspList& list, const std::string& contactModel, bool withContacts) {
  batch::ProvenanceCache cache;
  const Json provenance = cache.provenance(world, list.robotIndex, list.graspableIndex);
  Json header = planner::graspListToJsonValue(list);
  header.set("grasps", Json::array());  // the spec is how it was planned; the grasps are rows
  header.set("contactModel", contactModel);
  const std::string spec = header.dumpLine();
  store::RunRecord run;
  run.startedAt = store::utcNow();
  run.host = store::hostName();
  run.key = kind + ":" + run.host + ":" + std::to_string(::getpid()) + ":" + run.startedAt;
  run.kind = kind;
  run.softgraspVersion = versionString();
  run.command = commandLine();
  run.settings = spec;
  run.seed = list.seed;
  run.endedAt = run.startedAt;
  run.stopReason = list.stopReason;
  run.rowsTotal = 1;
  run.withContacts = withContacts;
  const store::RowRecord row = store::rowFromGraspList(list, provenance, contactModel, 0, 0, spec);
  auto db = store::GraspStore::open(url, store::OpenMode::ReadWrite);
  const std::int64_t id = db->beginRun(run);
  db->insertRow(id, row);
  db->endRun(id, store::utcNow(), list.stopReason);
  return run.key;
}

}  // namespace sg::cli
