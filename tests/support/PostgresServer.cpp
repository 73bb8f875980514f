#include "PostgresServer.h"

#include <array>
#include <cctype>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <pwd.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sg::test {

namespace {

// ---- The exit guard (tests/postgres/README.md §Stopped on every exit) ---------------------------------------
// Postmaster PIDs of the servers alive in this process, in a fixed array of atomics so a signal handler may read
// it. The RAII object stops its server on a normal return and on a failing QVERIFY (which returns); atexit covers
// exit() and the end of main, the handlers a crash, abort() (qFatal, a failed assert) and ctest's SIGTERM.
constexpr int kMaxServers = 16;
// A forked child inherits the table: each entry also records the process that started the server, and only
// that process stops it.
std::array<std::atomic<pid_t>, kMaxServers> g_livePids{};
std::array<std::atomic<pid_t>, kMaxServers> g_owners{};
constexpr std::array<int, 8> kFatalSignals{SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGHUP};
std::array<struct sigaction, kFatalSignals.size()> g_previous{};

void killLiveServers() {
  const pid_t self = ::getpid();
  for (int i = 0; i < kMaxServers; ++i) {
    if (g_owners[i].load() != self) continue;
    const pid_t pid = g_livePids[i].exchange(0);
    if (pid > 0) ::kill(pid, SIGKILL);  // async-signal-safe; the server's files are thrown away anyway
  }
}

void onFatalSignal(int sig) {
  killLiveServers();
  for (std::size_t i = 0; i < kFatalSignals.size(); ++i)
    if (kFatalSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  ::raise(sig);  // the previous disposition runs: the test still dies of its signal (ctest reports it)
}

void installGuardOnce() {
  static const bool installed = [] {
    std::atexit(killLiveServers);
    for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
      struct sigaction sa {};
      sa.sa_handler = onFatalSignal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(kFatalSignals[i], &sa, &g_previous[i]);
    }
    return true;
  }();
  (void)installed;
}

void registerPid(pid_t pid) {
  for (int i = 0; i < kMaxServers; ++i) {
    if (g_owners[i].load() == ::getpid() && g_livePids[i].load() != 0) continue;
    g_owners[i] = ::getpid();
    g_livePids[i] = pid;
    return;
  }
}

void unregisterPid(pid_t pid) {
  for (int i = 0; i < kMaxServers; ++i) {
    if (g_owners[i].load() != ::getpid()) continue;
    pid_t expected = pid;
    if (g_livePids[i].compare_exchange_strong(expected, 0)) return;
  }
}

// ---- Child processes ------------------------------------------------------------------------------------------
struct Identity {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

// fork + exec of argv[0] with stdout and stderr appended to `logPath`. The child changes to `workDir`, takes
// `who`'s identity when asked, and gets SIGQUIT (PostgreSQL's immediate shutdown) should this process die without
// running any guard (SIGKILL): PR_SET_PDEATHSIG is set after setuid because a credential change clears it.
pid_t spawn(const std::vector<std::string>& argv, const std::string& logPath, const std::string& workDir,
            const Identity& who) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;  // parent (or -1)
  const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  const int devNull = ::open("/dev/null", O_RDONLY);
  if (devNull >= 0) ::dup2(devNull, STDIN_FILENO);
  ::close_range(3, ~0U, 0);  // the server must not hold the test's pipes open (a reader would wait for it)
  if (::chdir(workDir.c_str()) != 0) ::_exit(126);
  if (who.drop && (::setgroups(0, nullptr) != 0 || ::setgid(who.gid) != 0 || ::setuid(who.uid) != 0)) ::_exit(126);
  ::prctl(PR_SET_PDEATHSIG, SIGQUIT);
  if (::getppid() != parent) ::_exit(126);  // the parent died before the line above
  ::execv(args[0], args.data());
  ::_exit(127);
}

// Runs a command to its end; its exit status (-1 when it did not start or died on a signal).
int run(const std::vector<std::string>& argv, const std::string& logPath, const std::string& workDir,
        const Identity& who) {
  const pid_t pid = spawn(argv, logPath, workDir, who);
  if (pid < 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Percent-encoding of a URL component (the socket directory in ?host=).
std::string percentEncode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// FNV-1a of `text` in hex: a name that is the same in every build (std::hash need not be).
std::string stableHash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 0; shift -= 4) out += hex[(h >> shift) & 15];
  return out;
}

}  // namespace

PostgresServer::PostgresServer(bool durable) : durable_(durable) {
  const char* bin = std::getenv("SOFTGRASP_PG_BINDIR");
  binDir_ = bin && *bin ? bin : "/usr/lib/postgresql/15/bin";
}

PostgresServer::~PostgresServer() {
  stop();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

std::string PostgresServer::url() const {
  return "postgresql://" + user() + "@/" + database() + "?host=" + percentEncode(dir_) + "&port=" +
         std::to_string(port());
}

std::string PostgresServer::log() const { return dir_.empty() ? std::string() : readFile(dir_ + "/server.log"); }

bool PostgresServer::initialize() {
  // The socket path (dir + "/.s.PGSQL.5432") must fit a sockaddr_un (107 bytes): a short TMPDIR or /tmp.
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp && std::strlen(tmp) < 60 ? tmp : "/tmp";
  std::string pattern = base + "/sg-pg-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    error_ = "cannot create a temporary directory under " + base + ": " + std::strerror(errno);
    return false;
  }
  dir_ = pattern;

  // initdb and postgres refuse to run as root: as root the server runs as the `postgres` user of Debian's
  // package (else `nobody`), which owns the temporary directory (tests/postgres/README.md §Running as root).
  if (::geteuid() == 0) {
    const struct passwd* pw = ::getpwnam("postgres");
    if (!pw) pw = ::getpwnam("nobody");
    if (!pw) {
      error_ = "running as root and neither a `postgres` nor a `nobody` user exists to run the server as";
      return false;
    }
    dropPrivileges_ = true;
    serverUid_ = pw->pw_uid;
    serverGid_ = pw->pw_gid;
    if (::chown(dir_.c_str(), serverUid_, serverGid_) != 0) {
      error_ = "cannot hand " + dir_ + " to the server's user: " + std::strerror(errno);
      return false;
    }
  }
  ::chmod(dir_.c_str(), 0755);  // the socket's directory: clients of other users connect through it

  const std::string initLog = dir_ + "/initdb.log";
  const Identity who{dropPrivileges_, serverUid_, serverGid_};
  if (copyTemplate()) {
    initialized_ = true;
    return true;
  }
  const int status = run(initdbCommand(dir_ + "/data"), initLog, dir_, who);
  if (status != 0) {
    error_ = "initdb failed (exit " + std::to_string(status) + ") in " + dir_ + ":\n" + readFile(initLog);
    return false;
  }
  initialized_ = true;
  return true;
}

std::vector<std::string> PostgresServer::initdbCommand(const std::string& dataDir) const {
  return {binDir_ + "/initdb", "-D", dataDir, "-U", user(), "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"};
}

// tests/postgres/README.md §One initdb per build tree: with SG_PG_TEMPLATE_DIR set (ctest sets it), the cluster is
// a copy of one initdb'd there once. The template's name holds everything its files depend on (the programs, the
// initdb options, the user the server runs as); it appears whole or not at all (initdb in a staging directory, then
// rename, which fails harmlessly when a parallel suite got there first). Any failure: false, and the caller runs
// initdb itself as without the variable.
bool PostgresServer::copyTemplate() {
  const Identity who{dropPrivileges_, serverUid_, serverGid_};
  const char* root = std::getenv("SG_PG_TEMPLATE_DIR");
  if (!root || !*root) return false;
  std::string key = std::to_string(who.drop ? who.uid : ::geteuid());
  for (const std::string& arg : initdbCommand("DATA")) key += " " + arg;
  const std::string templ = std::string(root) + "/cluster-" + stableHash(key);
  const std::string copyLog = dir_ + "/template.log";
  std::error_code ec;
  if (!std::filesystem::is_directory(templ, ec)) {
    std::filesystem::create_directories(root, ec);
    std::string staging = std::string(root) + "/staging-XXXXXX";
    if (!::mkdtemp(staging.data())) return false;
    const bool handed = !who.drop || ::chown(staging.c_str(), who.uid, who.gid) == 0;
    if (handed && run(initdbCommand(staging + "/data"), copyLog, dir_, who) == 0)
      ::rename((staging + "/data").c_str(), templ.c_str());  // EEXIST/ENOTEMPTY: another suite's is there
    std::filesystem::remove_all(staging, ec);
  }
  // cp as the server's user, so the copy is the user's with the template's modes (initdb's 0700).
  if (std::filesystem::is_directory(templ, ec) &&
      run({"/bin/cp", "-R", "-p", templ, dir_ + "/data"}, copyLog, dir_, who) == 0)
    return true;
  std::filesystem::remove_all(dir_ + "/data", ec);
  return false;
}

bool PostgresServer::start() {
  error_.clear();
  if (running()) return true;
  installGuardOnce();
  const bool first = !initialized_;
  if (first && !initialize()) return false;

  const std::string logPath = dir_ + "/server.log";
  // No TCP (listen_addresses empty), the socket in our directory; fsync off unless durable: the tests kill
  // clients and the server process, never the machine, and a loaded 2-core machine should not wait for the disk.
  const Identity who{dropPrivileges_, serverUid_, serverGid_};
  // Test servers also keep their shared memory small (32 MB of buffers instead of 128 MB): several suites may
  // run at once (ctest -j).
  pid_ = spawn({binDir_ + "/postgres", "-D", dir_ + "/data", "-k", dir_, "-p", std::to_string(port()), "-c",
                "listen_addresses=", "-c", durable_ ? "fsync=on" : "fsync=off", "-c",
                durable_ ? "shared_buffers=128MB" : "shared_buffers=32MB", "-c", "max_connections=60"},
               logPath, dir_, who);
  if (pid_ < 0) {
    error_ = std::string("cannot start postgres: ") + std::strerror(errno);
    return false;
  }
  registerPid(pid_);
  if (!waitReady(60000)) {
    stop();
    return false;
  }
  return !first || createDatabase();
}

bool PostgresServer::waitReady(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  const std::string probeLog = dir_ + "/pg_isready.log";
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      unregisterPid(pid_);
      pid_ = -1;
      error_ = "postgres exited while starting (" + dir_ + "):\n" + log();
      return false;
    }
    if (run({binDir_ + "/pg_isready", "-q", "-h", dir_, "-p", std::to_string(port()), "-U", user(), "-d",
             "postgres"},
            probeLog, dir_, Identity{}) == 0)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  error_ = "postgres did not accept connections within " + std::to_string(timeout_ms / 1000) + " s:\n" + log();
  return false;
}

bool PostgresServer::createDatabase() {
  const std::string logPath = dir_ + "/createdb.log";
  const int status = run({binDir_ + "/createdb", "-h", dir_, "-p", std::to_string(port()), "-U", user(),
                          database()},
                         logPath, dir_, Identity{});
  if (status != 0) {
    error_ = "createdb failed (exit " + std::to_string(status) + "):\n" + readFile(logPath);
    return false;
  }
  return true;
}

void PostgresServer::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGQUIT);  // pg_ctl stop -m immediate
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool exited = false;
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!exited) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  unregisterPid(pid_);
  pid_ = -1;
}

}  // namespace sg::test
