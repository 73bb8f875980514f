#include "TextPrinter.h"

#include <cmath>

#include "core/NumberFormat.h"

namespace sg::cli {

void TextPrinter::line(const std::string& text) { out_ << std::string(2 * depth_, ' ') << text << '\n'; }

void TextPrinter::field(const std::string& label, const std::string& value) { line(label + ": " + value); }

std::string TextPrinter::number(double value) {
  if (std::abs(value) < 1e-6) value = 0;  // display only (1 nm, 1 µrad): JSON keeps the exact value
  return formatGeneral(value, 6);
}

std::string TextPrinter::vec(const Vec3& v) {
  return std::string("(") + number(v.x()) + ", " + number(v.y()) + ", " + number(v.z()) + ")";
}

std::string TextPrinter::quatWxyz(const Quat& q) {
  return std::string("(") + number(q.w()) + ", " + number(q.x()) + ", " + number(q.y()) + ", " + number(q.z()) + ")";
}

std::string TextPrinter::box(const AlignedBox& b) {
  if (b.empty()) return "empty";
  return std::string("min ") + vec(b.min) + " max " + vec(b.max) + " size " + vec(b.size()) + " mm";
}

std::string TextPrinter::pose(const Transform& p) {
  return std::string("position ") + vec(p.translation()) + " mm, quaternion wxyz " + quatWxyz(p.rotation());
}

}  // namespace sg::cli
