#include "core/JsonGeometry.h"

namespace sg {

Json jsonCount(std::size_t n) { return Json(static_cast<double>(n)); }

Json jsonVec(const Vec3& v) {
  Json a = Json::array();
  for (int k = 0; k < 3; ++k) a.push(v[k]);
  return a;
}

Json jsonVec6(const Vec6& v) {
  Json a = Json::array();
  for (int k = 0; k < 6; ++k) a.push(v[k]);
  return a;
}

Json jsonVec6List(const std::vector<Vec6>& list) {
  Json a = Json::array();
  for (const Vec6& v : list) a.push(jsonVec6(v));
  return a;
}

Json jsonNumbers(const std::vector<double>& values) {
  Json a = Json::array();
  for (const double v : values) a.push(v);
  return a;
}

Json jsonStrings(const std::vector<std::string>& values) {
  Json a = Json::array();
  for (const std::string& s : values) a.push(s);
  return a;
}

Json jsonQuatWxyz(const Quat& q) {
  Json a = Json::array();
  for (const double v : {q.w(), q.x(), q.y(), q.z()}) a.push(v);
  return a;
}

Json jsonMatrixRows(const Mat3& m) {
  Json rows = Json::array();
  for (int r = 0; r < 3; ++r) rows.push(jsonVec(m.row(r).transpose()));
  return rows;
}

Json jsonPose(const Transform& pose) {
  Json o = Json::object();
  o.set("position_mm", jsonVec(pose.translation()));
  o.set("quaternion_wxyz", jsonQuatWxyz(pose.rotation()));
  o.set("rotation", jsonMatrixRows(pose.rotationMatrix()));
  o.set("fullTransform", pose.toFullTransformString());
  return o;
}

}  // namespace sg
