#pragma once
// Eigengrasp projection and back-projection (src/model/README.md §Eigengrasps). With E the e×D matrix whose rows are
// the unit eigengrasp vectors, s the per-DOF norm and o the origin:
//   amplitudes a = (E·Eᵀ)⁻¹·E·((x − o) ⊘ s),    DOF values x = (Eᵀ·a) ⊙ s + o.
#include <utility>
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

// True when the robot has DOFs and eigengrasps and every eigengrasp has one entry per DOF (else amplitudes are
// meaningless: the DOFs dock shows no eigengrasp rows).
bool eigengraspsUsable(const Robot& robot);
// Amplitude range of eigengrasp `i` (README.md §Eigengrasps): its <Limits> when both are given and min < max,
// else the amplitudes for which moving along that eigengrasp alone from the origin keeps every DOF in its range;
// (−1, 1) when no DOF bounds it. Throws std::out_of_range for an invalid index.
std::pair<double, double> eigenAmplitudeRange(const Robot& robot, int i);

}  // namespace sg
