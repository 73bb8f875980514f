#pragma once
// Readers for GraspIt! body, robot, eigengrasp, virtual-contact and world files, the robot and world writers
// (src/io/FORMATS.md). All throw sg::Error naming the file, the XML line and the problem; a failed load
// leaves nothing half-built behind (the caller's world is untouched).
#include <string>
#include <vector>

#include "core/Error.h"
#include "io/FileHistory.h"
#include "io/PathResolver.h"
#include "model/World.h"

namespace sg {

// A body XML, or a bare mesh (.iv .wrl .off .ply .stl .obj) which becomes a body with default properties
// (mm assumed; GraspIt!'s metre-scaled default.xml quirk is not copied). `kind` decides whether the dynamic
// tags (mass, cog, inertia) are read. Mass properties missing from the file are computed from the mesh.
Body loadBody(const std::string& path, BodyKind kind, const MaterialTable& materials,
              const LoadOptions& options = {});

// A robot XML (a .urdf file goes to loadUrdfRobot): palm and link bodies from <robotdir>/iv/, eigengrasp and virtual-contact files relative to
// <robotdir>/. DOF ranges computed; where it is comes from a RobotState (defaultRobotState puts the DOFs at
// their defaults). `history`, if given, receives the palm and link file names as the file wrote them.
Robot loadRobot(const std::string& path, const MaterialTable& materials, const LoadOptions& options = {},
                RobotFileHistory* history = nullptr);

// A URDF robot (FORMATS.md §URDF), with its SoftGrasp sidecar <dir>/<stem>.softgrasp.xml when there is one
// (without one: defaults and a load warning). Chains: the palm's child joints and those of branching links start
// chains; mimic joints are coupled DOFs. loadRobot calls it for a .urdf file. `history` receives link names.
Robot loadUrdfRobot(const std::string& path, const MaterialTable& materials, const LoadOptions& options = {},
                    RobotFileHistory* history = nullptr);
bool isUrdfPath(const std::string& path);  // by extension, .urdf (any case)

// The robot as GraspIt! robot XML for a file in `robotDir`: body files relative to <robotDir>/iv (absolute
// when not below it), DH joints from the DH parameters they were built from, the eigengrasp file, collision
// rules as <disableCollision>. Virtual contacts are not written (the robot keeps no file name for them).
// Throws sg::Error for what GraspIt! files cannot express: a joint without DH parameters, a fixed joint,
// a chain hanging off a link. A body without a body XML (a bare mesh) is named as `history` says, if given.
std::string robotToXml(const Robot& robot, const std::string& robotDir, const RobotFileHistory* history = nullptr);
// Writes robotToXml atomically.
void saveRobot(const Robot& robot, const std::string& path, const RobotFileHistory* history = nullptr);

// Writes `robot` as a GraspIt! robot directory: <outDir>/<name>.xml with DH joints (toDhRobot, model/DhConversion.h),
// iv/<body>.xml + iv/<body>.off per body (the collision mesh), the eigengrasp file copied to eigen/. Virtual contacts
// are not written. Returns the robot XML's path. Throws sg::Error for what GraspIt! cannot express (DhConversion.h).
std::string exportGraspItRobot(const Robot& robot, const std::string& outDir);

EigenGraspSet loadEigenGrasps(const std::string& path, int dofCount);
// XML virtual contacts, or the legacy plain-text .vgr format.
std::vector<VirtualContact> loadVirtualContacts(const std::string& path);

// A world XML: bodies, robots and connections, and its state (poses, DOF values, break-away entries) in
// World::state. `history`, if given, receives the file names as the world (and its robots) wrote them.
World loadWorld(const std::string& path, const LoadOptions& options = {}, FileHistory* history = nullptr);

// The world (description and World::state) as GraspIt!-compatible XML. Files are named as `history` has them
// when that still names the same file from `worldDir`, else relative to `worldDir` where possible.
std::string worldToXml(const World& world, const std::string& worldDir, const FileHistory* history = nullptr);
// Writes atomically (temporary file + rename): an existing file is never left half-written.
void saveWorld(const World& world, const std::string& path, const FileHistory* history = nullptr);

// GraspIt! dofValues text of a robot (break-away entries included) and its parser.
std::string dofValuesToString(const Robot& robot, const RobotState& state);
void applyDofValuesString(const Robot& robot, RobotState& state, const std::string& text, const std::string& file = {},
                          int line = 0);

// What a file is, from its root element or extension.
enum class InputFileKind { World, Robot, Body, Mesh, Unknown };
InputFileKind detectInputFileKind(const std::string& path);

}  // namespace sg
