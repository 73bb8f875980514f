#pragma once
// A small RAII wrapper of libpq (src/store/POSTGRES.md): one connection, results freed by their owner,
// text parameters, a lost connection retried with exponential back-off and then reported, and every logical write
// in one transaction (transaction()), so a reader never sees half of it. Engine code: no Qt.
#include <chrono>
#include <functional>
#include <optional>
#include <utility>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Error.h"

struct pg_conn;
struct pg_result;

namespace sg::store {

// How often and how patiently a connection is (re)opened. Delays double from firstDelay up to maxDelay.
struct PgRetryPolicy {
  int connectAttempts = 3;     // the first connection (a wrong URL should not keep the user waiting long)
  int reconnectAttempts = 8;   // after a connection was lost (a server restart takes seconds)
  std::chrono::milliseconds firstDelay{250};
  std::chrono::milliseconds maxDelay{4000};
};

// A policy written as "connect=3,reconnect=8,first_ms=250,max_ms=4000" (POSTGRES.md §Retry policy): any of the
// four keys, in any order; a key left out keeps `base`'s value. sg::Error naming `source` (e.g. the environment
// variable) for an unknown key, a value that is not a whole number, fewer than 1 attempt, a negative delay or
// max_ms below first_ms.
PgRetryPolicy parsePgRetryPolicy(std::string_view text, const std::string& source, PgRetryPolicy base = {});
// The defaults with the environment's SOFTGRASP_PG_RETRY applied over them (unset or empty: the defaults). Tests
// set it to fail fast; a user on a slow network may lengthen it. openConnection (StoreUrl.h) reads it.
PgRetryPolicy pgRetryPolicyFromEnvironment();

// A statement's text parameter; nullopt is SQL NULL. Numbers are written with core/NumberFormat.h.
using PgParam = std::optional<std::string>;

// Owns a PGresult.
class PgResult {
 public:
  PgResult() = default;
  explicit PgResult(pg_result* result) : r_(result) {}
  ~PgResult();
  PgResult(PgResult&& other) noexcept : r_(other.r_) { other.r_ = nullptr; }
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;

  int rows() const;
  int columns() const;
  bool isNull(int row, int column) const;
  std::string text(int row, int column) const;  // "" for NULL
  // The value parsed with core/Parse.h; throws sg::Error when it is NULL or not a number.
  double number(int row, int column) const;
  long long integer(int row, int column) const;
  int columnIndex(const char* name) const;  // -1 when absent
  long long affectedRows() const;           // INSERT/UPDATE/DELETE: rows touched (0 after ON CONFLICT DO NOTHING)

 private:
  pg_result* r_ = nullptr;
};

class PgClient {
 public:
  // `url`: postgresql://… or postgres://…, or libpq's "key=value" form; empty: libpq's environment alone (PGHOST,
  // PGPORT, PGDATABASE, PGUSER, PGPASSWORD, ~/.pgpass), as every libpq program reads it. Throws sg::Error naming the
  // URL (password removed) when it cannot be parsed, or when no connection opens within policy.connectAttempts.
  explicit PgClient(std::string url, PgRetryPolicy policy = {});
  ~PgClient();
  PgClient(PgClient&& other) noexcept;
  PgClient& operator=(PgClient&&) = delete;
  PgClient(const PgClient&) = delete;
  PgClient& operator=(const PgClient&) = delete;

  // One statement with $1… parameters. Outside a transaction a lost connection is reopened and the statement sent
  // again (callers send only reads and idempotent writes this way); inside transaction() the whole transaction is
  // run again instead. A statement error throws sg::Error with SQLSTATE and the server's message.
  PgResult exec(const std::string& sql, const std::vector<PgParam>& params = {});
  // The same through a server-side prepared statement, one per distinct `sql` (parsed and planned once per
  // session): prepared on first use and again after a reconnect.
  PgResult execPrepared(const std::string& sql, const std::vector<PgParam>& params);
  // Several statements without parameters (schema scripts), in one round trip.
  void execScript(const std::string& sql);

  // BEGIN; work(); COMMIT. A statement error rolls back and rethrows. A lost connection, a serialization
  // failure or a deadlock rolls back (the server discards an unfinished transaction), reopens the connection with
  // back-off and runs `work` again from the start: a logical write is all or nothing. `work` must therefore be
  // idempotent (the store's inserts are ON CONFLICT DO NOTHING on their unique keys), since a connection lost during
  // COMMIT leaves unknown whether it committed. Not reentrant.
  void transaction(const std::function<void()>& work);

  // A transaction run by the caller (begin(); statements; commit()): a lost connection inside it cannot be
  // retried here, so it is an sg::Error saying the transaction was rolled back. rollback() never throws.
  void begin();
  void commit();
  void rollback() noexcept;

  // SET name = value now and again after every reconnect (a new session).
  void setSessionSetting(const std::string& name, const std::string& value);

  // The URL as messages show it: the password replaced by "***"; "(PGHOST/PGDATABASE environment)" when empty.
  const std::string& displayName() const { return display_; }
  static std::string redact(const std::string& url);
  // How many times a lost connection was reopened so far (tests and progress messages).
  int reconnects() const { return reconnects_; }
  // The server's version number, e.g. 150005.
  int serverVersion() const;

 private:
  void connect(int attempts, const std::string& why);
  bool connectionLost() const;
  bool applySettings(std::string& error);  // settings_ on the current connection; false with `error` set
  PgResult run(const std::vector<PgParam>& params, const std::function<pg_result*(const char* const*, int)>& send);
  [[noreturn]] void fail(const std::string& what, pg_result* result) const;

  std::string url_, display_;
  PgRetryPolicy policy_;
  pg_conn* conn_ = nullptr;
  bool inTransaction_ = false;
  int reconnects_ = 0;
  bool manual_ = false;  // inside begin() ... commit()
  std::vector<std::pair<std::string, std::string>> settings_;  // setSessionSetting's, applied on each connect
  std::map<std::string, std::string> prepared_;  // SQL → name of its prepared statement in this session
};

}  // namespace sg::store
