#include "DbSupport.h"

#include "store/GraspListRun.h"

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
  auto db = store::GraspStore::open(url, store::OpenMode::ReadWrite);
  return store::insertGraspListRun(*db, kind, world, list, contactModel, commandLine(), withContacts);
}

}  // namespace sg::cli
