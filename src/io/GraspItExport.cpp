// A robot of general joints (a URDF hand) written as a GraspIt! robot directory (FORMATS.md §URDF, conversion):
// toDhRobot (model/DhConversion.h) re-expresses it with DH joints; every body becomes iv/<name>.xml with its
// collision mesh as iv/<name>.off; the eigengrasp file is copied to eigen/.
#include <filesystem>
#include <set>

#include "io/AtomicFile.h"
#include "io/BodyXml.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "model/DhConversion.h"

namespace sg {

namespace {

namespace fs = std::filesystem;

std::string safeName(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  return out.empty() ? std::string("body") : out;
}

// Writes the body's mesh and body XML under ivDir and points the body at them.
void writeBody(Body& body, const std::string& ivDir, std::set<std::string>& used) {
  if (!body.mesh || body.mesh->empty())
    throw Error("body '" + body.name + "' has no geometry; a GraspIt! body needs a geometry file");
  std::string stem = safeName(body.name);
  for (int i = 2; used.count(stem); ++i) stem = safeName(body.name) + "_" + std::to_string(i);
  used.insert(stem);
  const std::string meshPath = ivDir + "/" + stem + ".off";
  writeOffMesh(*body.mesh, meshPath);
  body.geometry = GeometrySource{};
  body.geometry.file = stem + ".off";
  body.geometry.resolvedPath = meshPath;
  body.geometry.type = meshTypeName(MeshFormat::Off);
  body.visualMesh.reset();
  const std::string xmlPath = ivDir + "/" + stem + ".xml";
  writeFileAtomically(xmlPath, "<?xml version=\"1.0\" ?>\n<root>\n" + xmlio::bodyContentXml(body, ivDir, 2) + "</root>\n");
  body.sourceFile = xmlPath;
}

}  // namespace

std::string exportGraspItRobot(const Robot& robot, const std::string& outDir) {
  Robot dh = toDhRobot(robot);
  const std::string dir = absolutePath(outDir);
  const std::string ivDir = dir + "/iv";
  std::error_code ec;
  fs::create_directories(ivDir, ec);
  if (ec) throw Error("cannot create directory: " + ec.message(), ivDir);
  std::set<std::string> used;
  try {
    writeBody(dh.palm, ivDir, used);
    for (auto& chain : dh.chains)
      for (auto& link : chain.links) writeBody(link.body, ivDir, used);
  } catch (const Error& e) {
    throw e.withContext("converting robot " + robot.sourceFile);
  }
  if (!dh.eigengrasps.sourceFile.empty()) {
    const std::string eigenDir = dir + "/eigen";
    fs::create_directories(eigenDir, ec);
    const std::string copy = eigenDir + "/" + fs::path(dh.eigengrasps.sourceFile).filename().string();
    fs::copy_file(dh.eigengrasps.sourceFile, copy, fs::copy_options::overwrite_existing, ec);
    if (ec) throw Error("cannot copy the eigengrasp file: " + ec.message(), copy);
    dh.eigengrasps.sourceFile = copy;
  }
  const std::string robotPath = dir + "/" + safeName(robot.name) + ".xml";
  saveRobot(dh, robotPath);
  return robotPath;
}

}  // namespace sg
