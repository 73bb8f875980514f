#pragma once
// A private PostgreSQL 15 server for the tests and benchmarks that need one (ctest label `postgres`):
// `initdb` on a temporary directory, the postmaster listening on a Unix socket in that directory only (no TCP), one
// database created, and the server stopped by its PID on every exit path. tests/postgres/README.md says how it
// runs as root and why it is stopped the way it is. Standard C++ and POSIX only (no Qt), so benchmarks use it too.
#include <string>
#include <sys/types.h>
#include <vector>

namespace sg::test {

class PostgresServer {
 public:
  // Does not start anything: call start(). The programs (initdb, postgres, createdb, pg_isready) are Debian's
  // (/usr/lib/postgresql/15/bin; SOFTGRASP_PG_BINDIR overrides it). `durable`: fsync and synchronous commit on,
  // as a real server runs (benchmarks); off by default (tests kill processes, never the machine).
  explicit PostgresServer(bool durable = false);
  ~PostgresServer();  // stop(), then the temporary directory is removed
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // First call: initdb, start, wait until it accepts connections, create database(). Later calls (after stop())
  // start the same cluster again. False with error() set when any step fails (its log is quoted).
  bool start();
  // Immediate shutdown (what `pg_ctl stop -m immediate` sends: SIGQUIT to the postmaster), then SIGKILL if it has
  // not exited within a few seconds. Idempotent.
  void stop();
  bool running() const { return pid_ > 0; }

  const std::string& error() const { return error_; }
  // libpq connection URL of the database, e.g. postgresql://softgrasp@/softgrasp_test?host=%2Ftmp%2Fsg-pg-Ab12Cd
  std::string url() const;
  // The same as libpq keywords, for tests of PGHOST/PGDATABASE/PGUSER.
  const std::string& socketDir() const { return dir_; }
  std::string database() const { return "softgrasp_test"; }
  std::string user() const { return "softgrasp"; }
  int port() const { return 5432; }  // names the socket file only: the server listens on no TCP port
  pid_t pid() const { return pid_; }
  // The server's log (stderr of the postmaster), for failure messages.
  std::string log() const;

 private:
  bool initialize();
  std::vector<std::string> initdbCommand(const std::string& dataDir) const;
  bool copyTemplate();  // the cluster copied from SG_PG_TEMPLATE_DIR's template; false: run initdb
  bool waitReady(int timeout_ms);
  bool createDatabase();

  std::string binDir_;
  std::string dir_;      // temporary directory: socket + log; the cluster is dir_/data
  bool initialized_ = false;
  pid_t pid_ = -1;
  uid_t serverUid_ = 0;  // the user the server runs as (differs from ours when we are root)
  gid_t serverGid_ = 0;
  bool dropPrivileges_ = false;
  bool durable_ = false;
  std::string error_;
};

}  // namespace sg::test
