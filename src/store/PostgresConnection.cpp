#include "store/PostgresConnection.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/NumberFormat.h"

namespace sg::store {
namespace {

// A prepared statement over PgClient::execPrepared: bindings are text parameters (numbers written with
// core/NumberFormat.h, the server infers each parameter's type from the statement); step() runs the statement on
// its first call and then walks the result's rows.
class PostgresStatement final : public Statement {
 public:
  PostgresStatement(PgClient& client, std::string sql) : client_(client), sql_(numberedPlaceholders(sql)) {}

  void bindNull(int index) override { slot(index) = std::nullopt; }
  void bindInt(int index, std::int64_t value) override { slot(index) = std::to_string(value); }
  void bindDouble(int index, double value) override {
    if (std::isfinite(value)) {
      slot(index) = formatDouble(value);
    } else {
      slot(index) = std::nullopt;
    }
  }
  void bindText(int index, std::string_view value) override { slot(index) = std::string(value); }
  bool step() override {
    if (!executed_) {
      result_ = client_.execPrepared(sql_, params_);
      executed_ = true;
      row_ = -1;
    }
    return ++row_ < result_.rows();
  }
  bool isNull(int column) const override { return result_.isNull(row_, column); }
  std::int64_t columnInt(int column) const override {
    return isNull(column) ? 0 : static_cast<std::int64_t>(result_.integer(row_, column));
  }
  double columnDouble(int column) const override {
    return isNull(column) ? std::numeric_limits<double>::quiet_NaN() : result_.number(row_, column);
  }
  std::string columnText(int column) const override { return result_.text(row_, column); }
  void reset() override {
    executed_ = false;
    result_ = PgResult();
    row_ = -1;
  }

 private:
  PgParam& slot(int index) {
    if (index < 1) throw Error("parameter index " + std::to_string(index) + " (they start at 1)", client_.displayName());
    if (static_cast<std::size_t>(index) > params_.size()) params_.resize(static_cast<std::size_t>(index));
    return params_[static_cast<std::size_t>(index) - 1];
  }

  PgClient& client_;
  std::string sql_;
  std::vector<PgParam> params_;
  PgResult result_;
  bool executed_ = false;
  int row_ = -1;
};

}  // namespace

PostgresConnection::PostgresConnection(const std::string& url, PgRetryPolicy policy) : client_(url, policy) {
  // The store's statements are prepared once and run many times with new values (POSTGRES.md §Dialect): a
  // generic plan is planned once per session, where PostgreSQL's default replans the first executions with each
  // value (the seven-table query of GraspStore::query spent more time planning than running).
  client_.setSessionSetting("plan_cache_mode", "force_generic_plan");
}

std::unique_ptr<Statement> PostgresConnection::prepare(const std::string& sql) {
  return std::make_unique<PostgresStatement>(client_, sql);
}

void PostgresConnection::lockSchema() {
  // Any fixed key: the one lock SoftGrasp takes ("SGSCHEMA" as ASCII bytes).
  client_.exec("SELECT pg_advisory_xact_lock(5427843163725613377)");
}

bool PostgresConnection::tableExists(const std::string& table) {
  return client_
             .execPrepared("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                           "AND table_name = $1",
                           {table})
             .rows() > 0;
}

std::int64_t PostgresConnection::sizeBytes() {
  return client_.exec("SELECT pg_database_size(current_database())").integer(0, 0);
}

}  // namespace sg::store
