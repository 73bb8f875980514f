#pragma once
// The joint names of a URDF hand's DOFs (FORMATS.md §URDF): Dof keeps no name, so scripts that address a
// URDF hand's DOFs by the file's joint names (the Python module's World.dof_names) read them here.
#include <string>
#include <vector>

#include "io/PathResolver.h"

namespace sg {

// The DOF joints of the URDF at `path` in DOF order, as loadUrdfRobot numbers them (the sidecar's <dof> order,
// then file order). sg::Error as loadUrdfRobot for a file it cannot read.
std::vector<std::string> urdfDofNames(const std::string& path, const LoadOptions& options = {});

}  // namespace sg
