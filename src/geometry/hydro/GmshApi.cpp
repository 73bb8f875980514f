// Loading Gmsh's C API at run time (GmshApi.h, README.md §Meshing).
#include "geometry/hydro/GmshApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>

#include "core/Error.h"

#ifndef SG_GMSH_SONAME
#error "SG_GMSH_SONAME (the SONAME of libgmsh) is set by src/geometry/CMakeLists.txt"
#endif

namespace sg {

namespace {

template <typename F>
void resolve(void* handle, const std::string& library, const char* symbol, F& out) {
  dlerror();  // clear a previous error
  void* address = dlsym(handle, symbol);
  if (address == nullptr) {
    const char* why = dlerror();
    throw Error("cannot use the Gmsh library " + library + ": it has no function " + symbol + " (" +
                (why ? why : "null symbol") + "); set SOFTGRASP_GMSH_LIBRARY to a Gmsh 4.8 library");
  }
  // POSIX guarantees that a function's address survives the round trip through void* (dlsym's contract).
  out = reinterpret_cast<F>(address);
}

}  // namespace

std::string gmshLibraryName() {
  const char* overridden = std::getenv("SOFTGRASP_GMSH_LIBRARY");
  if (overridden != nullptr && *overridden != '\0') return overridden;
  return SG_GMSH_SONAME;
}

GmshApi loadGmshApi(const std::string& library) {
  // Local: Gmsh's symbols (and those of OpenCASCADE, PETSc, ... it pulls in) stay out of the global namespace.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw Error("cannot load the Gmsh library " + library + " (needed to tetrahedralise a compliant mesh body): " +
                (why ? why : "unknown error") + "; install the package that provides it (libgmsh4.8 on Debian 12)");
  }
  GmshApi api;
  try {
    resolve(handle, library, "gmshInitialize", api.initialize);
    resolve(handle, library, "gmshOptionSetNumber", api.optionSetNumber);
    resolve(handle, library, "gmshModelAdd", api.modelAdd);
    resolve(handle, library, "gmshModelAddDiscreteEntity", api.modelAddDiscreteEntity);
    resolve(handle, library, "gmshModelMeshAddNodes", api.meshAddNodes);
    resolve(handle, library, "gmshModelMeshAddElementsByType", api.meshAddElementsByType);
    resolve(handle, library, "gmshModelGeoAddSurfaceLoop", api.geoAddSurfaceLoop);
    resolve(handle, library, "gmshModelGeoAddVolume", api.geoAddVolume);
    resolve(handle, library, "gmshModelGeoSynchronize", api.geoSynchronize);
    resolve(handle, library, "gmshModelMeshGenerate", api.meshGenerate);
    resolve(handle, library, "gmshModelMeshOptimize", api.meshOptimize);
    resolve(handle, library, "gmshModelMeshGetNodes", api.meshGetNodes);
    resolve(handle, library, "gmshModelMeshGetElementsByType", api.meshGetElementsByType);
    resolve(handle, library, "gmshLoggerGetLastError", api.loggerGetLastError);
    resolve(handle, library, "gmshFree", api.free);
  } catch (...) {
    dlclose(handle);
    throw;
  }
  return api;  // the handle stays open: Gmsh is used until the process ends
}

const GmshApi& gmshApi() {
  static std::once_flag once;
  static GmshApi api;
  static std::optional<Error> failure;
  std::call_once(once, [] {
    try {
      api = loadGmshApi(gmshLibraryName());
    } catch (const Error& e) {
      failure = e;
    }
  });
  if (failure) throw *failure;
  return api;
}

void checkGmsh(const GmshApi& api, int ierr, const char* what, const char* hint) {
  if (ierr == 0) return;
  std::string message;
  char* last = nullptr;
  int ignored = 0;
  api.loggerGetLastError(&last, &ignored);
  if (last != nullptr) {
    message = last;
    api.free(last);
  }
  if (message.empty()) message = "error code " + std::to_string(ierr);
  if (hint != nullptr) message += std::string("; ") + hint;
  throw Error(std::string("Gmsh: ") + what + " failed: " + message);
}

}  // namespace sg
