#include "io/FileHistory.h"

namespace sg {

namespace {

const std::string kNone;

const std::string& at(const std::vector<std::string>& v, int i) {
  return i >= 0 && i < static_cast<int>(v.size()) ? v[static_cast<std::size_t>(i)] : kNone;
}

}  // namespace

const std::string& RobotFileHistory::bodyFile(const BodyRef& ref) const {
  if (ref.chain < 0) return palmFile;
  if (ref.chain >= static_cast<int>(linkFiles.size())) return kNone;
  return at(linkFiles[static_cast<std::size_t>(ref.chain)], ref.link);
}

const std::string& FileHistory::bodyFile(const BodyHandle& h) const {
  using K = BodyHandle::Kind;
  switch (h.kind) {
    case K::Obstacle: return at(obstacleFiles, h.index);
    case K::Graspable: return at(graspableFiles, h.index);
    case K::Mount: return at(mountFiles, h.index);
    case K::Robot: break;
  }
  const RobotFileHistory* r = robot(h.index);
  return r ? r->bodyFile(h.ref) : kNone;
}

const std::string& FileHistory::robotFile(int r) const { return at(robotFiles, r); }

const RobotFileHistory* FileHistory::robot(int r) const {
  return r >= 0 && r < static_cast<int>(robots.size()) ? &robots[static_cast<std::size_t>(r)] : nullptr;
}

}  // namespace sg
