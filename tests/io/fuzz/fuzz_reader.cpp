// libFuzzer entry point for one reader (SG_FUZZ_KIND): the input becomes a file with that reader's
// extension in a private directory next to small valid helper files (a cube mesh and link bodies, so robot
// and world inputs can name them), and the reader runs on it. sg::Error is the expected outcome for bad
// input; anything else (a crash, a sanitizer report, another exception, a timeout) is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/Error.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"

namespace {

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Never destroyed: the atexit handler below runs after static destructors registered later.
const std::string& workDir() {
  static const std::string& dir = *new std::string([] {
    const std::string d = (std::filesystem::temp_directory_path() / ("sg-fuzz-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(d);
    writeText(d + "/cube.off",
              "OFF\n8 12 0\n0 0 0\n10 0 0\n10 10 0\n0 10 0\n0 0 10\n10 0 10\n10 10 10\n0 10 10\n"
              "3 0 3 2\n3 0 2 1\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n3 2 3 7\n3 2 7 6\n3 1 2 6\n3 1 6 5\n"
              "3 0 4 7\n3 0 7 3\n");
    const std::string body = "<?xml version=\"1.0\" ?>\n<root><material>wood</material><mass>100</mass>"
                             "<geometryFile type=\"off\">cube.off</geometryFile></root>\n";
    writeText(d + "/palm.xml", body);
    writeText(d + "/link.xml", body);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(workDir(), ec);
    });
    return d;
  }());
  return dir;
}

std::string extensionFor(const std::string& kind) {
  if (kind == "off" || kind == "ply" || kind == "stl" || kind == "obj") return "." + kind;
  if (kind == "inventor") return ".iv";
  if (kind == "virtualcontacts") return ".vgr";
  return ".xml";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string kind = SG_FUZZ_KIND;
  const std::string path = workDir() + "/input" + extensionFor(kind);
  writeText(path, std::string(reinterpret_cast<const char*>(data), size));
  const sg::MaterialTable materials;
  try {
    if (kind == "body") (void)sg::loadBody(path, sg::BodyKind::Graspable, materials);
    else if (kind == "robot") (void)sg::loadRobot(path, materials);
    else if (kind == "world") (void)sg::loadWorld(path);
    else if (kind == "eigengrasp") (void)sg::loadEigenGrasps(path, 4);
    else if (kind == "virtualcontacts") (void)sg::loadVirtualContacts(path);
    else (void)sg::readMesh(path);
  } catch (const sg::Error&) {
    // a clean rejection
  }
  return 0;
}
