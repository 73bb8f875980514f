#pragma once
// Small helpers for tst_models: file lists of the bundled zoo and world-space bounding boxes.
#include <QDir>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "geometry/MassProperties.h"
#include "model/World.h"
#include "../support/TestPaths.h"

namespace sg::zootest {

inline std::string sourcePath(const QString& relative) {
  return (sg::test::qSourceDir() + "/" + relative).toStdString();
}
inline std::string binaryPath(const QString& relative) {
  return (sg::test::qBinaryDir() + "/" + relative).toStdString();
}

// Absolute paths of the files matching `pattern` directly in `dir` (relative to the source tree), sorted.
inline QStringList bundledFiles(const QString& dir, const QString& pattern) {
  QDir d(sg::test::qSourceDir() + "/" + dir);
  QStringList out;
  for (const QString& name : d.entryList({pattern}, QDir::Files, QDir::Name)) out << d.absoluteFilePath(name);
  return out;
}

// Every robot XML: models/robots/<Name>/<Name>.xml.
inline QStringList bundledRobots() {
  QStringList out;
  QDir robots(sg::test::qSourceDir() + "/models/robots");
  for (const QString& name : robots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (QFileInfo::exists(robots.filePath(name + "/" + name + ".xml"))) out << robots.filePath(name + "/" + name + ".xml");
  return out;
}

// Axis-aligned box of a body's mesh placed at its world pose X_WB.
inline AlignedBox worldBounds(const Body& body, const Transform& X_WB) {
  AlignedBox box;
  if (!body.mesh) return box;
  for (const Vec3& v : body.mesh->vertices) box.extend(X_WB * v);
  return box;
}

inline bool boxesOverlap(const AlignedBox& a, const AlignedBox& b, double margin_mm = 0) {
  return (a.min.array() < b.max.array() + margin_mm).all() && (b.min.array() < a.max.array() + margin_mm).all();
}

// Signed enclosed volume of a body's mesh (mm³) by the divergence theorem: positive only for a closed,
// outward-oriented mesh (an inside-out mesh gives a negative value).
inline double signedMeshVolume(const Body& body) {
  if (!body.mesh) return 0;
  double v = 0;
  for (const auto& t : body.mesh->triangles)
    v += body.mesh->vertices[t[0]].dot(body.mesh->vertices[t[1]].cross(body.mesh->vertices[t[2]])) / 6.0;
  return v;
}

}  // namespace sg::zootest
