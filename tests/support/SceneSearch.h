#pragma once
// Scene-graph look-ups shared by the render tests (no GL context needed): a ref-holding guard for a built
// node, and the separators of a given name that a search traversal reaches (switched-off children are not
// searched, so "found" means "drawn").
#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoNode.h>
#include <Inventor/nodes/SoSeparator.h>

#include <vector>

namespace sgtest {

struct Held {
  explicit Held(SoNode* n) : node(n) { node->ref(); }
  ~Held() { node->unref(); }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  SoNode* node;
};

inline std::vector<SoSeparator*> separatorsNamed(SoNode* root, const char* name) {
  SoSearchAction search;
  search.setType(SoSeparator::getClassTypeId());
  search.setName(name);
  search.setInterest(SoSearchAction::ALL);
  search.apply(root);
  std::vector<SoSeparator*> out;
  const SoPathList& paths = search.getPaths();
  for (int i = 0; i < paths.getLength(); ++i) out.push_back(static_cast<SoSeparator*>(paths[i]->getTail()));
  return out;
}

}  // namespace sgtest
