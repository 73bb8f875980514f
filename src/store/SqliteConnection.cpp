#include "store/SqliteConnection.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <thread>

#include "core/Error.h"

namespace sg::store {
namespace {

// "FILE: is not a SQLite database" and friends: what the result code means for the user, then SQLite's text.
[[noreturn]] void fail(sqlite3* db, int rc, const std::string& path, const std::string& doing) {
  std::string what;
  switch (rc & 0xff) {
    case SQLITE_NOTADB: what = "is not a SQLite database"; break;
    case SQLITE_CORRUPT: what = "is a corrupt SQLite database"; break;
    case SQLITE_BUSY: what = "is locked by another process (waited " +
                             std::to_string(SqliteConnection::kBusyTimeout_ms / 1000) + " s)"; break;
    case SQLITE_READONLY: what = "is read-only"; break;
    case SQLITE_CANTOPEN: what = "cannot be opened"; break;
    case SQLITE_FULL: what = "cannot grow: the disk is full"; break;
    default: what = "SQLite error"; break;
  }
  const char* detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw Error(what + " (" + doing + ": " + (detail ? detail : "") + ")", path);
}

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, const std::string& path, const std::string& sql) : db_(db), path_(path) {
    const int rc = sqlite3_prepare_v3(db, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                      &stmt_, nullptr);
    if (rc != SQLITE_OK) fail(db_, rc, path_, "preparing " + sql.substr(0, 60));
  }
  ~SqliteStatement() override { sqlite3_finalize(stmt_); }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  void bindNull(int index) override { check(sqlite3_bind_null(stmt_, index)); }
  void bindInt(int index, std::int64_t value) override {
    check(sqlite3_bind_int64(stmt_, index, static_cast<sqlite3_int64>(value)));
  }
  void bindDouble(int index, double value) override {
    check(std::isfinite(value) ? sqlite3_bind_double(stmt_, index, value) : sqlite3_bind_null(stmt_, index));
  }
  void bindText(int index, std::string_view value) override {
    check(sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  bool step() override {
    if (done_) return false;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    done_ = true;
    if (rc == SQLITE_DONE) return false;
    const int code = rc;
    sqlite3_reset(stmt_);
    fail(db_, code, path_, "running " + std::string(sqlite3_sql(stmt_)).substr(0, 60));
  }
  bool isNull(int column) const override { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  std::int64_t columnInt(int column) const override { return sqlite3_column_int64(stmt_, column); }
  double columnDouble(int column) const override {
    return isNull(column) ? std::numeric_limits<double>::quiet_NaN() : sqlite3_column_double(stmt_, column);
  }
  std::string columnText(int column) const override {
    const unsigned char* text = sqlite3_column_text(stmt_, column);
    if (!text) return {};
    return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  void reset() override {
    sqlite3_reset(stmt_);
    done_ = false;
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail(db_, rc, path_, "binding a parameter");
  }
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
  bool done_ = false;
};

}  // namespace

SqliteConnection::SqliteConnection(const std::string& path, OpenMode mode) : path_(path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (mode == OpenMode::ReadOnly && !fs::exists(path, ec)) throw Error("no such database file", path);
  if (fs::is_directory(path, ec)) throw Error("is a folder, not a database file", path);
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (mode == OpenMode::ReadWrite) flags |= SQLITE_OPEN_CREATE;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string detail = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error("cannot be opened as a SQLite database (" + detail + ")", path);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeout_ms);
  try {
    // The first read of the file: a non-database or a corrupt header fails here, with the file's name.
    execute("PRAGMA foreign_keys = ON");
    prepare("PRAGMA schema_version")->step();
    // WAL: one writer and any number of readers at once; synchronous NORMAL keeps every committed transaction
    // through a killed process (the WAL is in the OS's cache), which is what a resumed batch relies on.
    enableWal();
    execute("PRAGMA synchronous = NORMAL");
    // Checkpoints (the only fsyncs under WAL + NORMAL) every 40 MB of WAL rather than 4 MB, and a 64 MB page
    // cache for the indexes of a large database (bench_db: tests/bench/README.md).
    execute("PRAGMA wal_autocheckpoint = 10000");
    execute("PRAGMA cache_size = -65536");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

SqliteConnection::~SqliteConnection() { sqlite3_close_v2(db_); }

// A file still in rollback mode (a new database) switches to WAL under an exclusive lock. While another connection
// holds a write transaction on it (the other process of two that open one new database together, creating the
// tables), SQLite answers SQLITE_BUSY at once without calling the busy handler, which could deadlock there
// (src/store/README.md §SQLite). So the switch retries itself, for as long as the busy timeout allows.
void SqliteConnection::enableWal() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeout_ms);
  for (;;) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, "PRAGMA journal_mode = WAL", -1, &stmt, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) return;
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
      fail(db_, rc, path_, "running PRAGMA journal_mode = WAL");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void SqliteConnection::execute(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    sqlite3_free(message);
    fail(db_, rc, path_, "running " + sql.substr(0, 60));
  }
}

std::unique_ptr<Statement> SqliteConnection::prepare(const std::string& sql) {
  return std::make_unique<SqliteStatement>(db_, path_, sql);
}

void SqliteConnection::begin() { execute("BEGIN IMMEDIATE"); }
void SqliteConnection::commit() { execute("COMMIT"); }
void SqliteConnection::rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool SqliteConnection::tableExists(const std::string& table) {
  auto s = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  s->bindText(1, table);
  return s->step();
}

std::int64_t SqliteConnection::sizeBytes() {
  auto s = prepare("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  return s->step() ? s->columnInt(0) : 0;
}

}  // namespace sg::store
