#pragma once
// Gmsh's C API (gmshc.h), loaded on demand (README.md §Gmsh loaded on demand): libgmsh and its ~90
// dependent libraries are mapped into the process at its first tetrahedralization, not at every start-up.
// gmshc.h is included for the functions' types only; every call goes through the pointers below.
#include <string>

#include <gmshc.h>

namespace sg {

struct GmshApi {
  decltype(&::gmshInitialize) initialize = nullptr;
  decltype(&::gmshOptionSetNumber) optionSetNumber = nullptr;
  decltype(&::gmshModelAdd) modelAdd = nullptr;
  decltype(&::gmshModelAddDiscreteEntity) modelAddDiscreteEntity = nullptr;
  decltype(&::gmshModelMeshAddNodes) meshAddNodes = nullptr;
  decltype(&::gmshModelMeshAddElementsByType) meshAddElementsByType = nullptr;
  decltype(&::gmshModelGeoAddSurfaceLoop) geoAddSurfaceLoop = nullptr;
  decltype(&::gmshModelGeoAddVolume) geoAddVolume = nullptr;
  decltype(&::gmshModelGeoSynchronize) geoSynchronize = nullptr;
  decltype(&::gmshModelMeshGenerate) meshGenerate = nullptr;
  decltype(&::gmshModelMeshOptimize) meshOptimize = nullptr;
  decltype(&::gmshModelMeshGetNodes) meshGetNodes = nullptr;
  decltype(&::gmshModelMeshGetElementsByType) meshGetElementsByType = nullptr;
  decltype(&::gmshLoggerGetLastError) loggerGetLastError = nullptr;
  decltype(&::gmshFree) free = nullptr;
};

// The library to load: the environment variable SOFTGRASP_GMSH_LIBRARY when set and not empty (a file name or
// path, for another Gmsh build), else the SONAME of the libgmsh found at configure time (e.g. libgmsh.so.4.8).
std::string gmshLibraryName();

// Opens `library` (RTLD_NOW | RTLD_LOCAL) and resolves every function above. Throws sg::Error naming the library
// and dlerror()'s message when it cannot be opened or lacks a function. Each call opens it again (for tests).
GmshApi loadGmshApi(const std::string& library);

// The API of gmshLibraryName(), loaded by the first call (thread-safe) and kept for the process's lifetime; a
// failed load throws the same sg::Error at every call.
const GmshApi& gmshApi();

// Turns a Gmsh C call's error code into an exception: after a call with ierr != 0, throws sg::Error
// "Gmsh: <what> failed: <Gmsh's last error message>[; <hint>]".
void checkGmsh(const GmshApi& api, int ierr, const char* what, const char* hint = nullptr);

}  // namespace sg
