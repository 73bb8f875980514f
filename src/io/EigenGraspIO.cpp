// Eigengrasp files (src/io/FORMATS.md §Eigengrasps).
#include <cmath>
#include <cstring>

#include "core/Parse.h"
#include "io/ModelIO.h"
#include "io/XmlHelpers.h"

namespace sg {

namespace {

using xml::Element;

// The attributes d0..d<D-1> of a <DimVals>; entries not given are `missing`.
VecX readDimVals(const Element& e, int dimensions, double missing, const std::string& file) {
  VecX v = VecX::Constant(dimensions, missing);
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
    const std::string_view name = a->Name();
    const auto index = name.size() > 1 && name[0] == 'd' ? parseInt(name.substr(1)) : std::nullopt;
    if (!index || *index < 0 || *index >= dimensions)
      throw xml::errorAt(file, e, "<DimVals> attribute '" + std::string(name) + "' is not one of d0..d" +
                                      std::to_string(dimensions - 1));
    const auto value = parseDouble(a->Value());
    if (!value)
      throw xml::errorAt(file, e, "<DimVals> attribute " + std::string(name) + " is not a finite number: '" +
                                      a->Value() + "'");
    if (!(std::abs(*value) <= 1e15))
      throw xml::errorAt(file, e, "<DimVals> attribute " + std::string(name) + " is out of range: '" + a->Value() +
                                      "' (limit ±1e+15)");
    v[*index] = *value;
  }
  return v;
}

const Element& requireDimVals(const Element& parent, const std::string& file) {
  return xml::requireChild(parent, "DimVals", file);
}

}  // namespace

EigenGraspSet loadEigenGrasps(const std::string& path, int dofCount) {
  const std::string file = absolutePath(path);
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, file);
  const Element& root = xml::rootOf(doc, file);
  if (std::strcmp(root.Name(), "EigenGrasps") != 0)
    throw xml::errorAt(file, root, "root element is " + xml::tagOf(root) + ", expected <EigenGrasps>");
  const auto dims = xml::attributeInteger(root, "dimensions", file);
  if (!dims) throw xml::errorAt(file, root, "<EigenGrasps> has no dimensions attribute");
  if (*dims != dofCount)
    throw xml::errorAt(file, root, "<EigenGrasps> has dimensions=\"" + std::to_string(*dims) + "\" but the robot has " +
                                       std::to_string(dofCount) + " DOF(s)");

  EigenGraspSet set;
  set.sourceFile = file;
  for (const Element* eg = root.FirstChildElement("EG"); eg; eg = eg->NextSiblingElement("EG")) {
    EigenGrasp g;
    if (const Element* ev = xml::child(*eg, "EigenValue")) g.eigenValue = xml::attributeNumber(*ev, "value", file).value_or(0.5);
    if (const Element* lim = xml::child(*eg, "Limits")) {
      g.minAmplitude = xml::attributeNumber(*lim, "min", file);
      g.maxAmplitude = xml::attributeNumber(*lim, "max", file);
      if (g.minAmplitude && g.maxAmplitude && *g.minAmplitude > *g.maxAmplitude)
        throw xml::errorAt(file, *lim, "<Limits> min is above max");
    }
    const Element& dv = requireDimVals(*eg, file);
    g.direction = readDimVals(dv, dofCount, 0.0, file);
    const double n = g.direction.norm();
    if (!(n > 1e-12)) throw xml::errorAt(file, dv, "eigengrasp vector is zero");
    g.direction /= n;
    set.grasps.push_back(std::move(g));
  }
  if (set.grasps.empty()) throw xml::errorAt(file, root, "<EigenGrasps> has no <EG>");

  if (const Element* o = xml::child(root, "ORIGIN")) {
    set.origin = readDimVals(requireDimVals(*o, file), dofCount, 0.0, file);
    set.hasOrigin = true;
  }
  set.norm = VecX::Ones(dofCount);
  if (const Element* nm = xml::child(root, "NORM")) {
    const Element& dv = requireDimVals(*nm, file);
    set.norm = readDimVals(dv, dofCount, 1.0, file);  // a DOF not named keeps scale 1
    if ((set.norm.array() == 0.0).any()) throw xml::errorAt(file, dv, "<NORM> scale factors must not be 0");
  }
  return set;
}

}  // namespace sg
