#pragma once
// A directory of HACD decompositions, so that a process does not decompose again a mesh an earlier process
// decomposed with the same settings (README.md §Decomposition cache). Off unless SOFTGRASP_CACHE_DIR names a
// directory. A file holds its input (the component's vertices and triangles, the settings) and is used only when
// that input matches exactly; a missing, short or foreign file is a miss, and a cache that cannot be written is
// skipped: the cache never changes a result nor fails a decomposition.
#include <filesystem>
#include <optional>
#include <string>

#include "geometry/TriangleMesh.h"
#include "sim/ConvexPieces.h"

namespace sg::sim {

// The directory SOFTGRASP_CACHE_DIR names (created on first use), or nothing when the variable is unset or empty.
std::optional<std::filesystem::path> decompositionCacheDir();

// The file name of `component` decomposed with `settings` ("hacd-<16 hex digits>.bin"): a hash of the input, so
// equal inputs share a file; the file's own copy of the input decides (a hash collision is a miss).
std::string decompositionCacheFileName(const TriangleMesh& component, const DecompositionSettings& settings);

// The pieces stored in `file` for exactly this component and settings; nothing when the file is missing, short,
// of another format revision or of another input.
std::optional<ConvexPieces> readCachedDecomposition(const std::filesystem::path& file, const TriangleMesh& component,
                                                    const DecompositionSettings& settings);

// Writes `pieces` with its input to `file` (a temporary file renamed into place, so a concurrent reader sees the
// whole file or none). False when it could not be written (the decomposition stands either way).
bool writeCachedDecomposition(const std::filesystem::path& file, const TriangleMesh& component,
                              const DecompositionSettings& settings, const ConvexPieces& pieces);

}  // namespace sg::sim
