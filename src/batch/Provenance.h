#pragma once
// Where a row's robot, object and world came from, by content (src/store/README.md §Tables): every file each
// of them loads (io/LoadedFiles.h) with its SHA-256, and one hash over them. Batch records carry it as
// "provenance" (BATCH.md §Shard files), so a database import needs neither the files nor the job list's folder.
//   {"world": IDENTITY (world rows only), "robot": IDENTITY, "object": IDENTITY, "X_WO": pose of the object}
//   IDENTITY = {"name", "sha256": over the files' hashes in load order, "files": [{"path", "sha256", "bytes"}]}
#include <map>
#include <string>

#include "core/Json.h"
#include "model/World.h"

namespace sg::batch {

class ProvenanceCache {
 public:
  // The provenance of robot `robot` and graspable `graspable` of `world` (loaded from world.sourceFile, or built
  // from a hand file and an object file when that is empty). Each file set is loaded once per cache (by path,
  // size and modification time) to learn which files it reads. sg::Error from the loaders.
  Json provenance(const World& world, int robot, int graspable);

 private:
  Json identity(const std::string& kind, const std::string& path, const std::string& name);
  std::map<std::string, Json> known_;
};

}  // namespace sg::batch
