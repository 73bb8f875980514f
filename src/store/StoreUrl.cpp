#include "store/StoreUrl.h"

#include "core/Error.h"
#include "store/PostgresConnection.h"
#include "store/SqliteConnection.h"

namespace sg::store {

StoreUrl parseStoreUrl(const std::string& url) {
  if (url.empty()) throw Error("empty database URL (a file path, sqlite:///path or postgresql://...)");
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return {Backend::Sqlite, url};   // a plain file path
  const std::string name = url.substr(0, scheme);
  const std::string rest = url.substr(scheme + 3);
  if (name == "sqlite") {
    // sqlite:///abs/path → /abs/path; sqlite://rel/path → rel/path (as a file path would be).
    if (rest.empty()) throw Error("sqlite:// URL without a file path: '" + url + "'");
    return {Backend::Sqlite, rest};
  }
  if (name == "postgresql" || name == "postgres") return {Backend::Postgres, url};
  throw Error("unknown database URL scheme '" + name +
              "://' in '" + url + "' (a file path, sqlite:///path or postgresql://...)");
}

std::unique_ptr<Connection> openConnection(const std::string& url, OpenMode mode) {
  const StoreUrl parsed = parseStoreUrl(url);
  switch (parsed.backend) {
    case Backend::Sqlite:
      return std::make_unique<SqliteConnection>(parsed.target, mode);
    case Backend::Postgres:
      return std::make_unique<PostgresConnection>(parsed.target, pgRetryPolicyFromEnvironment());
  }
  throw Error("unknown database backend", url);
}

}  // namespace sg::store
