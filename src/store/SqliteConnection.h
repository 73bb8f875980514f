#pragma once
// The SQLite backend (src/store/README.md §SQLite): one file, WAL journal (readers do not block the writer),
// foreign keys on, a busy timeout so several processes on one machine can write the same file (each write
// transaction starts with BEGIN IMMEDIATE and waits for the lock instead of failing half-way).
#include <memory>
#include <string>

#include "store/Connection.h"
#include "store/StoreUrl.h"

struct sqlite3;

namespace sg::store {

class SqliteConnection final : public Connection {
 public:
  // sg::Error naming the file: missing (ReadOnly), not a database, corrupt, cannot be created.
  SqliteConnection(const std::string& path, OpenMode mode);
  ~SqliteConnection() override;
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Backend backend() const override { return Backend::Sqlite; }
  const std::string& url() const override { return path_; }
  void execute(const std::string& sql) override;
  std::unique_ptr<Statement> prepare(const std::string& sql) override;
  void begin() override;
  void commit() override;
  void rollback() override;
  std::string autoIdColumn() const override { return "INTEGER PRIMARY KEY"; }
  bool tableExists(const std::string& table) override;
  std::int64_t sizeBytes() override;

  // How long a writer waits for another's lock before failing (milliseconds).
  static constexpr int kBusyTimeout_ms = 60000;

 private:
  void enableWal();

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace sg::store
