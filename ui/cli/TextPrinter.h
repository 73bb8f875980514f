#pragma once
// Human-readable output shared by the subcommands: indented "label: value" lines and compact number
// formatting (6 significant digits, magnitudes below 1e-6 (round-off) printed as 0).
#include <ostream>
#include <string>

#include "core/Transform.h"
#include "geometry/TriangleMesh.h"

namespace sg::cli {

class TextPrinter {
 public:
  explicit TextPrinter(std::ostream& out) : out_(out) {}

  void line(const std::string& text);                              // at the current indentation
  void field(const std::string& label, const std::string& value);  // "label: value"

  // Indents everything printed while it lives.
  class Indent {
   public:
    explicit Indent(TextPrinter& printer) : printer_(printer) { ++printer_.depth_; }
    ~Indent() { --printer_.depth_; }
    Indent(const Indent&) = delete;
    Indent& operator=(const Indent&) = delete;

   private:
    TextPrinter& printer_;
  };

  static std::string number(double value);                 // "12.5", "0", "1.5e+06", "inf"
  static std::string vec(const Vec3& v);                   // "(x, y, z)"
  static std::string quatWxyz(const Quat& q);              // "(w, x, y, z)"
  static std::string box(const AlignedBox& box);           // "min (..) max (..) size (..) mm" or "empty"
  static std::string pose(const Transform& pose);          // "position (..) mm, quaternion wxyz (..)"

 private:
  std::ostream& out_;
  int depth_ = 0;
};

}  // namespace sg::cli
