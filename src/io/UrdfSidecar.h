#pragma once
// SoftGrasp's sidecar file for a URDF hand (FORMATS.md §URDF sidecar): what URDF does not say — the palm link,
// the approach direction, each DOF's type and closing velocity, materials and Young's moduli per link,
// eigengrasps and virtual contacts. Internal to src/io.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/Robot.h"

namespace sg::urdfio {

struct SidecarDof {                 // <dof joint="NAME" .../>
  std::optional<DofType> type;
  std::optional<double> defaultVelocity, defaultValue, breakAwayTorque;  // defaultValue rad or mm
  int line = 0;
};

struct SidecarLink {                // <link name="NAME" .../>
  std::optional<std::string> material;
  std::optional<double> youngs_Pa;
  bool collisionOff = false;
  int line = 0;
};

struct Sidecar {
  std::string file;                 // absolute path; empty when there is none
  std::optional<std::string> palmLink;
  std::optional<ApproachDirection> approach;  // mm, palm frame
  std::map<std::string, SidecarDof> dofs;     // by URDF joint name
  std::vector<std::string> dofOrder;          // the <dof> joints in file order: DOFs 0, 1, … (the rest follow)
  std::map<std::string, SidecarLink> links;   // by URDF link name
  std::optional<std::string> eigenGraspsFile, virtualContactsFile;  // resolved absolute paths
  int eigenGraspsLine = 0, virtualContactsLine = 0;
};

// The sidecar path for a URDF: <dir>/<stem>.softgrasp.xml.
std::string sidecarPathFor(const std::string& urdfFile);

// Reads a sidecar; throws sg::Error naming the file and line.
Sidecar readSidecar(const std::string& path);

}  // namespace sg::urdfio
