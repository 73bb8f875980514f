#pragma once
// The one unit conversion between SoftGrasp's model (mm, g, GraspIt!'s 1e-6 N and 1e-6 N·mm) and MuJoCo's
// model (SI: m, kg, N, N·m), README.md §Units. Nothing else in src/sim scales a number.
namespace sg::sim {

constexpr double kMetresPerMm = 1e-3;
constexpr double kKgPerGram = 1e-3;
// Inertia per unit mass (mm²) times mass (g) → kg·m².
constexpr double kKgM2PerGramMm2 = kKgPerGram * kMetresPerMm * kMetresPerMm;
// GraspIt!'s maxEffort: 1e-6 N for a prismatic DOF (per mm of travel), 1e-6 N·mm for a revolute one
// (src/io/FORMATS.md): N for a DOF measured in m, N·m for one in rad.
constexpr double kNewtonsPerEffortUnitPrismatic = 1e-6;
constexpr double kNewtonMetresPerEffortUnitRevolute = 1e-9;
// Gains: Kp in effort units per mm (prismatic) or per rad, Kd per mm/s or rad/s.
constexpr double kKpPrismaticToSi = kNewtonsPerEffortUnitPrismatic / kMetresPerMm;   // → N/m
constexpr double kKpRevoluteToSi = kNewtonMetresPerEffortUnitRevolute;               // → N·m/rad

}  // namespace sg::sim
