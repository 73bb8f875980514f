#pragma once
// Which database a `--db URL` names (src/store/README.md §URLs):
//   a file path, or sqlite:///absolute/path, sqlite://relative/path → SQLite (the file is created by db init
//     and by the commands that write, never by the ones that only read);
//   postgresql://… or postgres://… → PostgreSQL (libpq's URL; an empty host/database falls back to PGHOST,
//     PGDATABASE, … as libpq reads them).
// Anything else with a "scheme://" (mysql://, http://) is an error naming the URL.
#include <memory>
#include <string>

#include "store/Connection.h"

namespace sg::store {

struct StoreUrl {
  Backend backend = Backend::Sqlite;
  std::string target;   // SQLite: the file path; PostgreSQL: the URL as given (handed to libpq)
};

// sg::Error naming `url` for an empty URL or an unknown scheme.
StoreUrl parseStoreUrl(const std::string& url);

enum class OpenMode {
  ReadOnly,      // must exist (query, export, info)
  ReadWrite,     // created when missing (plan/evaluate/batch --db, db import, db init)
};

// Opens the connection of `url` (no schema check: GraspStore does that). sg::Error naming the URL or the file
// when it cannot be opened or is not a database of that kind.
std::unique_ptr<Connection> openConnection(const std::string& url, OpenMode mode);

}  // namespace sg::store
