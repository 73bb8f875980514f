#include "store/PgClient.h"

#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <thread>

#include "core/NumberFormat.h"
#include "core/Parse.h"

namespace sg::store {

namespace {

// Thrown inside transaction() when the transaction must run again from BEGIN (never leaves this file).
struct RetryTransaction {
  std::string reason;
};

std::string trimmed(const char* text) {
  std::string s = text ? text : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string sqlState(const PGresult* r) {
  const char* s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  return s ? s : "";
}

// Connection exceptions (class 08) and the server going away (57P01 admin shutdown, 57P02 crash shutdown, 57P03
// cannot connect now): https://www.postgresql.org/docs/15/errcodes-appendix.html
// An error result without a SQLSTATE was made by libpq itself: the server closed the connection, or it could not
// be read or written. libpq marks the connection bad only at the next call, so the missing SQLSTATE is the sign.
// 08P01 (protocol violation) is a malformed request, not a lost connection.
bool isConnectionState(const std::string& state) {
  return state.empty() || (state.rfind("08", 0) == 0 && state != "08P01") || state == "57P01" || state == "57P02" ||
         state == "57P03";
}

// Serialization failure and deadlock: the transaction was rolled back and may simply run again.
bool isRetryableState(const std::string& state) { return state == "40001" || state == "40P01"; }

void ignoreNotice(void*, const char*) {}  // "relation already exists, skipping" and friends are not for the user

}  // namespace

// ---- PgResult ---------------------------------------------------------------------------------------------------

PgResult::~PgResult() {
  if (r_) PQclear(r_);
}

PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    if (r_) PQclear(r_);
    r_ = other.r_;
    other.r_ = nullptr;
  }
  return *this;
}

int PgResult::rows() const { return r_ ? PQntuples(r_) : 0; }
int PgResult::columns() const { return r_ ? PQnfields(r_) : 0; }
bool PgResult::isNull(int row, int column) const { return !r_ || PQgetisnull(r_, row, column) != 0; }

std::string PgResult::text(int row, int column) const {
  if (isNull(row, column)) return {};
  return std::string(PQgetvalue(r_, row, column), static_cast<std::size_t>(PQgetlength(r_, row, column)));
}

double PgResult::number(int row, int column) const {
  const auto v = isNull(row, column) ? std::nullopt : parseDouble(text(row, column));
  if (!v) throw Error("column " + std::to_string(column) + " of row " + std::to_string(row) + " is not a number: '" +
                      text(row, column) + "'");
  return *v;
}

long long PgResult::integer(int row, int column) const {
  // Digits by hand: core/Parse.h reads int and double, and ids and counts need all 64 bits exactly.
  const std::string t = text(row, column);
  const bool negative = !t.empty() && t[0] == '-';
  std::size_t i = negative ? 1 : 0;
  bool ok = !isNull(row, column) && i < t.size();
  unsigned long long n = 0;
  const unsigned long long limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
  for (; ok && i < t.size(); ++i) {
    const unsigned digit = static_cast<unsigned>(t[i] - '0');
    ok = t[i] >= '0' && t[i] <= '9' && n <= (limit - digit) / 10;
    n = n * 10 + digit;
  }
  if (!ok)
    throw Error("column " + std::to_string(column) + " of row " + std::to_string(row) + " is not a 64-bit integer: '" +
                t + "'");
  return negative ? static_cast<long long>(0ULL - n) : static_cast<long long>(n);
}

int PgResult::columnIndex(const char* name) const { return r_ ? PQfnumber(r_, name) : -1; }

long long PgResult::affectedRows() const {
  const char* n = r_ ? PQcmdTuples(r_) : nullptr;
  const auto v = n && *n ? parseInt(n) : std::nullopt;
  return v ? *v : 0;
}

// ---- Retry policy --------------------------------------------------------------------------------------------

PgRetryPolicy parsePgRetryPolicy(std::string_view text, const std::string& source, PgRetryPolicy base) {
  PgRetryPolicy p = base;
  const auto bad = [&](const std::string& why) {
    return Error("bad PostgreSQL retry policy '" + std::string(text) + "': " + why +
                     " (write e.g. connect=3,reconnect=8,first_ms=250,max_ms=4000)",
                 source);
  };
  std::string_view rest = text;
  while (!trim(rest).empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) throw bad("'" + std::string(item) + "' is not key=value");
    const std::string key(trim(item.substr(0, eq)));
    const std::optional<int> value = parseInt(item.substr(eq + 1));
    if (!value) throw bad("the value of " + key + " is not a whole number");
    if (key == "connect" || key == "reconnect") {
      if (*value < 1) throw bad(key + " must be at least 1 attempt");
      (key == "connect" ? p.connectAttempts : p.reconnectAttempts) = *value;
    } else if (key == "first_ms" || key == "max_ms") {
      if (*value < 0) throw bad(key + " must not be negative");
      (key == "first_ms" ? p.firstDelay : p.maxDelay) = std::chrono::milliseconds(*value);
    } else {
      throw bad("unknown key '" + key + "' (connect, reconnect, first_ms, max_ms)");
    }
  }
  if (p.maxDelay < p.firstDelay) throw bad("max_ms is below first_ms");
  return p;
}

PgRetryPolicy pgRetryPolicyFromEnvironment() {
  const char* env = std::getenv("SOFTGRASP_PG_RETRY");
  if (!env || !*env) return {};
  return parsePgRetryPolicy(env, "SOFTGRASP_PG_RETRY (environment)");
}

// ---- Connection -----------------------------------------------------------------------------------------------

std::string PgClient::redact(const std::string& url) {
  std::string s = url;
  // postgresql://user:secret@host/db → postgresql://user:***@host/db
  const auto scheme = s.find("://");
  if (scheme != std::string::npos) {
    const auto start = scheme + 3;
    const auto end = s.find_first_of("/?", start);
    const auto at = s.rfind('@', end == std::string::npos ? s.size() : end);
    if (at != std::string::npos && at >= start) {
      const auto colon = s.find(':', start);
      if (colon != std::string::npos && colon < at) s.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // ?password=secret and the keyword form password=secret
  for (auto p = s.find("password="); p != std::string::npos; p = s.find("password=", p + 1)) {
    const auto value = p + 9;
    const auto end = s.find_first_of("& ", value);
    s.replace(value, (end == std::string::npos ? s.size() : end) - value, "***");
  }
  return s;
}

PgClient::PgClient(std::string url, PgRetryPolicy policy) : url_(std::move(url)), policy_(policy) {
  display_ = url_.empty() ? "(PGHOST/PGDATABASE environment)" : redact(url_);
  if (!url_.empty()) {
    char* message = nullptr;
    PQconninfoOption* options = PQconninfoParse(url_.c_str(), &message);
    if (!options) {
      const std::string why = message ? trimmed(message) : "out of memory";
      PQfreemem(message);
      throw Error("not a PostgreSQL URL: " + why, display_);
    }
    PQconninfoFree(options);
  }
  connect(std::max(1, policy_.connectAttempts), {});
}

PgClient::~PgClient() {
  if (conn_) PQfinish(conn_);
}

PgClient::PgClient(PgClient&& other) noexcept
    : url_(std::move(other.url_)),
      display_(std::move(other.display_)),
      policy_(other.policy_),
      conn_(other.conn_),
      inTransaction_(other.inTransaction_),
      reconnects_(other.reconnects_),
      manual_(other.manual_),
      settings_(std::move(other.settings_)),
      prepared_(std::move(other.prepared_)) {
  other.conn_ = nullptr;
}

void PgClient::connect(int attempts, const std::string& why) {
  const auto started = std::chrono::steady_clock::now();
  auto delay = policy_.firstDelay;
  std::string last;
  for (int i = 0; i < attempts; ++i) {
    last.clear();
    if (i > 0) {
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, policy_.maxDelay);
    }
    if (conn_) PQfinish(conn_);
    conn_ = PQconnectdb(url_.c_str());
    prepared_.clear();
    if (conn_ && PQstatus(conn_) == CONNECTION_OK && applySettings(last)) {
      PQsetNoticeProcessor(conn_, ignoreNotice, nullptr);
      if (!why.empty()) ++reconnects_;
      return;
    }
    if (last.empty()) last = conn_ ? trimmed(PQerrorMessage(conn_)) : "out of memory";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string tries = " (" + std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts") +
                            " over " + formatFixed(seconds, 1) + " s)";
  if (why.empty()) throw Error("cannot connect to PostgreSQL: " + last + tries, display_);
  throw Error("lost the connection to PostgreSQL (" + why + ") and could not reopen it: " + last + tries, display_);
}

bool PgClient::applySettings(std::string& error) {
  for (const auto& [name, value] : settings_) {
    PGresult* r = PQexecParams(conn_, "SELECT set_config($1, $2, false)", 2, nullptr,
                               std::array<const char*, 2>{name.c_str(), value.c_str()}.data(), nullptr, nullptr, 0);
    const bool ok = r && PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) error = "cannot set " + name + ": " + trimmed(r ? PQresultErrorMessage(r) : PQerrorMessage(conn_));
    PQclear(r);
    if (!ok) return false;
  }
  return true;
}

void PgClient::setSessionSetting(const std::string& name, const std::string& value) {
  settings_.emplace_back(name, value);
  std::string error;
  if (!applySettings(error)) throw Error(error, display_);
}

bool PgClient::connectionLost() const { return !conn_ || PQstatus(conn_) == CONNECTION_BAD; }

void PgClient::fail(const std::string& what, pg_result* result) const {
  std::string message = result ? trimmed(PQresultErrorMessage(result)) : "";
  if (message.empty()) message = trimmed(PQerrorMessage(conn_));
  const std::string state = sqlState(result);
  if (result) PQclear(result);
  throw Error(what + (state.empty() ? "" : " [SQLSTATE " + state + "]") + ": " + message, display_);
}

PgResult PgClient::exec(const std::string& sql, const std::vector<PgParam>& params) {
  return run(params, [&](const char* const* values, int n) {
    return PQexecParams(conn_, sql.c_str(), n, nullptr, values, nullptr, nullptr, 0);
  });
}

PgResult PgClient::execPrepared(const std::string& sql, const std::vector<PgParam>& params) {
  return run(params, [&](const char* const* values, int n) -> PGresult* {
    auto it = prepared_.find(sql);
    if (it == prepared_.end()) {  // first use in this session (a reconnect starts a new one)
      const std::string name = "sg" + std::to_string(prepared_.size() + 1);
      PGresult* p = PQprepare(conn_, name.c_str(), sql.c_str(), n, nullptr);
      if (!p || PQresultStatus(p) != PGRES_COMMAND_OK) return p;
      PQclear(p);
      it = prepared_.emplace(sql, name).first;
    }
    return PQexecPrepared(conn_, it->second.c_str(), n, values, nullptr, nullptr, 0);
  });
}

void PgClient::begin() {
  if (inTransaction_) throw Error("BEGIN inside a transaction", display_);
  exec("BEGIN");
  inTransaction_ = manual_ = true;
}

void PgClient::commit() {
  try {
    exec("COMMIT");
  } catch (...) {
    rollback();
    throw;
  }
  inTransaction_ = manual_ = false;
}

void PgClient::rollback() noexcept {
  inTransaction_ = manual_ = false;
  if (!connectionLost()) PQclear(PQexec(conn_, "ROLLBACK"));
}

PgResult PgClient::run(const std::vector<PgParam>& params,
                       const std::function<pg_result*(const char* const*, int)>& send) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  for (int attempt = 0;; ++attempt) {
    PGresult* r = send(values.data(), static_cast<int>(values.size()));
    const ExecStatusType status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return PgResult(r);
    const std::string state = sqlState(r);
    if (connectionLost() || isConnectionState(state)) {
      std::string reason = r ? trimmed(PQresultErrorMessage(r)) : "";
      if (reason.empty()) reason = trimmed(PQerrorMessage(conn_));
      if (r) PQclear(r);
      if (manual_) {
        inTransaction_ = manual_ = false;  // the server rolled it back
        throw Error("lost the connection to PostgreSQL inside a transaction, which was rolled back: " + reason,
                    display_);
      }
      if (inTransaction_) throw RetryTransaction{reason};
      if (attempt >= policy_.reconnectAttempts)
        throw Error("the connection to PostgreSQL keeps failing: " + reason, display_);
      connect(std::max(1, policy_.reconnectAttempts), reason);  // throws when it gives up
      continue;
    }
    if (inTransaction_ && !manual_ && isRetryableState(state)) {
      std::string reason = trimmed(PQresultErrorMessage(r));
      PQclear(r);
      throw RetryTransaction{reason};
    }
    fail("statement failed", r);
  }
}

void PgClient::execScript(const std::string& sql) {
  run({}, [&](const char* const*, int) { return PQexec(conn_, sql.c_str()); });
}

void PgClient::transaction(const std::function<void()>& work) {
  if (inTransaction_) throw Error("transaction() called inside a transaction", display_);
  auto delay = policy_.firstDelay;
  for (int retry = 0;; ++retry) {
    try {
      inTransaction_ = true;
      exec("BEGIN");
      work();
      exec("COMMIT");
      inTransaction_ = false;
      return;
    } catch (const RetryTransaction& again) {
      inTransaction_ = false;
      if (retry >= policy_.reconnectAttempts)
        throw Error("a transaction failed " + std::to_string(retry + 1) + " times: " + again.reason, display_);
      if (connectionLost()) {
        connect(std::max(1, policy_.reconnectAttempts), again.reason);  // throws when it gives up
      } else {
        PQclear(PQexec(conn_, "ROLLBACK"));  // a serialization failure or deadlock: wait, then run again
        std::this_thread::sleep_for(delay);
        delay = std::min(delay * 2, policy_.maxDelay);
      }
    } catch (...) {
      rollback();
      throw;
    }
  }
}

int PgClient::serverVersion() const { return conn_ ? PQserverVersion(conn_) : 0; }

}  // namespace sg::store
