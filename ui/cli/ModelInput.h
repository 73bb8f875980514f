#pragma once
// Loading the model file a subcommand is given: a world, robot or body XML, or a bare mesh. Every kind is
// wrapped into a World, so commands can treat them alike. Errors are sg::Error naming the file (and the
// XML line when known); main() reports them on one line with exit code 3.
#include <string>

#include "OptionParser.h"
#include "io/ModelIO.h"

namespace sg::cli {

struct LoadedModel {
  ModelFileKind kind = ModelFileKind::Unknown;
  std::string path;  // absolute
  World world;       // a body or mesh file becomes the world's only graspable body; a robot its only robot
};

std::string modelFileKindName(ModelFileKind kind);  // "world", "robot", "body", "mesh", "unknown"

// Throws sg::Error("no such file"/"is a directory"/"cannot be read", path) unless `path` is a readable file.
void requireReadableFile(const std::string& path);

// The LoadOptions the shared --model-root option asks for.
LoadOptions loadOptionsFrom(const ParsedArgs& args);

LoadedModel loadModelFile(const std::string& path, const LoadOptions& options);
// A robot XML only (anything else is an sg::Error naming the file).
Robot loadRobotFile(const std::string& path, const LoadOptions& options);

}  // namespace sg::cli
