#pragma once
// Helpers for the io_xml suites: a GraspIt!-style directory tree in a QTemporaryDir (ROOT/worlds,
// ROOT/models/objects, ROOT/models/robots/<R>/{iv,eigen,virtual}) filled with text written by the tests,
// closed box meshes as OFF text, and error-message checks.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/Error.h"
#include "core/Math.h"

namespace sgtest {

// Writes `text` to `path`, creating parent directories.
inline void writeText(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  QVERIFY2(out.good(), path.c_str());
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A closed box [min, max] as OFF text: 8 vertices, 12 outward (counter-clockwise) triangles.
inline std::string boxOff(const sg::Vec3& lo, const sg::Vec3& hi) {
  std::string s = "OFF\n8 12 0\n";
  for (int i = 0; i < 8; ++i) {
    // Vertex order: 0 (---) 1 (+--) 2 (++-) 3 (-+-) 4 (--+) 5 (+-+) 6 (+++) 7 (-++)
    static const int sx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, sy[8] = {0, 0, 1, 1, 0, 0, 1, 1},
                     sz[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    s += std::to_string(sx[i] ? hi.x() : lo.x()) + " " + std::to_string(sy[i] ? hi.y() : lo.y()) + " " +
         std::to_string(sz[i] ? hi.z() : lo.z()) + "\n";
  }
  s += "3 0 3 2\n3 0 2 1\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n3 2 3 7\n3 2 7 6\n3 0 4 7\n3 0 7 3\n3 1 2 6\n3 1 6 5\n";
  return s;
}
inline std::string cubeOff(double half) { return boxOff(sg::Vec3::Constant(-half), sg::Vec3::Constant(half)); }

// The same box as Open Inventor 2.1 text (Coordinate3 + IndexedFaceSet).
inline std::string boxIv(const sg::Vec3& lo, const sg::Vec3& hi) {
  static const int sx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, sy[8] = {0, 0, 1, 1, 0, 0, 1, 1}, sz[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  std::string s = "#Inventor V2.1 ascii\n\nSeparator {\n  Coordinate3 {\n    point [\n";
  for (int i = 0; i < 8; ++i)
    s += "      " + std::to_string(sx[i] ? hi.x() : lo.x()) + " " + std::to_string(sy[i] ? hi.y() : lo.y()) + " " +
         std::to_string(sz[i] ? hi.z() : lo.z()) + (i < 7 ? ",\n" : "\n");
  s += "    ]\n  }\n  IndexedFaceSet {\n    coordIndex [ 0, 3, 2, -1, 0, 2, 1, -1, 4, 5, 6, -1, 4, 6, 7, -1, 0, 1, 5, -1,"
       " 0, 5, 4, -1, 2, 3, 7, -1, 2, 7, 6, -1, 0, 4, 7, -1, 0, 7, 3, -1, 1, 2, 6, -1, 1, 6, 5, -1 ]\n  }\n}\n";
  return s;
}

// 1-based line of the first occurrence of `needle` in `text` (0 if absent).
inline int lineOf(const std::string& text, const std::string& needle) {
  const auto pos = text.find(needle);
  if (pos == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// Runs `f`, which must throw sg::Error; returns what().
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const sg::Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("NOT AN sg::Error: ") + e.what();
  }
  return "NO ERROR THROWN";
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A GraspIt!-like tree in a fresh temporary directory.
struct Tree {
  QTemporaryDir tmp;
  std::string root() const { return tmp.path().toStdString(); }
  std::string path(const std::string& rel) const { return root() + "/" + rel; }
  std::string write(const std::string& rel, const std::string& text) const {
    writeText(path(rel), text);
    return path(rel);
  }
};

}  // namespace sgtest

// Asserts that `expr` throws an sg::Error whose message contains `file` and ":line" and `what`.
#define SG_VERIFY_ERROR_AT(expr, file, line, what)                                                     \
  do {                                                                                                 \
    const std::string msg_ = sgtest::errorOf([&] { (void)(expr); });                                   \
    const std::string where_ = std::string(file) + ":" + std::to_string(line);                         \
    QVERIFY2(sgtest::contains(msg_, where_), (msg_ + "  [expected location " + where_ + "]").c_str()); \
    QVERIFY2(sgtest::contains(msg_, what), (msg_ + "  [expected text: " + std::string(what) + "]").c_str()); \
  } while (0)
