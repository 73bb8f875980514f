#pragma once
// The bundled default world (ThreeFinger hand over the mug) opened in a main window and grasped: auto-grasp
// runs on a copy of the world and its DOF values are pushed as one undoable command, then the analysis is
// recomputed — independent of the application's own auto-grasp action.
#include <QString>
#include <QTest>

#include "Commands.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "grasp/AutoGrasp.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

namespace sg::test {

inline QString defaultWorldPath() { return sg::test::qInSourceTree("worlds/default.xml"); }

// Waits (events processed) until the L1 hull the analysis builds in the background after each update has
// arrived (evaluation()->l1, l1Quality, volume-l1). False after 30 s.
inline bool waitForL1Hull(const app::GraspAnalysis& analysis) {
  return QTest::qWaitFor([&] { return !analysis.l1HullPending(); }, 30000);
}

// Opens the default world and closes the hand on the mug, and waits for the L1 hull. False if the world could not
// be opened.
inline bool openAndGraspDefaultWorld(app::MainWindow& window) {
  if (!window.openWorldFile(defaultWorldPath())) return false;
  app::Document* doc = window.document();
  World copy = doc->world();
  autoGrasp(copy, 0);
  doc->push(new app::SetDofValuesCommand(doc, 0, copy.state.robots[0].dofValues));
  window.analysis()->recompute();
  return waitForL1Hull(*window.analysis());
}

// Number of soft contacts in the analysis' evaluation.
inline int softContactCount(const app::GraspAnalysis& analysis) {
  int n = 0;
  if (analysis.evaluation())
    for (const auto& c : analysis.evaluation()->contacts) n += (c.kind == ContactKind::SoftFinger);
  return n;
}

// Index into analysis.contacts() of the first evaluated soft contact made from a single source contact (-1
// if none).
inline int firstSoftContact(const app::GraspAnalysis& analysis) {
  if (!analysis.evaluation()) return -1;
  for (const auto& c : analysis.evaluation()->contacts)
    if ((c.kind == ContactKind::SoftFinger) && c.sourceContacts.size() == 1) return c.sourceContacts.front();
  return -1;
}

}  // namespace sg::test
