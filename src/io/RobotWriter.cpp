// Robot XML writer (src/io/FORMATS.md §Robot): the inverse of loadRobot for what a GraspIt! robot file can say.
// Joints are written from the DH parameters they were built from, so a load → save → load round trip keeps
// every DH value bit for bit (angles are written in degrees that convert back to the same radians).
#include <cmath>

#include "core/Parse.h"
#include "io/AtomicFile.h"
#include "io/ModelIO.h"
#include "io/TransformXml.h"

namespace sg {

namespace {

// Degrees text for `rad` that degToRad turns back into exactly `rad`: the shortest such text among the
// doubles next to radToDeg(rad) (so 30° read as radians is written "30", not "29.999999999999996").
std::string degreesText(double rad) {
  std::string best = formatDouble(radToDeg(rad));
  bool exact = degToRad(radToDeg(rad)) == rad;
  double lo = radToDeg(rad), hi = lo;
  for (int i = 0; i < 4; ++i) {
    lo = std::nextafter(lo, -HUGE_VAL), hi = std::nextafter(hi, HUGE_VAL);
    for (const double deg : {lo, hi}) {
      if (degToRad(deg) != rad) continue;
      const std::string text = formatDouble(deg);
      if (!exact || text.size() < best.size()) best = text, exact = true;
    }
  }
  return best;
}

std::string element(const char* tag, const std::string& text, int indent) {
  return xml::concat({std::string(static_cast<std::size_t>(indent), ' '), "<", tag, ">", xml::escape(text), "</", tag,
                      ">\n"});
}

std::string dofTypeLetter(DofType type) {
  switch (type) {
    case DofType::Rigid: return "r";
    case DofType::BreakAway: return "b";
    case DofType::Compliant: return "c";
  }
  return "r";
}

std::string dofXml(const Dof& d) {
  std::string out = xml::concat({"  <dof type=\"", dofTypeLetter(d.type), "\">\n"});
  out += element("defaultVelocity", formatDouble(d.defaultVelocity), 4);
  out += element("maxEffort", formatDouble(d.maxEffort), 4);
  out += element("Kp", formatDouble(d.kp), 4);
  out += element("Kd", formatDouble(d.kd), 4);
  out += element("draggerScale", formatDouble(d.draggerScale), 4);
  // As the reader: degrees unless the DOF drives only prismatic joints.
  out += element("defaultValue", d.prismatic ? formatDouble(d.defaultValue) : degreesText(d.defaultValue), 4);
  if (d.type == DofType::BreakAway) out += element("breakAwayTorque", formatDouble(d.breakAwayTorque), 4);
  out += "  </dof>\n";
  return out;
}

// "d<N>[*ratio][+offset]"; `offset` already in file units.
std::string expressionText(const DofExpression& e, const std::string& offset, bool hasOffset) {
  // concat, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
  return xml::concat({"d", std::to_string(e.dof), e.ratio != 1.0 ? "*" : "", e.ratio != 1.0 ? formatDouble(e.ratio) : "",
                      hasOffset && offset.front() != '-' ? "+" : "", hasOffset ? offset : ""});
}

std::string jointXml(const Joint& j, int chain, int index) {
  const std::string where = "chain " + std::to_string(chain) + " joint " + std::to_string(index);
  if (!j.dh) throw Error("cannot write " + where + " as GraspIt! XML: it has no DH parameters");
  if (j.type == JointType::Fixed) throw Error("cannot write " + where + " as GraspIt! XML: fixed joints are not DH joints");
  const bool revolute = j.type == JointType::Revolute;
  const DhParameters& dh = *j.dh;
  // The file's variable parameter is the expression alone: its constant part joins the offset.
  const double offset = j.expr.offset + (revolute ? dh.theta_rad : dh.d_mm);
  const std::string expr =
      expressionText(j.expr, revolute ? degreesText(offset) : formatDouble(offset), offset != 0);
  std::string out = xml::concat({"    <joint type=\"", revolute ? "Revolute" : "Prismatic", "\">\n"});
  out += element("theta", revolute ? expr : degreesText(dh.theta_rad), 6);
  out += element("d", revolute ? formatDouble(dh.d_mm) : expr, 6);
  out += element("a", formatDouble(dh.a_mm), 6);
  out += element("alpha", degreesText(dh.alpha_rad), 6);
  out += element("minValue", revolute ? degreesText(j.minValue) : formatDouble(j.minValue), 6);
  out += element("maxValue", revolute ? degreesText(j.maxValue) : formatDouble(j.maxValue), 6);
  if (j.viscousFriction != 0) out += element("viscousFriction", formatDouble(j.viscousFriction), 6);
  if (j.coulombFriction != 0) out += element("CoulombFriction", formatDouble(j.coulombFriction), 6);
  if (j.springStiffness != 0) out += element("springStiffness", formatDouble(j.springStiffness), 6);
  if (j.restValue != 0) out += element("restValue", formatDouble(j.restValue), 6);
  out += "    </joint>\n";
  return out;
}

std::string linkJointTypeText(LinkJointType type) {
  switch (type) {
    case LinkJointType::Revolute: return "Revolute";
    case LinkJointType::Prismatic: return "Prismatic";
    case LinkJointType::Universal: return "Universal";
    case LinkJointType::Ball: return "Ball";
  }
  return "Revolute";
}

// A body file as the reader looks it up: relative to `baseDir` when below it, else absolute.
std::string bodyFileText(const Body& body, const std::string& fallback, const std::string& baseDir) {
  return body.sourceFile.empty() ? fallback : relativePath(body.sourceFile, baseDir);
}

std::string chainXml(const Chain& chain, int index, const std::string& linkDir, const RobotFileHistory* history) {
  if (chain.parent && chain.parent->chain >= 0)
    throw Error("cannot write chain " + std::to_string(index) +
                " as GraspIt! XML: it hangs off a link, and GraspIt! chains hang off the palm");
  std::string out = "  <chain>\n" + xml::transformXml(chain.base, 4);
  for (std::size_t j = 0; j < chain.joints.size(); ++j) out += jointXml(chain.joints[j], index, static_cast<int>(j));
  for (std::size_t l = 0; l < chain.links.size(); ++l) {
    const Link& link = chain.links[l];
    const std::string asWritten = history ? history->bodyFile({index, static_cast<int>(l)}) : std::string();
    out += xml::concat({"    <link dynamicJointType=\"", linkJointTypeText(link.jointType), "\"",
                        link.collisionOff ? " collisionRule=\"Off\"" : "", ">",
                        xml::escape(bodyFileText(link.body, asWritten, linkDir)), "</link>\n"});
  }
  out += "  </chain>\n";
  return out;
}

}  // namespace

std::string robotToXml(const Robot& robot, const std::string& robotDir, const RobotFileHistory* history) {
  const std::string linkDir = robotDir + "/iv";
  std::string out = "<?xml version=\"1.0\" ?>\n";
  out += xml::concat({"<robot type=\"", xml::escape(robot.type), "\" DBName=\"", xml::escape(robot.dbName), "\">\n"});
  out += element("palm", bodyFileText(robot.palm, history ? history->palmFile : std::string(), linkDir), 2);
  for (const Dof& d : robot.dofs) out += dofXml(d);
  for (std::size_t c = 0; c < robot.chains.size(); ++c)
    out += chainXml(robot.chains[c], static_cast<int>(c), linkDir, history);
  // Link collision rules were merged into disabledPairs on reading; written back as <disableCollision>.
  for (const auto& [a, b] : robot.disabledPairs)
    out += xml::concat({"  <disableCollision body1_chain=\"", std::to_string(a.chain), "\" body1_link=\"",
                        std::to_string(a.link), "\" body2_chain=\"", std::to_string(b.chain), "\" body2_link=\"",
                        std::to_string(b.link), "\"/>\n"});
  if (robot.approach) {
    const Vec3 ref = robot.approach->translation();
    const Vec3 dir = robot.approach->rotationMatrix().col(2);
    out += "  <approachDirection>\n";
    out += element("referenceLocation", xml::joinNumbers(ref.data(), 3), 4);
    out += element("direction", xml::joinNumbers(dir.data(), 3), 4);
    out += "  </approachDirection>\n";
  }
  if (!robot.eigengrasps.sourceFile.empty())
    out += element("eigenGrasps", relativePath(robot.eigengrasps.sourceFile, robotDir), 2);
  out += "</robot>\n";
  return out;
}

void saveRobot(const Robot& robot, const std::string& path, const RobotFileHistory* history) {
  const std::string file = absolutePath(path);
  writeFileAtomically(file, robotToXml(robot, directoryOf(file), history));
}

}  // namespace sg
