#pragma once
// Eigengrasp projection and back-projection (src/model/README.md §Eigengrasps). With E the e×D matrix whose rows are
// the unit eigengrasp vectors, s the per-DOF norm and o the origin:
//   amplitudes a = (E·Eᵀ)⁻¹·E·((x − o) ⊘ s),    DOF values x = (Eᵀ·a) ⊙ s + o.
#include <vector>

#include "model/Robot.h"

namespace sg {

// The origin to use: the file's ORIGIN when given, else the middle of each DOF range.
VecX eigenGraspOrigin(const Robot& robot);
VecX eigenGraspNorm(const Robot& robot);

std::vector<double> dofsToAmplitudes(const Robot& robot, const std::vector<double>& dofValues);
std::vector<double> amplitudesToDofs(const Robot& robot, const std::vector<double>& amplitudes);

// One eigengrasp per DOF (unit vectors), GraspIt!'s fallback when a robot names no eigengrasp file.
EigenGraspSet identityEigenGrasps(const Robot& robot);

}  // namespace sg
