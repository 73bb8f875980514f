// GL test of the comparison overlay (xvfb-run, QT_QPA_PLATFORM=xcb): after an auto-grasp of the default world
// with the Comparison dock open, each model checked in the dock draws its patch outlines in its own colour
// where the outlines project (drawn over the bodies), an unchecked model draws none, and the view's legend
// names the colours (render/PatchOutlineNodes.h).
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <Inventor/nodes/SoSwitch.h>

#include "../support/AppTestSetup.h"
#include "../support/ImageChecks.h"
#include "ComparisonDock.h"
#include "ComparisonOverlay.h"
#include "GraspedDefaultWorld.h"
#include "OverlayLegendWidget.h"
#include "ViewportPanel.h"
#include "render/PatchOutlineNodes.h"
#include "viewport/CoinViewport.h"

using namespace sg;
using namespace sg::app;

namespace {
constexpr int kWidth = 800, kHeight = 600;

bool near(QRgb pixel, const std::array<float, 3>& colour, int tolerance = 40) {
  return std::abs(qRed(pixel) - int(colour[0] * 255)) <= tolerance &&
         std::abs(qGreen(pixel) - int(colour[1] * 255)) <= tolerance &&
         std::abs(qBlue(pixel) - int(colour[2] * 255)) <= tolerance;
}

int pixelsOfColour(const QImage& image, const std::array<float, 3>& colour) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += near(image.pixel(x, y), colour);
  return n;
}

// Outline vertices in view, and those with a pixel of `colour` within 2 px of their projection.
std::pair<int, int> verticesDrawn(const QImage& image, const SoCamera* camera, const ModelColumn& column,
                                  const std::array<float, 3>& colour) {
  int inView = 0, drawn = 0;
  for (const ComparedContact& c : column.contacts)
    for (const Vec3& p : c.patchOutline_W_mm) {
      const QPoint q = test::projectToImage(camera, p, QSize(kWidth, kHeight));
      if (!QRect(3, 3, kWidth - 6, kHeight - 6).contains(q)) continue;
      ++inView;
      bool found = false;
      for (int dy = -2; dy <= 2 && !found; ++dy)
        for (int dx = -2; dx <= 2 && !found; ++dx) found = near(image.pixel(q.x() + dx, q.y() + dy), colour);
      drawn += found;
    }
  return {inView, drawn};
}
}  // namespace

class TstUiComparisonGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void checkedModelsDrawTheirPatchesInTheirColours();
  void noOutlinesUntilTheDockAsks();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiComparisonGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiComparisonGl::checkedModelsDrawTheirPatchesInTheirColours() {
  MainWindow w;
  QVERIFY(w.viewportPanel());
  w.resize(1000, 700);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(test::openAndGraspDefaultWorld(w));
  // Only the comparison's lines: the quality overlay's ellipses and patches, contact markers and cones off.
  for (const char* name : {"actionShowQualityOverlay", "actionShowContacts", "actionShowFrictionCones"}) {
    QAction* action = w.findChild<QAction*>(name);
    QVERIFY(action);
    action->setChecked(false);
  }
  w.findChild<QAction*>("actionCompareModels")->trigger();
  auto* dock = w.findChild<ComparisonDock*>();
  QVERIFY(dock && dock->isVisible());
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparison(), 30000);
  auto* overlay = w.findChild<ComparisonOverlay*>();
  QVERIFY(overlay);
  dock->setOverlayModel("soft-finger", true);  // none is drawn until asked for (noOutlinesUntilTheDockAsks)
  QTRY_VERIFY(overlay->isShown());

  const ModelComparison& c = *dock->comparison();
  auto columnOf = [&c](const std::string& model) {
    std::size_t k = 0;
    while (k < c.columns.size() && c.columns[k].model != model) ++k;
    return k;
  };
  const std::size_t soft = columnOf("soft-finger"), hertz = columnOf("hertz");
  QVERIFY(soft < c.columns.size() && hertz < c.columns.size());
  const auto softColour = comparisonColour("soft-finger"), hertzColour = comparisonColour("hertz");
  ui::CoinViewport* view = w.viewportPanel()->viewport();

  // Soft finger only.
  for (QString m : dock->overlayModels()) dock->setOverlayModel(m, m == "soft-finger");
  QApplication::processEvents();
  const QImage softOnly = view->renderToImage(QSize(kWidth, kHeight));
  // Hertz only.
  dock->setOverlayModel("soft-finger", false);
  dock->setOverlayModel("hertz", true);
  QApplication::processEvents();
  const QImage hertzOnly = view->renderToImage(QSize(kWidth, kHeight));
  // None.
  dock->setOverlayModel("hertz", false);
  QCOMPARE(overlay->outlineCount(), 0);
  const QImage none = view->renderToImage(QSize(kWidth, kHeight));
  QVERIFY(!softOnly.isNull() && !hertzOnly.isNull() && !none.isNull());

  const int softPixels = pixelsOfColour(softOnly, softColour), hertzPixels = pixelsOfColour(hertzOnly, hertzColour);
  QVERIFY2(softPixels > 50, qPrintable(QString::number(softPixels)));
  QVERIFY2(hertzPixels > 50, qPrintable(QString::number(hertzPixels)));
  QVERIFY(pixelsOfColour(none, softColour) < softPixels / 10);  // the colours are the overlay's, not the scene's
  QVERIFY(pixelsOfColour(none, hertzColour) < hertzPixels / 10);
  QVERIFY(pixelsOfColour(softOnly, hertzColour) < hertzPixels / 10);

  // The lines are where the outlines project.
  const auto [softInView, softDrawn] = verticesDrawn(softOnly, view->camera(), c.columns[soft], softColour);
  QVERIFY(softInView >= 32);
  QVERIFY2(softDrawn >= softInView * 9 / 10, qPrintable(QString("%1 of %2").arg(softDrawn).arg(softInView)));
  const auto [hertzInView, hertzDrawn] = verticesDrawn(hertzOnly, view->camera(), c.columns[hertz], hertzColour);
  QVERIFY(hertzInView >= 32);
  QVERIFY2(hertzDrawn >= hertzInView * 9 / 10, qPrintable(QString("%1 of %2").arg(hertzDrawn).arg(hertzInView)));

  // The legend names the shown models' colours.
  dock->setOverlayModel("soft-finger", true);
  dock->setOverlayModel("hertz", true);
  auto* legend = view->findChild<OverlayLegendWidget*>();
  QVERIFY(legend);
  int patchLines = 0;
  for (const OverlayLegendEntry& e : legend->entries())
    if (e.key.rfind("patches:", 0) == 0) {
      ++patchLines;
      QVERIFY(e.colour == softColour || e.colour == hertzColour);
    }
  QCOMPARE(patchLines, 2);
  // Hiding the dock removes the overlay and its legend lines.
  dock->hide();
  QVERIFY(!overlay->isShown());
  for (const OverlayLegendEntry& e : legend->entries()) QVERIFY(e.key.rfind("patches:", 0) != 0);
  w.document()->undoStack()->setClean();
}

// A fresh start draws the grasp alone — no comparison outline in the scene, no line of it in the legend —
// even with the Comparison dock up and its comparison computed; a model's checkbox brings its outlines and legend line.
void TstUiComparisonGl::noOutlinesUntilTheDockAsks() {
  MainWindow w;
  QVERIFY(w.viewportPanel());
  w.resize(1000, 700);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(test::openAndGraspDefaultWorld(w));
  auto* dock = w.findChild<ComparisonDock*>();
  auto* overlay = w.findChild<ComparisonOverlay*>();
  auto* legend = w.viewportPanel()->viewport()->findChild<OverlayLegendWidget*>();
  QVERIFY(dock && overlay && legend);
  w.findChild<QAction*>("actionCompareModels")->trigger();
  QVERIFY(dock->isVisible());
  QTRY_VERIFY_WITH_TIMEOUT(dock->comparison(), 30000);
  QApplication::processEvents();
  auto patchLines = [legend] {
    QStringList keys;
    for (const OverlayLegendEntry& e : legend->entries())
      if (e.key.rfind("patches:", 0) == 0) keys << QString::fromStdString(e.key);
    return keys;
  };
  QVERIFY(dock->overlayModels().isEmpty());
  for (const ContactModel* m : contactModels()) QVERIFY(!dock->overlayCheckBox(QString::fromStdString(m->name()))->isChecked());
  QVERIFY(!overlay->isShown());
  QCOMPARE(overlay->node()->getNumChildren(), 0);
  QCOMPARE(overlay->outlineCount(), 0);
  QVERIFY2(patchLines().isEmpty(), qPrintable(patchLines().join(", ")));

  dock->setOverlayModel("hertz", true);
  QVERIFY(overlay->isShown());
  QCOMPARE(overlay->node()->getNumChildren(), 1);
  QVERIFY(overlay->outlineCount() >= 3);  // one Hertz ellipse per fingertip
  QCOMPARE(patchLines(), QStringList{"patches:hertz"});
  for (const OverlayLegendEntry& e : legend->entries())
    if (e.key == "patches:hertz") QVERIFY(e.colour == comparisonColour("hertz"));
  dock->setOverlayModel("hertz", false);
  QVERIFY(!overlay->isShown());
  QCOMPARE(overlay->node()->getNumChildren(), 0);
  QVERIFY(patchLines().isEmpty());
  w.document()->undoStack()->setClean();
}

QTEST_MAIN(TstUiComparisonGl)
#include "tst_ui_comparison_gl.moc"
