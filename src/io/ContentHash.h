#pragma once
// SHA-256 (FIPS 180-4) of bytes and files: the content hashes the grasp database identifies robots, objects
// and worlds by (src/store/README.md §Tables), so a changed mesh is noticed where a file name is not.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sg {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  std::string hexDigest();          // 64 lower-case hex digits; ends the hash (update no more)

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  unsigned char buffer_[64];
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;        // bytes so far
};

std::string sha256Hex(std::string_view bytes);

struct FileDigest {
  std::string sha256;
  std::int64_t bytes = 0;
};
// Reads the file in pieces. sg::Error naming the file when it cannot be read.
FileDigest sha256File(const std::string& path);

}  // namespace sg
