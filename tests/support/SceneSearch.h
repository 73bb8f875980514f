#pragma once
// Scene-graph look-ups shared by the render tests (no GL context needed): a ref-holding guard for a built
// node, the separators of a given name that a search traversal reaches (switched-off children are not
// searched, so "found" means "drawn"), and a separator's first direct child of a node type.
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

template <class T>
T* childOfType(SoSeparator* sep) {
  for (int k = 0; k < sep->getNumChildren(); ++k)
    if (sep->getChild(k)->isOfType(T::getClassTypeId())) return static_cast<T*>(sep->getChild(k));
  return nullptr;
}

}  // namespace sgtest
