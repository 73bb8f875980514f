#include "batch/Provenance.h"

#include <filesystem>

#include "core/Error.h"
#include "core/JsonGeometry.h"
#include "io/ContentHash.h"
#include "io/LoadedFiles.h"
#include "io/ModelIO.h"

namespace sg::batch {

Json ProvenanceCache::identity(const std::string& kind, const std::string& path, const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  const std::string key = kind + "\n" + path + "\n" + std::to_string(size) + "\n" + std::to_string(time);
  auto it = known_.find(key);
  if (it == known_.end()) {
    std::vector<std::string> files;
    {
      LoadedFilesScope scope;
      if (kind == "robot") {
        loadRobot(path, MaterialTable());
      } else if (kind == "object") {
        loadBody(path, BodyKind::Graspable, MaterialTable());
      } else {
        loadWorld(path);
      }
      files = scope.files();
    }
    Json list = Json::array();
    Sha256 combined;
    for (const std::string& f : files) {
      const FileDigest d = sha256File(f);
      combined.update(d.sha256);
      combined.update("\n");
      Json entry = Json::object();
      entry.set("path", f);
      entry.set("sha256", d.sha256);
      entry.set("bytes", static_cast<double>(d.bytes));
      list.push(entry);
    }
    Json id = Json::object();
    id.set("sha256", combined.hexDigest());
    id.set("files", list);
    it = known_.emplace(key, id).first;
  }
  Json out = Json::object();
  out.set("name", name);
  for (const auto& [k, v] : it->second.members("identity")) out.set(k, v);
  return out;
}

Json ProvenanceCache::provenance(const World& world, int robot, int graspable) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()) || graspable < 0 ||
      graspable >= static_cast<int>(world.graspables.size()))
    throw Error("no robot " + std::to_string(robot) + " or graspable " + std::to_string(graspable) + " in the world",
                world.sourceFile);
  Json out = Json::object();
  if (!world.sourceFile.empty()) out.set("world", identity("world", world.sourceFile, world.sourceFile));
  const Robot& r = world.robots[static_cast<std::size_t>(robot)];
  out.set("robot", identity("robot", r.sourceFile, r.name));
  const Body& b = world.graspables[static_cast<std::size_t>(graspable)];
  const std::string label = world.bodyLabel(BodyHandle{BodyHandle::Kind::Graspable, graspable, {}});
  // A body XML, or a bare mesh (its geometry file); a body written inside the world XML is the world's.
  const std::string objectFile = !b.sourceFile.empty() ? b.sourceFile
                                 : !world.sourceFile.empty() ? world.sourceFile
                                                             : b.geometry.resolvedPath;
  if (objectFile.empty()) throw Error("graspable " + label + " has no file to identify it by");
  out.set("object", identity(objectFile == world.sourceFile ? "world" : "object", objectFile, label));
  const Transform& X_WO = world.state.X_WG[static_cast<std::size_t>(graspable)];
  Json pose = Json::object();
  pose.set("position_mm", jsonVec(X_WO.translation()));
  pose.set("quaternion_wxyz", jsonQuatWxyz(X_WO.rotation()));
  out.set("X_WO", pose);
  return out;
}

}  // namespace sg::batch
