#pragma once
// Magnitude checks for numbers read from GraspIt! XML (internal to src/io). A finite number can still be
// absurd: 1e308 mm turns into inf or NaN after a unit conversion or the first multiplication and then
// corrupts poses, inertias and motion silently. Every XML number is limited to ±kMaxMagnitude
// (xml::number and friends); lengths and angles get the tighter limits below. Errors name the file, the
// element's line and the tag.
#include <string>

#include "io/XmlHelpers.h"

namespace sg::xml {

constexpr double kMaxMagnitude = 1e15;   // any number in a GraspIt! XML file
constexpr double kMaxLength_mm = 1e8;    // 100 km: DH a and d, prismatic limits and offsets, translations, CoG
constexpr double kMaxAngle_deg = 1e6;    // about 2800 turns: DH alpha/theta, revolute limits and offsets

// Throws "<tag> <what> is out of range: 1e+20 (limit ±1e+08 <unit>)" unless |value| ≤ limit.
void requireMagnitude(const std::string& file, const Element& e, double value, double limit, const std::string& what,
                      const std::string& unit);
// The element's number, checked against `limit`.
double boundedNumber(const Element& e, const std::string& file, double limit, const std::string& unit);
// requireChild + boundedNumber.
double requireChildBounded(const Element& parent, const char* name, const std::string& file, double limit,
                           const std::string& unit);

}  // namespace sg::xml
