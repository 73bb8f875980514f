// sg_model_generator — builds SoftGrasp's procedural model-zoo meshes.
//
//   sg_model_generator objects <models/objects dir>
//       (Re)writes the small committed meshes: mug.iv, cylinder.off, cone.ply, torus.obj, box.stl.
//   sg_model_generator bumpy <build dir> <source dir>
//       Writes the large scan-like mesh and its body XML to <build dir>/models/objects/ (bumpy.ply, bumpy.xml)
//       and a world using it to <build dir>/worlds/threefinger_bumpy.xml. Run at build time (target `models`),
//       so the ~80k-triangle mesh never enters the repository.
//
// Every mesh is checked to be closed-looking and outward oriented (positive signed volume) before writing.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>

#include "MeshFileWriters.h"
#include "ShapeBuilders.h"

namespace fs = std::filesystem;
using namespace sg;
using namespace sg::zoo;

namespace {

void requireOutward(const TriangleMesh& mesh, const std::string& name) {
  const double v = signedVolume(mesh);
  if (!(v > 0)) throw std::runtime_error(name + ": signed volume " + std::to_string(v) + " mm^3 is not positive");
}

// A 90 mm mug, 70 mm across, 3 mm wall, 8 mm bottom; base centred on the origin, handle towards +x.
TriangleMesh mug() {
  const std::vector<Vec2> profile = {
      {0, 0},      {31, 0},     {34, 1},     {35, 4},     {35, 88},    {34.8, 89.4}, {34.2, 90.2},
      {33.5, 90.5}, {32.8, 90.2}, {32.2, 89.4}, {32, 88},  {32, 11},    {31.2, 8.8},  {29, 8},
      {0, 8}};
  TriangleMesh body = lathe(profile, 64);
  // Handle: a tube of radius 5.5 mm on a 22 mm arc, its capped ends buried in the 3 mm wall (x ≈ 34 mm).
  const double halfAngle = std::acos((34.0 - 38.0) / 22.0);
  TriangleMesh handle = handleArc(Vec3(38, 0, 50), 22, 5.5, halfAngle, 28, 16);
  requireOutward(body, "mug body");
  requireOutward(handle, "mug handle");
  body.append(handle);
  return body;
}

void writeCommittedObjects(const fs::path& dir) {
  fs::create_directories(dir);
  const TriangleMesh m = mug();
  requireOutward(m, "mug");
  writeInventor(m, (dir / "mug.iv").string(), {Vec3(0.86, 0.9, 0.95), 0.15, 0.6},
                "SoftGrasp mug: 70 mm diameter, 90 mm high, hollow, handle towards +x; base centred on the origin");

  const TriangleMesh cylinder = lathe({{0, 0}, {30, 0}, {30, 120}, {0, 120}}, 48);
  requireOutward(cylinder, "cylinder");
  writeOff(cylinder, (dir / "cylinder.off").string(), "SoftGrasp cylinder: radius 30 mm, height 120 mm, base on z=0");

  const TriangleMesh cone = lathe({{0, 0}, {35, 0}, {0, 90}}, 48);
  requireOutward(cone, "cone");
  writePlyAscii(cone, (dir / "cone.ply").string(), "SoftGrasp cone: base radius 35 mm, height 90 mm, base on z=0");

  const TriangleMesh ring = torus(40, 12, 48, 24);
  requireOutward(ring, "torus");
  writeObj(ring, (dir / "torus.obj").string(), "SoftGrasp torus: major radius 40 mm, tube radius 12 mm, axis z");

  const TriangleMesh box = boxOnBase(50, 70, 90);
  requireOutward(box, "box");
  writeStlAscii(box, (dir / "box.stl").string(), "softgrasp_box_50x70x90mm");
}

const char* kBumpyBodyXml = R"(<?xml version="1.0" ?>
<!-- Generated at build time by models/generator (sg_model_generator bumpy); do not edit.
     A scan-like pebble, about 90 x 70 x 60 mm, 81920 triangles, centred on the origin. -->
<root>
  <material>stone</material>
  <mass>250</mass>
  <geometryFile type="ply">bumpy.ply</geometryFile>
</root>
)";

std::string bumpyWorldXml(const fs::path& sourceDir) {
  const std::string robot = (sourceDir / "models/robots/ThreeFinger/ThreeFinger.xml").lexically_normal().string();
  return R"(<?xml version="1.0" ?>
<!-- Generated at build time by models/generator; the pebble lives in this build tree, the hand in the source tree.
     Hand palm down 20 mm above the pebble, fingers spread to a tripod (spread 60 deg = 1.047198 rad). -->
<world>
  <graspableBody>
    <filename>models/objects/bumpy.xml</filename>
    <transform><fullTransform>(+1 +0 +0 +0)[+0 +0 +0]</fullTransform></transform>
  </graspableBody>
  <robot>
    <filename>)" + robot + R"(</filename>
    <dofValues>1.047198 0 0 0 0 0 0 0 0 0</dofValues>
    <transform><fullTransform>(+0 +1 +0 +0)[+0 +0 +58]</fullTransform></transform>
  </robot>
  <camera>
    <position>+200 -260 +180</position>
    <orientation>+0.487041 +0.165653 +0.276129 +0.811852</orientation>
    <focalDistance>+371.8</focalDistance>
  </camera>
</world>
)";
}

void writeBumpy(const fs::path& buildDir, const fs::path& sourceDir) {
  const fs::path objects = buildDir / "models" / "objects";
  const fs::path worlds = buildDir / "worlds";
  fs::create_directories(objects);
  fs::create_directories(worlds);
  const TriangleMesh stone = bumpyStone(6, Vec3(45, 35, 30), 4.0);
  requireOutward(stone, "bumpy");
  writePlyBinaryLittleEndian(stone, (objects / "bumpy.ply").string(), "SoftGrasp scan-like pebble (mm)");
  writeText(kBumpyBodyXml, (objects / "bumpy.xml").string());
  writeText(bumpyWorldXml(sourceDir), (worlds / "threefinger_bumpy.xml").string());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "objects" && argc == 3) {
      writeCommittedObjects(argv[2]);
    } else if (command == "bumpy" && argc == 4) {
      writeBumpy(argv[2], argv[3]);
    } else {
      std::cerr << "usage: sg_model_generator objects <models/objects dir>\n"
                   "       sg_model_generator bumpy <build dir> <source dir>\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "sg_model_generator: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
