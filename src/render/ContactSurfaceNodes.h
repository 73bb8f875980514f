#pragma once
// Hydroelastic contact surfaces (geometry/hydro/ContactSurface.h) as Coin nodes (README.md §Contact surfaces):
// the polygons coloured by pressure (per-vertex colours from one colour map, unlit so the colours read as the
// map says from any side), a marker at the centre of pressure and the net-force arrow ending there.
// World frame, mm. A view only: built from the surface, never edits it.
#include <array>
#include <string>
#include <vector>

#include "core/Transform.h"

class SoSeparator;

namespace sg {

struct ContactSurface;

// The pressure colour map (README.md §Contact surfaces): t = p / p_max, clamped to [0, 1], to RGB in 0..1,
// piecewise linear through blue (0), cyan (1/3), yellow (2/3) and red (1).
std::array<float, 3> pressureColour(double t);
// `samples` ≥ 2 colours of the map at evenly spaced t from 0 to 1 (a colour bar, low to high).
std::vector<std::array<float, 3>> pressureColourRamp(int samples = 13);

// The one unit every view shows a pressure in — the application's docks and inspectors, the legend's colour bar,
// the headless screenshot: kPa, which reads well from a few kPa (soft pads) to the 1.5 MPa fingertips ("1500 kPa").
struct PressureUnit {
  const char* name;      // "kPa"
  double pascals;        // 1e3
};
inline constexpr PressureUnit kPressureUnit{"kPa", 1e3};
// "42.3 kPa", "1500 kPa": 3 significant digits (all the integer digits), never an exponent.
std::string formatPressure(double pressure_Pa, const PressureUnit& unit = kPressureUnit);

struct ContactSurfaceStyle {
  double maxPressure_Pa = 0;          // pressure of the map's top colour; 0 (or less): the surface's own peak
  bool netForce = true;               // draw the net-force arrow
  bool forceOnN = false;              // the arrow shows the force on N (−force_W_N) instead of the force on M
  double forceArrow_mm_per_N = 5.0;   // as the contact-force arrows (GraspOverlay.h kForceArrow_mm_per_N)
  double shaftRadius_mm = 1.0;
  std::array<float, 3> arrowColour = {0.1f, 0.75f, 0.15f};  // the contact-force green
  double copMarkerRadius_mm = 1.2;
  std::array<float, 3> copColour = {1.0f, 1.0f, 1.0f};
};

// A new separator (ref count 0) named "contactSurface" holding "pressurePolygons" (one face per polygon, colours
// per vertex), "centreOfPressure" (a sphere at centreOfPressure_W_mm) and, when style.netForce and the force is
// not zero, "netForce" (an arrow along the force whose head's tip is at the centre of pressure, pushing on the
// body it acts on, forceArrow_mm_per_N long per newton). An empty surface gives an empty separator.
SoSeparator* makeContactSurfaceNode(const ContactSurface& surface, const ContactSurfaceStyle& style = {});

}  // namespace sg
