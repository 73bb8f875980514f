#pragma once
// File history: the names of files as the world and robot files wrote them ("models/objects/mug.xml",
// "link1.xml"), kept so that writing a model back names its files the same way. It is the readers' record of
// where things were read from, not part of what a body or robot is: the model (src/model) keeps absolute
// paths only (Body::sourceFile, Robot::sourceFile). Loaders fill it next to the World or Robot they return,
// writers take it; without one, or for a body or robot it has no entry for, writers name files by their path
// relative to the file being written (fileNameForWriting in BodyXml.h).
#include <string>
#include <vector>

#include "model/World.h"

namespace sg {

// Body files as a robot XML names them: <palm> and each <link>, relative to <robotdir>/iv.
struct RobotFileHistory {
  std::string palmFile;
  std::vector<std::vector<std::string>> linkFiles;  // [chain][link]

  // The name for robot body `ref`; empty when unknown.
  const std::string& bodyFile(const BodyRef& ref) const;
};

// Files as a world XML names them, by index parallel to the World's vectors. Empty: inline or unknown.
struct FileHistory {
  std::vector<std::string> obstacleFiles;    // <obstacle><filename>
  std::vector<std::string> graspableFiles;   // <graspableBody><filename>
  std::vector<std::string> robotFiles;       // <robot><filename>
  std::vector<RobotFileHistory> robots;      // each robot's own body file names
  std::vector<std::string> mountFiles;       // <connection><mountFilename>

  // The name as written for an obstacle, graspable or mount body (its body XML or bare mesh), for a robot
  // body (its palm/link file in the robot XML); empty when unknown.
  const std::string& bodyFile(const BodyHandle& body) const;
  const std::string& robotFile(int robot) const;
  const RobotFileHistory* robot(int robot) const;  // nullptr when unknown
};

}  // namespace sg
