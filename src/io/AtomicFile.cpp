#include "io/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/Error.h"

namespace sg {

namespace {

std::string systemError() { return std::strerror(errno); }

std::atomic<std::size_t> gFailAfter{std::string::npos};  // testing::failAtomicWritesAfter

// Writes everything, retrying short writes and EINTR.
bool writeAll(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  const std::size_t failAfter = gFailAfter.load();
  while (left > 0) {
    const std::size_t done = content.size() - left;
    if (failAfter != std::string::npos && done >= failAfter) {
      errno = EIO;
      return false;
    }
    const std::size_t chunk = failAfter != std::string::npos ? std::min(left, failAfter - done) : left;
    const ssize_t n = ::write(fd, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void writeFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tempName(".");  // built by appending: GCC 12 warns falsely (-Wrestrict) on "." + string
  tempName += target.filename().string();
  tempName += ".tmp-XXXXXX";
  const std::string pattern = (dir / tempName).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');

  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw Error("cannot create a temporary file next to it: " + systemError(), path);
  const std::string tmp(name.data());
  auto fail = [&](const std::string& what) {
    const std::string why = systemError();
    ::close(fd);
    ::unlink(tmp.c_str());
    throw Error(what + ": " + why, path);
  };
  if (!writeAll(fd, content)) fail("cannot write");
  if (::fsync(fd) != 0) fail("cannot flush to disk");
  // mkstemp creates 0600: keep the permissions of the file being replaced, else rw-r--r--.
  struct stat st {};
  ::fchmod(fd, ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644);
  if (::close(fd) != 0) {
    const std::string why = systemError();
    ::unlink(tmp.c_str());
    throw Error("cannot write: " + why, path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = systemError();
    ::unlink(tmp.c_str());
    throw Error("cannot replace the file: " + why, path);
  }
  // Sync the directory so the rename itself is on disk. Best effort: the new content is complete either
  // way, and some file systems refuse fsync on a directory (EINVAL).
  const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd >= 0) {
    (void)::fsync(dirFd);
    ::close(dirFd);
  }
}

namespace testing {
void failAtomicWritesAfter(std::size_t bytes) { gFailAfter.store(bytes); }
}  // namespace testing

}  // namespace sg
