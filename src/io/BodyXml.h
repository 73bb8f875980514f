#pragma once
// Element-level body reading and writing shared by the body, robot and world readers (internal to src/io).
#include <string>

#include "io/PathResolver.h"
#include "io/XmlHelpers.h"
#include "model/Body.h"
#include "model/Materials.h"

namespace sg::xmlio {

// Reads a body element (the root of a body XML, or an inline <body> of a world). Geometry file names are
// resolved from `baseDir`. Errors name `file` and the line of the offending element.
Body readBodyElement(const xml::Element& element, const std::string& file, const std::string& baseDir,
                     BodyKind kind, const MaterialTable& materials, const PathResolver& resolver);

// CoG, inertia and maxRadius of a body with a mesh; values from the file (cogFromFile, inertiaFromFile) win,
// the rest comes from the mesh.
void completeMassProperties(Body& body);

// loadBody() with an explicit resolver (robots and worlds pass theirs on).
Body loadBodyFile(const std::string& path, BodyKind kind, const MaterialTable& materials,
                  const PathResolver& resolver);

// The body's contents as GraspIt! body XML children (material, youngs, …, geometryFile, mass, cog,
// inertia_matrix), each line indented by `indent` spaces. The geometry file name is written relative to
// `baseDir` (see fileNameForWriting). Throws if the body has no geometry file.
std::string bodyContentXml(const Body& body, const std::string& baseDir, int indent);

// How to name `resolvedPath` in a file saved in `baseDir`: `asWritten` if it still resolves to the same
// file from there, else relative to `baseDir` when below it, else absolute.
std::string fileNameForWriting(const std::string& resolvedPath, const std::string& asWritten,
                               const std::string& baseDir);

}  // namespace sg::xmlio
