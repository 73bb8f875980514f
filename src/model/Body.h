#pragma once
// A rigid or soft body: geometry, material and mass properties — what it is, not where it is (its pose is
// in WorldState, WorldState.h). Plain data; readers fill it.
// Units: mm, g, Pa. Inertia is per unit mass (mm²) about the centre of mass, in body axes (as GraspIt!).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Transform.h"
#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"

namespace sg {

enum class BodyKind { Obstacle, Graspable, Link };

// The hydroelastic option of a body (src/io/FORMATS.md §Hydroelastic; src/geometry/hydro/README.md): the body
// is compliant under the hydroelastic contact model, with a pressure field p = E·e(x) over a tetrahedral
// mesh of its volume (e = 0 on the surface, 1 at the deepest point). Bodies without it are rigid there.
struct HydroelasticProperties {
  std::optional<double> modulus_Pa;  // hydroelastic modulus E; absent: the body's <youngs>
  double margin_mm = 0.0;            // Drake's margin δ: the field is inflated by δ (0: none)
  double resolutionHint_mm = 0.0;    // target edge length of the tet mesh; 0: the shape's coarsest mesh
  double slabThickness_mm = 0.0;     // half-spaces only: the depth h over which p rises to E (0: 10 mm)
};

// The body's geometry file and how it is scaled and placed (what a body XML's geometry tags say).
struct GeometrySource {
  std::string file;                  // the <geometryFile> text (relative to the body XML), absolute for bare meshes
  std::string resolvedPath;          // absolute path actually loaded
  std::string type = "Inventor";     // GraspIt! type attribute: Inventor, off, ply (+ stl, obj here)
  Vec3 scale = Vec3::Ones();         // geometryScaling (uniform -> all equal) or X/Y/Z
  bool scaleWasUniform = true;
  bool hasScale = false;
  std::optional<Transform> offset;   // geometryOffset, applied after scaling
  // A <primitive> element instead of a file (src/io/FORMATS.md §Primitives): the shape as written, before
  // scale and offset. `file` and `resolvedPath` are then empty and `type` is "primitive".
  std::optional<Shape> primitive;
};

struct Body {
  std::string name;                  // file stem, or a generated name
  BodyKind kind = BodyKind::Obstacle;
  std::string material = "wood";
  std::optional<double> youngs_Pa;   // absent: rigid
  std::optional<double> normalCompliance, shearCompliance;
  std::optional<int> flockOfBirds;
  std::optional<HydroelasticProperties> hydroelastic;  // absent: rigid under the hydroelastic model

  double mass_g = 300.0;             // GraspIt!'s default
  Vec3 cog_mm = Vec3::Zero();        // body frame
  Mat3 inertiaPerMass_mm2 = Mat3::Identity();
  bool cogFromFile = false, inertiaFromFile = false;
  double maxRadius_mm = 0.0;         // largest distance from the CoG to a vertex

  std::shared_ptr<const TriangleMesh> mesh;  // body frame, scale and offset baked in; collision geometry
  // The exact shape when the geometry is an analytic primitive (a <primitive> element, or an Inventor file
  // holding a single Sphere/Cube/Cylinder/Cone), body frame, scale and offset baked in; `mesh` is then its
  // tessellation (for drawing and mesh queries). Contact queries use it (src/geometry/README.md §Pair queries).
  std::optional<Primitive> primitive;
  // Geometry for drawing when it differs from the collision mesh (URDF <visual>); null: draw `mesh`.
  std::shared_ptr<const TriangleMesh> visualMesh;
  std::optional<Vec4> colour;        // RGBA in 0..1 for drawing (URDF material colour); absent: by material
  GeometrySource geometry;
  std::string sourceFile;            // absolute path of the body XML; empty for inline bodies or bare meshes
                                     // (names as a world or robot file wrote them: io/FileHistory.h)

  bool collisionEnabled = true;
  // What loading the body's files did not take as the files say, "file:line: problem" (a texture Coin could
  // not read); shown under the application's Help > Load Warnings and as the CLI's warnings.
  std::vector<std::string> loadWarnings;

  bool isSoft() const { return youngs_Pa.has_value(); }
  bool isHydroelasticCompliant() const { return hydroelastic.has_value(); }
  // E of the pressure field: the option's modulus, else <youngs>, else 0 (a reader rejects that case).
  double hydroelasticModulus_Pa() const {
    if (!hydroelastic) return 0.0;
    return hydroelastic->modulus_Pa ? *hydroelastic->modulus_Pa : youngs_Pa.value_or(0.0);
  }
  bool isDynamic() const { return kind != BodyKind::Obstacle; }
  std::size_t triangleCount() const { return mesh ? mesh->triangleCount() : 0; }
};

}  // namespace sg
