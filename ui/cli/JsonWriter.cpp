#include "JsonWriter.h"

#include <QJsonDocument>
#include <QString>
#include <cmath>

namespace sg::cli {

QJsonValue jsonNumber(double value) { return std::isfinite(value) ? QJsonValue(value) : QJsonValue(); }

QJsonValue jsonString(const std::string& text) { return QString::fromStdString(text); }

QJsonArray jsonVec(const Vec3& v) { return {jsonNumber(v.x()), jsonNumber(v.y()), jsonNumber(v.z())}; }

QJsonArray jsonQuatWxyz(const Quat& q) {
  return {jsonNumber(q.w()), jsonNumber(q.x()), jsonNumber(q.y()), jsonNumber(q.z())};
}

QJsonArray jsonMatrixRows(const Mat3& m) {
  QJsonArray rows;
  for (int r = 0; r < 3; ++r) rows.append(QJsonArray{jsonNumber(m(r, 0)), jsonNumber(m(r, 1)), jsonNumber(m(r, 2))});
  return rows;
}

QJsonValue jsonBox(const AlignedBox& box) {
  if (box.empty()) return QJsonValue();
  return QJsonObject{{"min", jsonVec(box.min)}, {"max", jsonVec(box.max)}, {"size", jsonVec(box.size())}};
}

QJsonObject jsonPose(const Transform& pose) {
  return QJsonObject{{"position_mm", jsonVec(pose.translation())},
                     {"quaternion_wxyz", jsonQuatWxyz(pose.rotation())},
                     {"rotation", jsonMatrixRows(pose.rotationMatrix())},
                     {"fullTransform", jsonString(pose.toFullTransformString())}};
}

void writeJson(std::ostream& out, const QJsonObject& document) {
  const QByteArray bytes = QJsonDocument(document).toJson(QJsonDocument::Indented);
  out.write(bytes.constData(), bytes.size());
  if (!bytes.endsWith('\n')) out << '\n';
  out.flush();
}

}  // namespace sg::cli
