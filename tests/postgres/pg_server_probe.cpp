// A process that starts a test server (tests/support/PostgresServer.h), prints "<postmaster pid> <directory>" on
// stdout, then ends as its argument says: `abort` (the guard's SIGABRT handler must stop the server) or `wait`
// (until killed: SIGKILL runs no handler, the server's parent-death signal must stop it); tst_pg_client runs both.
// `serve` prints "<postmaster pid> <url>" and keeps the server until its stdin closes (the Slurm test's server:
// tests/batch/slurm_cluster_test.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#include "../support/PostgresServer.h"

int main(int argc, char** argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "abort" && mode != "wait" && mode != "serve") {
    std::fprintf(stderr, "usage: %s abort|wait|serve\n", argv[0]);
    return 2;
  }
  sg::test::PostgresServer server;
  if (!server.start()) {
    std::fprintf(stderr, "%s\n", server.error().c_str());
    return 1;
  }
  std::printf("%d %s\n", static_cast<int>(server.pid()),
              mode == "serve" ? server.url().c_str() : server.socketDir().c_str());
  std::fflush(stdout);
  if (mode == "abort") std::abort();
  if (mode == "serve") {
    while (std::getchar() != EOF) {
    }
    return 0;  // the destructor stops the server and removes its directory
  }
  for (;;) ::pause();
}
