#include "model/Robot.h"

#include "core/Error.h"

namespace sg {

std::size_t Robot::linkCount() const {
  std::size_t n = 0;
  for (const auto& c : chains) n += c.links.size();
  return n;
}

const Body& Robot::body(const BodyRef& ref) const {
  if (ref.chain < 0) return palm;
  if (ref.chain >= static_cast<int>(chains.size()) || ref.link < 0 ||
      ref.link >= static_cast<int>(chains[ref.chain].links.size()))
    throw Error("robot '" + name + "' has no link " + std::to_string(ref.link) + " in chain " +
                std::to_string(ref.chain));
  return chains[ref.chain].links[ref.link].body;
}

Body& Robot::body(const BodyRef& ref) {
  return const_cast<Body&>(static_cast<const Robot&>(*this).body(ref));
}

std::vector<BodyRef> Robot::bodyRefs() const {
  std::vector<BodyRef> refs{{-1, 0}};
  for (int c = 0; c < static_cast<int>(chains.size()); ++c)
    for (int l = 0; l < static_cast<int>(chains[c].links.size()); ++l) refs.push_back({c, l});
  return refs;
}

}  // namespace sg
