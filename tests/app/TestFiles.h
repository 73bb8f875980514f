#pragma once
// Model files written by the UI tests into a temporary directory: a box mesh (OFF), a body XML using it,
// and a world XML with that body as a graspable and as an obstacle.
#include <QDir>
#include <QFile>
#include <QString>

#include "TestWorld.h"
#include "io/MeshIO.h"

namespace sg::test {

inline void writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(text);
}

// Writes box.off, box.xml and world.xml into `dir`; returns the world's path.
inline QString writeBoxWorld(const QString& dir) {
  writeOffMesh(*boxMesh(Vec3(40, 40, 40)), QDir(dir).filePath("box.off").toStdString());
  writeText(QDir(dir).filePath("box.xml"),
            "<?xml version=\"1.0\" ?>\n<root>\n  <material>plastic</material>\n  <mass>120</mass>\n"
            "  <youngs>250000</youngs>\n  <geometryFile type=\"off\">box.off</geometryFile>\n</root>\n");
  const QString world = QDir(dir).filePath("world.xml");
  writeText(world,
            "<?xml version=\"1.0\" ?>\n<world>\n"
            "  <obstacle>\n    <filename>box.xml</filename>\n"
            "    <transform><fullTransform>(+1 +0 +0 +0)[+0 +0 -100]</fullTransform></transform>\n  </obstacle>\n"
            "  <graspableBody>\n    <filename>box.xml</filename>\n"
            "    <transform><fullTransform>(+1 +0 +0 +0)[+50 +0 +0]</fullTransform></transform>\n  </graspableBody>\n"
            "</world>\n");
  return world;
}

}  // namespace sg::test
