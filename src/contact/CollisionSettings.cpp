#include "contact/CollisionSettings.h"

#include <algorithm>

namespace sg {

namespace {
bool samePair(const std::pair<BodyHandle, BodyHandle>& p, const BodyHandle& a, const BodyHandle& b) {
  return (p.first == a && p.second == b) || (p.first == b && p.second == a);
}
}  // namespace

void CollisionSettings::disablePair(const BodyHandle& a, const BodyHandle& b) {
  if (!isUserDisabled(a, b)) userDisabledPairs.emplace_back(a, b);
}

void CollisionSettings::enablePair(const BodyHandle& a, const BodyHandle& b) {
  std::erase_if(userDisabledPairs, [&](const auto& p) { return samePair(p, a, b); });
}

bool CollisionSettings::isUserDisabled(const BodyHandle& a, const BodyHandle& b) const {
  return std::any_of(userDisabledPairs.begin(), userDisabledPairs.end(),
                     [&](const auto& p) { return samePair(p, a, b); });
}

void CollisionSettings::disableBody(const BodyHandle& body) {
  if (!isBodyDisabled(body)) disabledBodies.push_back(body);
}

void CollisionSettings::enableBody(const BodyHandle& body) { std::erase(disabledBodies, body); }

bool CollisionSettings::isBodyDisabled(const BodyHandle& body) const {
  return std::find(disabledBodies.begin(), disabledBodies.end(), body) != disabledBodies.end();
}

}  // namespace sg
