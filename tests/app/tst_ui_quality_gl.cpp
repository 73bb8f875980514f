// GL tests of the quality tools (xvfb-run, QT_QPA_PLATFORM=xcb): after an auto-grasp of the default world
// the soft patches change the picture near their contacts (overlay shown vs hidden), View > Contact Force Arrows
// draws an arrow along each soft contact's normal and the legend over the view explains them (View > Overlay
// Legend), and the GWS projection window draws its hull in its own viewport.
#include <Inventor/SbViewVolume.h>
#include <Inventor/nodes/SoCamera.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "ComparisonDock.h"
#include "GraspedDefaultWorld.h"
#include "GwsProjectionWindow.h"
#include "OverlayLegendWidget.h"
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
  void forceArrowsDrawnAlongTheContactNormals();
  void legendExplainsTheArrows();
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

// View > Contact Force Arrows: with the soft-finger model every soft contact gets an arrow of 5 N × 5 mm/N ending
// at its contact point; toggling it changes the pixels around each arrow's middle, and nothing far from them.
void TstUiQualityGl::forceArrowsDrawnAlongTheContactNormals() {
  MainWindow w;
  QVERIFY(showGraspedDefaultWorld(w));
  auto* overlay = w.findChild<QualityOverlay*>();
  QAction* toggle = w.findChild<QAction*>("actionShowForceArrows");
  QVERIFY(overlay && toggle);
  QVERIFY(w.viewMenu()->actions().contains(toggle));
  QVERIFY(toggle->isChecked());
  const int soft = test::softContactCount(*w.analysis());
  QCOMPARE(overlay->forceArrowCount(), soft);
  ui::CoinViewport* view = w.viewportPanel()->viewport();
  QApplication::processEvents();
  const QImage shown = view->renderToImage(QSize(kWidth, kHeight));
  toggle->setChecked(false);
  QCOMPARE(overlay->forceArrowCount(), 0);
  const QImage hidden = view->renderToImage(QSize(kWidth, kHeight));
  toggle->setChecked(true);
  QCOMPARE(overlay->forceArrowCount(), soft);

  int inView = 0, changed = 0;
  QStringList report;
  const GraspEvaluation& e = *w.analysis()->evaluation();
  for (std::size_t i = 0; i < e.contacts.size(); ++i) {
    const double length_mm = contactForceArrowLength_mm(modelNormalForce_N(e, i), overlay->options());
    if (length_mm <= 0) continue;
    QCOMPARE(length_mm, 25.0);
    const ContactSide& side = e.contacts[i].onObject();
    const QPoint middle = project(view->camera(), side.p_WC_mm - 0.5 * length_mm * side.n_W);
    if (!QRect(0, 0, kWidth, kHeight).contains(middle)) continue;
    ++inView;
    const int n = test::differingAround(shown, hidden, middle, 4);
    report << QString("(%1,%2): %3").arg(middle.x()).arg(middle.y()).arg(n);
    changed += n > 4;
  }
  QVERIFY(inView >= 2);
  QVERIFY2(changed == inView, qPrintable(report.join("; ")));
  QCOMPARE(differingPixels(shown, hidden, QRect(0, 0, 40, 40)), 0);
  w.document()->undoStack()->setClean();
}

// The legend over the view: one line per kind of arrow (contact force, worst-case force and torque), in the
// view's bottom-left corner, drawn (its pixels differ from the view without it), gone with View > Overlay Legend
// off or the overlay hidden, and without the force line when the force arrows are off.
void TstUiQualityGl::legendExplainsTheArrows() {
  MainWindow w;
  QVERIFY(showGraspedDefaultWorld(w));
  // Only the quality overlay's lines: the Comparison dock's patch outlines join the legend when its background
  // comparison arrives while the dock is shown (showGraspedDefaultWorld waits for the L1 hull, long enough for it).
  if (auto* comparison = w.findChild<ComparisonDock*>()) comparison->close();
  auto* legend = w.findChild<OverlayLegendWidget*>();
  QAction* showLegend = w.findChild<QAction*>("actionShowOverlayLegend");
  QAction* forces = w.findChild<QAction*>("actionShowForceArrows");
  QAction* overlay = w.findChild<QAction*>("actionShowQualityOverlay");
  QVERIFY(legend && showLegend && forces && overlay);
  QApplication::processEvents();
  QVERIFY(legend->isVisible());
  QStringList keys;
  for (const OverlayLegendEntry& entry : legend->entries()) keys << QString::fromStdString(entry.key);
  QCOMPARE(keys, QStringList({"contactForce", "worstCaseForce", "worstCaseTorque"}));
  QVERIFY(QString::fromStdString(legend->entries().front().text).contains("5 mm per N"));
  // In the view's bottom-left corner, wholly inside it, as large as its text needs.
  ui::CoinViewport* view = w.viewportPanel()->viewport();
  QCOMPARE(legend->parentWidget(), view);
  QVERIFY(view->rect().contains(legend->geometry()));
  QVERIFY(legend->geometry().bottom() > view->height() - 20 && legend->x() < 20);
  QCOMPARE(legend->size(), overlayLegendLayout(legend->entries(), view->size()).size);
  // Drawn: the window's picture differs in the legend's box with and without it, and the box holds the force
  // arrows' green sample.
  const QRect box(legend->mapTo(&w, QPoint(0, 0)), legend->size());
  const QImage with = w.grab().toImage();
  showLegend->setChecked(false);
  QVERIFY(!legend->isVisible());
  const QImage without = w.grab().toImage();
  showLegend->setChecked(true);
  QVERIFY(legend->isVisible());
  QVERIFY2(differingPixels(with, without, box) > box.width() * box.height() / 4,
           qPrintable(QString::number(differingPixels(with, without, box))));
  int green = 0;
  const QColor arrow = QColor::fromRgbF(kForceArrowColour[0], kForceArrowColour[1], kForceArrowColour[2]);
  for (int y = box.top(); y <= box.bottom(); ++y)
    for (int x = box.left(); x <= box.right(); ++x) {
      const QColor c = with.pixelColor(x, y);
      green += std::abs(c.red() - arrow.red()) < 30 && std::abs(c.green() - arrow.green()) < 30 &&
               std::abs(c.blue() - arrow.blue()) < 30;
    }
  QVERIFY2(green > 20, qPrintable(QString::number(green)));
  // The force line goes with the force arrows; the whole legend with the overlay.
  forces->setChecked(false);
  QCOMPARE(legend->entries().size(), std::size_t{2});
  QCOMPARE(legend->entries().front().key, std::string("worstCaseForce"));
  forces->setChecked(true);
  overlay->setChecked(false);
  QVERIFY(legend->entries().empty());
  QVERIFY(!legend->isVisible());
  overlay->setChecked(true);
  QVERIFY(legend->isVisible());
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
