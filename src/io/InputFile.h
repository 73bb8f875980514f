#pragma once
// Opening any file SoftGrasp reads, one rule for the application (File > Open, drag and drop) and the CLI
// (every command's FILE): what kind of file it is and how it is read, with one message when it is refused.
//   world XML (root <world>), robot (root <robot>: a GraspIt! robot XML or a .urdf), body XML (a
//   <geometryFile> under the root) and bare meshes (.iv .wrl .off .ply .stl .obj, by extension);
//   any other .xml is read as a body XML, as GraspIt! ignores a body file's root name: the body reader then
//   names the actual problem and its line (an unknown root, a parse error);
//   anything else is refused: "not a world, robot or body XML nor a mesh (.iv .wrl .off .ply .stl .obj)".
#include <string>

#include "io/ModelIO.h"

namespace sg {

std::string inputFileKindName(InputFileKind kind);  // "world", "robot", "body", "mesh", "unknown"

// Throws sg::Error("no such file" / "is a directory, not a model file" / "is not a regular file (a device or a
// pipe)" / "cannot be read (permission denied?)", path) unless `path` is a readable regular file.
void requireReadableInputFile(const std::string& path);

// The kind `path` is read as (never Unknown): sg::Error naming the file for a missing or unreadable file and
// for a file of no supported kind (the message above).
InputFileKind classifyInputFile(const std::string& path);

// A file read on its own, wrapped into a World so callers treat every kind alike.
struct InputFile {
  InputFileKind kind = InputFileKind::Unknown;
  std::string path;  // absolute
  World world;       // a body or mesh file becomes the world's only graspable body; a robot its only robot
};
// classifyInputFile, then the reader of that kind; its sg::Error names the file (and the XML line when known).
// A relative `path` that is not found in the working directory is looked up in the data directories
// (io/DataDirectory.h: resolveUserFile), so `worlds/default.xml` opens the bundled world from anywhere.
InputFile loadInputFile(const std::string& path, const LoadOptions& options);

}  // namespace sg
