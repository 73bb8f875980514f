// GL tests of the quality tools (xvfb-run, QT_QPA_PLATFORM=xcb): after an auto-grasp of the default world
// the soft patches change the picture near their contacts (overlay shown vs hidden), and the GWS projection
// window draws its hull in its own viewport.
#include <Inventor/SbViewVolume.h>
#include <Inventor/nodes/SoCamera.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "GraspedDefaultWorld.h"
#include "GwsProjectionWindow.h"
#include "QualityOverlay.h"
#include "SoftContactInspector.h"
#include "ViewportPanel.h"
#include "viewport/CoinSetup.h"
#include "viewport/CoinViewport.h"

using namespace sg;
using namespace sg::app;

namespace {
constexpr int kWidth = 800, kHeight = 600;
constexpr int kHalfWindow_px = 12;  // pixels compared around each projected contact point
using test::differingPixels;
using test::foregroundPixels;
QPoint project(const SoCamera* camera, const Vec3& p) { return test::projectToImage(camera, p, QSize(kWidth, kHeight)); }

// Shows `w` with the default world open and the hand closed on the mug.
bool showGraspedDefaultWorld(MainWindow& w) {
  if (!w.viewportPanel()) return false;
  w.resize(1000, 700);
  w.show();
  return QTest::qWaitForWindowExposed(&w) && test::openAndGraspDefaultWorld(w);
}

}  // namespace

class TstUiQualityGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void softPatchesChangePixelsNearTheirContacts();
  void inspectorHighlightsTheNeighbourhood();
  void gwsProjectionWindowDrawsTheHull();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiQualityGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiQualityGl::softPatchesChangePixelsNearTheirContacts() {
  MainWindow w;
  QVERIFY(showGraspedDefaultWorld(w));
  GraspAnalysis* analysis = w.analysis();
  QVERIFY(analysis->evaluation());
  QVERIFY(analysis->evaluation()->l1Quality.forceClosure);
  const int soft = test::softContactCount(*analysis);
  QVERIFY(soft >= 3);
  auto* overlay = w.findChild<QualityOverlay*>();
  QVERIFY(overlay);
  QCOMPARE(overlay->patchCount(), 2 * soft);
  QAction* toggle = w.findChild<QAction*>("actionShowQualityOverlay");
  QVERIFY(toggle);
  QVERIFY(toggle->isChecked());

  ui::CoinViewport* view = w.viewportPanel()->viewport();
  QApplication::processEvents();
  const QImage shown = view->renderToImage(QSize(kWidth, kHeight));
  toggle->setChecked(false);
  QVERIFY(!overlay->isVisible());
  const QImage hidden = view->renderToImage(QSize(kWidth, kHeight));
  toggle->setChecked(true);
  QVERIFY(!shown.isNull() && !hidden.isNull());

  // Every soft contact in view shows its patch: pixels change right around the contact point.
  int contactsInView = 0, contactsChanged = 0;
  QStringList report;
  for (const ContactEvaluation& ce : analysis->evaluation()->contacts) {
    if (!(ce.kind == ContactKind::SoftFinger)) continue;
    const QPoint p = project(view->camera(), ce.contact.side1.p_WC_mm);
    if (!QRect(0, 0, kWidth, kHeight).contains(p)) continue;
    ++contactsInView;
    const QRect area(p.x() - kHalfWindow_px, p.y() - kHalfWindow_px, 2 * kHalfWindow_px + 1, 2 * kHalfWindow_px + 1);
    const int changed = differingPixels(shown, hidden, area);
    report << QString("(%1,%2): %3").arg(p.x()).arg(p.y()).arg(changed);
    contactsChanged += changed > 10;
  }
  QVERIFY(contactsInView >= 2);
  // Drawn without depth test (a patch lies between finger and object), so none is hidden.
  QVERIFY2(contactsChanged == contactsInView, qPrintable(report.join("; ")));
  w.document()->undoStack()->setClean();
}

void TstUiQualityGl::inspectorHighlightsTheNeighbourhood() {
  MainWindow w;
  QVERIFY(showGraspedDefaultWorld(w));
  QAction* toggle = w.findChild<QAction*>("actionShowQualityOverlay");
  QVERIFY(toggle);
  toggle->setChecked(false);  // only the highlight differs between the two pictures
  ui::CoinViewport* view = w.viewportPanel()->viewport();
  const QImage before = view->renderToImage(QSize(kWidth, kHeight));
  const int contact = test::firstSoftContact(*w.analysis());
  QVERIFY(contact >= 0);
  w.analysis()->setSelectedContact(contact);
  auto* inspector = w.findChild<SoftContactInspector*>();
  QVERIFY(inspector);
  QVERIFY(!inspector->highlightedPoints().empty());
  const QImage after = view->renderToImage(QSize(kWidth, kHeight));
  const QPoint p = project(view->camera(), w.analysis()->contacts()[static_cast<std::size_t>(contact)].side1.p_WC_mm);
  const QRect area(p.x() - kHalfWindow_px, p.y() - kHalfWindow_px, 2 * kHalfWindow_px + 1, 2 * kHalfWindow_px + 1);
  QVERIFY(differingPixels(before, after, area) > 10);
  QCOMPARE(differingPixels(before, after, QRect(0, 0, 40, 40)), 0);  // nothing else moved
  toggle->setChecked(true);
  w.document()->undoStack()->setClean();
}

void TstUiQualityGl::gwsProjectionWindowDrawsTheHull() {
  MainWindow w;
  QVERIFY(w.viewportPanel());
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(test::openAndGraspDefaultWorld(w));
  QAction* action = w.findChild<QAction*>("actionGwsProjection");
  QVERIFY(action);
  action->trigger();
  auto* window = w.findChild<GwsProjectionWindow*>();
  QVERIFY(window);
  QVERIFY(QTest::qWaitForWindowExposed(window));
  QVERIFY(window->viewport());
  QVERIFY(window->projection().valid);
  const QImage image = window->viewport()->renderToImage(QSize(300, 300));
  QVERIFY(!image.isNull());
  QVERIFY(foregroundPixels(image) > 300 * 300 / 50);
  w.document()->undoStack()->setClean();
}

QTEST_MAIN(TstUiQualityGl)
#include "tst_ui_quality_gl.moc"
