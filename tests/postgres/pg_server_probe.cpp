// A process that starts a test server (tests/support/PostgresServer.h), prints "<postmaster pid> <directory>" on
// stdout, then ends as its argument says: `abort` (the guard's SIGABRT handler must stop the server) or `wait`
// (until killed: SIGKILL runs no handler, the server's parent-death signal must stop it). tst_pg_client runs it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "../support/PostgresServer.h"

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "abort") != 0 && std::strcmp(argv[1], "wait") != 0)) {
    std::fprintf(stderr, "usage: %s abort|wait\n", argv[0]);
    return 2;
  }
  sg::test::PostgresServer server;
  if (!server.start()) {
    std::fprintf(stderr, "%s\n", server.error().c_str());
    return 1;
  }
  std::printf("%d %s\n", static_cast<int>(server.pid()), server.socketDir().c_str());
  std::fflush(stdout);
  if (std::strcmp(argv[1], "abort") == 0) std::abort();
  for (;;) ::pause();
}
