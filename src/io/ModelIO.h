#pragma once
// Readers for GraspIt! body, robot, eigengrasp, virtual-contact and world files, the robot and world writers
// (src/io/FORMATS.md). All throw sg::Error naming the file, the XML line and the problem; a failed load
// leaves nothing half-built behind (the caller's world is untouched).
#include <string>
#include <vector>

#include "core/Error.h"
#include "io/PathResolver.h"
#include "model/World.h"

namespace sg {

// A body XML, or a bare mesh (.iv .wrl .off .ply .stl .obj) which becomes a body with default properties
// (mm assumed; GraspIt!'s metre-scaled default.xml quirk is not copied). `kind` decides whether the dynamic
// tags (mass, cog, inertia) are read. Mass properties missing from the file are computed from the mesh.
Body loadBody(const std::string& path, BodyKind kind, const MaterialTable& materials,
              const LoadOptions& options = {});

// A robot XML: palm and link bodies from <robotdir>/iv/, eigengrasp and virtual-contact files relative to
// <robotdir>/. DOF ranges computed, DOF values set to their defaults, link poses updated.
Robot loadRobot(const std::string& path, const MaterialTable& materials, const LoadOptions& options = {});

// The robot as GraspIt! robot XML for a file in `robotDir`: body files relative to <robotDir>/iv (absolute
// when not below it), DH joints from the DH parameters they were built from, the eigengrasp file, collision
// rules as <disableCollision>. Virtual contacts are not written (the robot keeps no file name for them).
// Throws sg::Error for what GraspIt! files cannot express: a joint without DH parameters, a fixed joint,
// a chain hanging off a link.
std::string robotToXml(const Robot& robot, const std::string& robotDir);
// Writes robotToXml atomically.
void saveRobot(const Robot& robot, const std::string& path);

EigenGraspSet loadEigenGrasps(const std::string& path, int dofCount);
// XML virtual contacts, or the legacy plain-text .vgr format.
std::vector<VirtualContact> loadVirtualContacts(const std::string& path);

World loadWorld(const std::string& path, const LoadOptions& options = {});

// The world as GraspIt!-compatible XML; paths written relative to `worldDir` where possible.
std::string worldToXml(const World& world, const std::string& worldDir);
// Writes atomically (temporary file + rename): an existing file is never left half-written.
void saveWorld(const World& world, const std::string& path);

// GraspIt! dofValues text of a robot (break-away entries included) and its parser.
std::string dofValuesToString(const Robot& robot, const RobotState& state);
void applyDofValuesString(const Robot& robot, RobotState& state, const std::string& text, const std::string& file = {},
                          int line = 0);

// What a file is, from its root element or extension.
enum class ModelFileKind { World, Robot, Body, Mesh, Unknown };
ModelFileKind detectModelFileKind(const std::string& path);

}  // namespace sg
