#pragma once
// The database schema and its migrations (src/store/README.md §Schema and migrations). Version N of the
// schema is what migrations 1..N create; table schema_version has one row per migration applied. Opening
// for writing applies the missing migrations in one transaction; a database whose version is above
// kSchemaVersion (written by a newer SoftGrasp) is refused with a message naming it and both versions.
#include <string>
#include <vector>

#include "store/Connection.h"

namespace sg::store {

constexpr int kSchemaVersion = 4;

// The DDL statements of migration `version` (1..kSchemaVersion) for `connection`'s dialect.
std::vector<std::string> migrationStatements(int version, const Connection& connection);

// 0 for a database without a schema_version table (new, empty); sg::Error naming the database when it holds
// tables but no schema_version (not a SoftGrasp database).
int readSchemaVersion(Connection& connection);

// Brings the schema to `target` (default: kSchemaVersion), each migration in its own transaction under
// lockSchema(). sg::Error naming the database when its version is newer than kSchemaVersion.
void upgradeSchema(Connection& connection, int target = kSchemaVersion);

// For readers: sg::Error when the database has no schema (not initialised), an older one ("run `db init`
// to upgrade it") or a newer one.
void checkSchemaCurrent(Connection& connection);

}  // namespace sg::store
