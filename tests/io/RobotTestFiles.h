#pragma once
// Robot files written by the io_xml tests into a GraspIt!-style tree (ROOT/models/robots/<R>/...).
#include <string>

#include "XmlTestTree.h"

namespace sgtest {

inline std::string dofXml(const char* type, double defaultValueInFile, const std::string& extra = {}) {
  return std::string("  <dof type=\"") + type +
         "\">\n    <defaultVelocity>1.0</defaultVelocity>\n    <maxEffort>5.0e+10</maxEffort>\n"
         "    <Kp>1.0e+11</Kp>\n    <Kd>1.0e+7</Kd>\n    <draggerScale>20</draggerScale>\n"
         "    <defaultValue>" +
         std::to_string(defaultValueInFile) + "</defaultValue>\n" + extra + "  </dof>\n";
}

inline std::string revoluteJointXml(const std::string& theta, double a_mm, double minDeg, double maxDeg,
                                    double alphaDeg = 0, const std::string& extra = {}) {
  return "    <joint type=\"Revolute\">\n      <theta>" + theta + "</theta>\n      <d>0</d>\n      <a>" +
         std::to_string(a_mm) + "</a>\n      <alpha>" + std::to_string(alphaDeg) + "</alpha>\n      <minValue>" +
         std::to_string(minDeg) + "</minValue>\n      <maxValue>" + std::to_string(maxDeg) + "</maxValue>\n" + extra +
         "    </joint>\n";
}

inline std::string linkBodyXml(const std::string& mesh, const char* material = "plastic") {
  return std::string("<?xml version=\"1.0\" ?>\n<root>\n  <material>") + material +
         "</material>\n  <mass>100</mass>\n  <geometryFile type=\"off\">" + mesh + "</geometryFile>\n</root>\n";
}

// A planar two-link arm: base at (10,0,0) in the palm frame, links of 100 mm and 50 mm turning about z.
// DOF defaults 30° and 0°. Returns the robot XML path.
inline std::string writePlanarRobot(const Tree& tree, const std::string& extraRobotXml = {}) {
  tree.write("models/robots/Planar/iv/box.off", boxOff({-5, -5, -5}, {5, 5, 5}));
  tree.write("models/robots/Planar/iv/palm.xml", linkBodyXml("box.off", "metal"));
  tree.write("models/robots/Planar/iv/link1.xml", linkBodyXml("box.off"));
  tree.write("models/robots/Planar/iv/link2.xml", linkBodyXml("box.off", "rubber"));
  tree.write("models/robots/Planar/iv/mount.xml", linkBodyXml("box.off"));
  return tree.write("models/robots/Planar/Planar.xml",
                    "<?xml version=\"1.0\" ?>\n<robot type=\"Robot\" DBName=\"PlanarArm\">\n  <palm>palm.xml</palm>\n" +
                        dofXml("r", 30) + dofXml("r", 0) +
                        "  <chain>\n    <transform><translation>10 0 0</translation></transform>\n" +
                        revoluteJointXml("d0", 100, -90, 90) + revoluteJointXml("d1", 50, -120, 120) +
                        "    <link dynamicJointType=\"Revolute\">link1.xml</link>\n"
                        "    <link dynamicJointType=\"Revolute\">link2.xml</link>\n  </chain>\n" +
                        extraRobotXml + "</robot>\n");
}

// Virtual contacts of the gripper as XML and as the legacy .vgr text (same data).
inline std::string gripperVirtualContactsXml() {
  return "<?xml version=\"1.0\" ?>\n<virtual_contacts>\n  <robot_name>Gripper</robot_name>\n  <num_contacts>2</num_contacts>\n"
         "  <virtual_contact>\n    <finger_number>0</finger_number>\n    <link_number>1</link_number>\n"
         "    <num_friction_edges>2</num_friction_edges>\n    <friction_edges>\n"
         "      <friction_edge>1 0 0 0 0 0</friction_edge>\n      <friction_edge>0 1 0 0 0 1.5</friction_edge>\n"
         "    </friction_edges>\n    <location>1 2 3</location>\n    <rotation>0 1 0 0</rotation>\n"
         "    <translation>1 2 3</translation>\n    <normal>0 0 2</normal>\n    <sCof>0.3</sCof>\n  </virtual_contact>\n"
         "  <virtual_contact>\n    <finger_number>-1</finger_number>\n    <link_number>0</link_number>\n"
         "    <num_friction_edges>1</num_friction_edges>\n    <friction_edges>\n"
         "      <friction_edge>0 0 0 0 0 1</friction_edge>\n    </friction_edges>\n    <location>0 0 5</location>\n"
         "    <rotation>1 0 0 0</rotation>\n    <translation>0 0 5</translation>\n    <normal>0 0 1</normal>\n"
         "    <sCof>0.5</sCof>\n  </virtual_contact>\n</virtual_contacts>\n";
}

inline std::string gripperVirtualContactsVgr() {
  return "Gripper\n2\n0 1\n2\n1 0 0 0 0 0\n0 1 0 0 0 1.5\n1 2 3\n0 1 0 0\n1 2 3\n0 0 2\n0.3\n"
         "-1 0\n1\n0 0 0 0 0 1\n0 0 5\n1 0 0 0\n0 0 5\n0 0 1\n0.5\n";
}

// A three-DOF gripper exercising the DOF grammar:
//   d0 (break-away, default 20°) drives chain 0: joint 0 "d0+10" [0, 90°] and joint 1 "d0*3-5" [0, 120°]
//     (coupled 1:3, negative offset) → DOF range [0, 40°];
//   d1 (rigid, default 10 mm) drives chain 1's prismatic joint "d1+-2" [0, 50] mm;
//   d2 (compliant, default 0) drives chain 2's two joints, carried by one Universal link.
inline std::string writeGripperRobot(const Tree& tree, bool withEigen = true, bool withVirtual = true) {
  const std::string dir = "models/robots/Gripper/";
  tree.write(dir + "iv/box.off", boxOff({-2, -2, -2}, {2, 2, 2}));
  for (const char* n : {"palm", "f0", "f1", "p0", "u0"}) tree.write(dir + "iv/" + n + ".xml", linkBodyXml("box.off"));
  tree.write(dir + "eigen/grip_eigen.xml",
             "<?xml version=\"1.0\" ?>\n<EigenGrasps dimensions=\"3\">\n"
             "  <EG>\n    <EigenValue value=\"0.7\"/>\n    <Limits min=\"-2\" max=\"3\"/>\n    <DimVals d0=\"1\" d1=\"1\"/>\n  </EG>\n"
             "  <EG>\n    <DimVals d2=\"-4\"/>\n  </EG>\n"
             "  <ORIGIN>\n    <EigenValue value=\"0.0\"/>\n    <DimVals d0=\"0.2\" d1=\"10\" d2=\"0.1\"/>\n  </ORIGIN>\n"
             "  <NORM>\n    <DimVals d1=\"10\"/>\n  </NORM>\n</EigenGrasps>\n");
  tree.write(dir + "virtual/contacts.xml", gripperVirtualContactsXml());
  std::string robot = "<?xml version=\"1.0\" ?>\n<robot type=\"Hand\" DBName=\"Gripper\">\n  <palm>palm.xml</palm>\n" +
                      dofXml("b", 20, "    <breakAwayTorque>0.5</breakAwayTorque>\n") + dofXml("r", 10) + dofXml("c", 0) +
                      "  <chain>\n    <transform><rotation>90 x</rotation></transform>\n" +
                      revoluteJointXml("d0+10", 40, 0, 90) + revoluteJointXml("d0*3-5", 30, 0, 120) +
                      "    <link dynamicJointType=\"Revolute\">f0.xml</link>\n"
                      "    <link dynamicJointType=\"Revolute\" collisionRule=\"OverlappingPair\" targetChain=\"base\">f1.xml</link>\n"
                      "  </chain>\n"
                      "  <chain>\n    <transform><translation>0 0 20</translation></transform>\n"
                      "    <joint type=\"Prismatic\">\n      <theta>90</theta>\n      <d>d1+-2</d>\n      <a>0</a>\n"
                      "      <alpha>-90</alpha>\n      <minValue>0</minValue>\n      <maxValue>50</maxValue>\n    </joint>\n"
                      "    <link dynamicJointType=\"Prismatic\" collisionRule=\"Off\">p0.xml</link>\n  </chain>\n"
                      "  <chain>\n    <transform><translation>0 -30 0</translation></transform>\n" +
                      revoluteJointXml("d2", 0, -30, 30, 90, "      <springStiffness>2</springStiffness>\n") +
                      revoluteJointXml("d2*-1", 25, -30, 30) +
                      "    <link dynamicJointType=\"Universal\">u0.xml</link>\n  </chain>\n"
                      "  <disableCollision body1_chain=\"0\" body1_link=\"0\" body2_chain=\"1\" body2_link=\"0\"/>\n"
                      "  <approachDirection>\n    <referenceLocation>0 0 10</referenceLocation>\n"
                      "    <direction>0 0 2</direction>\n  </approachDirection>\n";
  if (withEigen) robot += "  <eigenGrasps>eigen/grip_eigen.xml</eigenGrasps>\n";
  if (withVirtual) robot += "  <virtualContacts>virtual/contacts.xml</virtualContacts>\n";
  robot += "</robot>\n";
  return tree.write(dir + "Gripper.xml", robot);
}

}  // namespace sgtest
