#pragma once
// Small hand-written geometry files for the reader tests, and helpers to write them.
#include <QDir>
#include <QtTest>
#include <QFile>
#include <QTemporaryDir>

#include <string>

#include "core/Error.h"
#include "io/MeshIO.h"

namespace sg::testfiles {

inline std::string writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  // Remove rather than truncate: ext4 flushes a truncated-and-rewritten file to disk on close, which
  // makes the many rewrites of the robustness tests slow.
  QFile::remove(path);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(path));
  f.write(bytes);
  f.close();
  return path.toStdString();
}

// A 10 mm cube [0,10]³ with outward (counter-clockwise) quads, as OFF.
inline const char* kCubeOff =
    "OFF\n"
    "# a 10 mm cube\n"
    "8 6 12\n"
    "0 0 0\n10 0 0\n10 10 0\n0 10 0\n"
    "0 0 10\n10 0 10\n10 10 10\n0 10 10  # top corner\n"
    "4 0 3 2 1\n"  // bottom z=0, normal -z
    "4 4 5 6 7\n"  // top z=10
    "4 0 1 5 4\n"  // y=0
    "4 2 3 7 6\n"  // y=10
    "4 1 2 6 5\n"  // x=10
    "4 0 4 7 3\n"; // x=0

// The same cube as data: corners (mm) and outward quads.
inline constexpr double kCubeCorners[8][3] = {{0, 0, 0},  {10, 0, 0},  {10, 10, 0},  {0, 10, 0},
                                              {0, 0, 10}, {10, 0, 10}, {10, 10, 10}, {0, 10, 10}};
inline constexpr int kCubeQuads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                         {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};

// Expects readMesh(path) to throw an sg::Error whose text names the file and contains `fragment`.
inline void expectError(const std::string& path, const std::string& fragment = {}) {
  try {
    (void)sg::readMesh(path);
  } catch (const sg::Error& e) {
    const std::string what = e.what();
    if (qEnvironmentVariableIsSet("SG_SHOW_ERRORS")) qInfo("%s", what.c_str());
    if (what.find(path) == std::string::npos) QFAIL(("error does not name the file: " + what).c_str());
    if (!fragment.empty() && what.find(fragment) == std::string::npos)
      QFAIL(("error lacks '" + fragment + "': " + what).c_str());
    return;
  }
  QFAIL(("no error for " + path).c_str());
}

}  // namespace sg::testfiles
