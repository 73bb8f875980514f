#pragma once
// JSON building blocks shared by the subcommands (Qt Core's QJson*): engine types to JSON values with
// the units in the key names, and the writer that puts a document on stdout.
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <ostream>

#include "core/Transform.h"
#include "geometry/TriangleMesh.h"

namespace sg::cli {

QJsonValue jsonNumber(double value);            // null for NaN/inf (JSON has no such numbers)
QJsonValue jsonString(const std::string& text);
QJsonArray jsonVec(const Vec3& v);              // [x, y, z]
QJsonArray jsonQuatWxyz(const Quat& q);         // [w, x, y, z]
QJsonArray jsonMatrixRows(const Mat3& m);       // [[row 0], [row 1], [row 2]]
QJsonValue jsonBox(const AlignedBox& box);      // {"min", "max", "size"} in mm; null when empty
// {"position_mm": [...], "quaternion_wxyz": [...], "rotation": rows, "fullTransform": "(w x y z)[x y z]"}
QJsonObject jsonPose(const Transform& pose);

// Indented UTF-8 JSON followed by a newline.
void writeJson(std::ostream& out, const QJsonObject& document);

}  // namespace sg::cli
