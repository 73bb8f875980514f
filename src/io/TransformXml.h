#pragma once
// GraspIt! <transform> elements (src/io/FORMATS.md §Transform), internal to src/io.
#include <string>

#include "core/Transform.h"
#include "io/XmlHelpers.h"

namespace sg::xml {

// The children of `transformElement` composed left to right, T = T1·T2·…·Tn (the first child is applied
// last to points). Children: <translation>x y z</translation>, <rotation>angleDeg x|y|z</rotation>,
// <rotationMatrix> (9 numbers, column-major), <fullTransform>(qw qx qy qz)[x y z]</fullTransform>.
// Unknown children are an error (GraspIt! silently treats them as identity).
Transform parseTransform(const Element& transformElement, const std::string& file);
// The <transform> child of `parent`, identity if there is none.
Transform childTransform(const Element& parent, const std::string& file);

// The unit quaternion nearest `rotation` (within a few ulps) that normalisation leaves unchanged. Written
// transforms use it so that reading (which normalises) and writing again gives the same text.
Quat normalizationFixedPoint(const Quat& rotation);

// <transform> holding one <fullTransform>, three lines indented by `indent` spaces, ending in a newline.
std::string transformXml(const Transform& t, int indent);

}  // namespace sg::xml
