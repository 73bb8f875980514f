#pragma once
// The SoftGrasp version: the VERSION of project() in the top-level CMakeLists.txt, compiled into sg_core from
// src/core/Version.cpp.in, so softgrasp and softgrasp-cli print the same one.

namespace sg {

// "MAJOR.MINOR.PATCH", e.g. "0.1.0".
const char* versionString();

}  // namespace sg
