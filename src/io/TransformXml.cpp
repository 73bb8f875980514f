#include "io/TransformXml.h"

#include <cmath>
#include <cstring>

#include "core/Parse.h"
#include "io/NumberChecks.h"

namespace sg::xml {

namespace {

Transform parseRotation(const Element& e, const std::string& file) {
  const std::string t = text(e);
  const auto tokens = splitWhitespace(t);
  const auto angle_deg = tokens.size() == 2 ? parseDouble(tokens[0]) : std::nullopt;
  if (!angle_deg) throw errorAt(file, e, "<rotation> must be '<angle in degrees> x|y|z', found '" + t + "'");
  requireMagnitude(file, e, *angle_deg, kMaxAngle_deg, "angle", "deg");
  const std::string_view axisName = tokens[1];
  Vec3 axis;
  if (axisName == "x" || axisName == "X")
    axis = Vec3::UnitX();
  else if (axisName == "y" || axisName == "Y")
    axis = Vec3::UnitY();
  else if (axisName == "z" || axisName == "Z")
    axis = Vec3::UnitZ();
  else
    throw errorAt(file, e, "<rotation> axis must be x, y or z, found '" + std::string(axisName) + "'");
  return Transform::fromAxisAngle(axis, degToRad(*angle_deg));
}

Transform parseRotationMatrix(const Element& e, const std::string& file) {
  const auto v = numbers(e, file, 9);
  // Column-major: the first three numbers are the image of the local x axis.
  Mat3 R;
  R << v[0], v[3], v[6], v[1], v[4], v[7], v[2], v[5], v[8];
  const double det = R.determinant();
  if (!(std::abs(det - 1.0) < 1e-2) || !((R.transpose() * R - Mat3::Identity()).norm() < 1e-2))
    throw errorAt(file, e, "<rotationMatrix> is not a rotation (determinant " + formatDouble(det) + ")");
  return Transform::fromMatrix(R, Vec3::Zero());
}

// The numbers of "(qw qx qy qz)[x y z]": a quaternion must be non-zero and finite once normalised (GraspIt!
// and Eigen turn (1e308, 1e308, 0, 0) into 0 0 0 0, which no longer loads once saved), translations bounded.
void checkFullTransformNumbers(const Element& e, const std::string& file) {
  std::string t = text(e);
  const auto close = t.find(')');
  if (t.find('(') == std::string::npos || close == std::string::npos) return;  // the parser reports the syntax
  for (char& ch : t)
    if (ch == '(' || ch == ')' || ch == '[' || ch == ']') ch = ' ';
  const auto q = parseDoubleList(std::string_view(t).substr(0, close));
  const auto v = parseDoubleList(std::string_view(t).substr(close + 1));
  if (!q || !v || q->size() != 4 || v->size() != 3) return;
  for (double x : *q) requireMagnitude(file, e, x, kMaxMagnitude, "quaternion component", "");
  for (double x : *v) requireMagnitude(file, e, x, kMaxLength_mm, "translation", "mm");
  const Quat quat((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
  if (!(quat.norm() >= 1e-9)) throw errorAt(file, e, "<fullTransform> has a zero quaternion");
  if (!quat.normalized().coeffs().allFinite()) throw errorAt(file, e, "<fullTransform> quaternion cannot be normalised");
}

}  // namespace

Transform parseTransform(const Element& transformElement, const std::string& file) {
  Transform T;
  for (const Element* c = transformElement.FirstChildElement(); c; c = c->NextSiblingElement()) {
    const char* name = c->Name();
    Transform step;
    if (std::strcmp(name, "translation") == 0) {
      const Vec3 v = vec3(*c, file);
      for (int i = 0; i < 3; ++i) requireMagnitude(file, *c, v[i], kMaxLength_mm, "value", "mm");
      step = Transform::fromTranslation(v);
    } else if (std::strcmp(name, "rotation") == 0) {
      step = parseRotation(*c, file);
    } else if (std::strcmp(name, "rotationMatrix") == 0) {
      step = parseRotationMatrix(*c, file);
    } else if (std::strcmp(name, "fullTransform") == 0) {
      checkFullTransformNumbers(*c, file);
      const auto t = Transform::parseFullTransform(text(*c));
      if (!t)
        throw errorAt(file, *c, "<fullTransform> must be '(qw qx qy qz)[x y z]' with finite numbers, found '" +
                                    text(*c) + "'");
      step = *t;
    } else {
      throw errorAt(file, *c, "unknown element " + tagOf(*c) +
                                  " in <transform> (expected translation, rotation, rotationMatrix or "
                                  "fullTransform)");
    }
    T = T * step;
  }
  return T;
}

Transform childTransform(const Element& parent, const std::string& file) {
  const Element* t = child(parent, "transform");
  return t ? parseTransform(*t, file) : Transform::identity();
}

Quat normalizationFixedPoint(const Quat& rotation) {
  Quat q = rotation.normalized();
  auto isFixed = [](const Quat& c) { return c.normalized().coeffs() == c.coeffs(); };
  for (int i = 0; i < 4 && !isFixed(q); ++i) q = q.normalized();
  if (isFixed(q)) return q;
  // Normalisation can cycle between neighbours: nudge the largest component by a few ulps instead.
  Eigen::Index big = 0;
  q.coeffs().cwiseAbs().maxCoeff(&big);
  for (int k = 1; k <= 64; ++k)
    for (double dir : {1.0, -1.0}) {
      Quat c = q;
      double& v = c.coeffs()[big];
      for (int step = 0; step < k; ++step) v = std::nextafter(v, dir * 2.0);
      if (isFixed(c)) return c;
    }
  return q;
}

std::string transformXml(const Transform& t, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const Transform stable(normalizationFixedPoint(t.rotation()), t.translation());
  return concat({pad, "<transform>\n", pad, "  <fullTransform>", stable.toFullTransformString(), "</fullTransform>\n",
                 pad, "</transform>\n"});
}

}  // namespace sg::xml
