#pragma once
// SoftGrasp's world-file extension for robot bodies edited after loading (internal to src/io). A world
// names its robots by file, so a link's material, mass (g) or Young's modulus (Pa) changed in the app would
// be lost on save. Inside <robot>, one element per body whose properties differ from its body file:
//
//   <linkProperties link="chain0/link2">   <!-- or link="palm" -->
//     <material>rubber</material>          <!-- each child only when it differs -->
//     <mass>12</mass>
//     <youngs>1500000</youngs>             <!-- or <rigid/>: the file's modulus removed -->
//   </linkProperties>
//
// GraspIt! looks up <filename>, <dofValues> and <transform> by name and ignores other children of <robot>,
// so it still reads such worlds (without the edits). See src/io/DEVIATIONS.md.
#include <string>

#include "io/XmlHelpers.h"
#include "model/Materials.h"
#include "model/Robot.h"

namespace sg::xmlio {

// The <linkProperties> elements of `robot`, each line indented by `indent` spaces; empty when every body
// matches what its body file gives. The body files are re-read (XML only, no geometry) for the comparison;
// a body file that no longer reads gets all three properties written.
std::string linkPropertiesXml(const Robot& robot, int indent);

// Applies every <linkProperties> child of a world's <robot> element to `robot`. An unknown link name, an
// unknown material, a non-positive mass or modulus, an unknown child or a link named twice is an sg::Error
// naming `file` and the line.
void applyLinkProperties(Robot& robot, const xml::Element& robotElement, const std::string& file,
                         const MaterialTable& materials);

}  // namespace sg::xmlio
