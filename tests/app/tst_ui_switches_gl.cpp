// Picking a contact in the viewport (xvfb-run, QT_QPA_PLATFORM=xcb), on the default world after auto-grasp:
// a click on a fingertip contact's marker selects that contact (GraspAnalysis::selectedContact, the
// contacts dock's row) even where the fingertip is the nearest surface under the cursor or the click is a
// few pixels beside the marker, and selects no body; a click on the mug away from every contact still
// selects the mug; with contacts hidden, a click at a contact picks the body there.
#include <Inventor/SbViewVolume.h>
#include <Inventor/SbViewportRegion.h>
#include <Inventor/actions/SoCallbackAction.h>
#include <Inventor/nodes/SoCamera.h>
#include <Inventor/nodes/SoInfo.h>
#include <Inventor/nodes/SoSeparator.h>

#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>

#include "../support/AppTestSetup.h"
#include "ContactOverlay.h"
#include "ContactsDock.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "ViewportPanel.h"
#include "render/ContactNodes.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinSetup.h"
#include "viewport/CoinViewport.h"
#include "viewport/Picking.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
using K = BodyHandle::Kind;
const BodyHandle kMug{K::Graspable, 0, {}};
}  // namespace

class TstUiSwitchesGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void init();
  void cleanup();
  void clickOnFingertipContactSelectsIt();
  void clickOnMugAwayFromContactsSelectsTheMug();
  void hiddenContactsAreNotPicked();

 private:
  ui::CoinViewport* view() const { return window_->viewportPanel()->viewport(); }
  // Widget pixel over a world point (mm), through the viewport's own mapping (a viewport taller than
  // wide widens the view volume, as Coin renders and picks it).
  QPoint project(const Vec3& p) const;
  const ContactOverlay* overlay() const { return window_->findChild<ContactOverlay*>(); }
  void click(QPoint at) { QTest::mouseClick(view(), Qt::LeftButton, Qt::NoModifier, at); }
  // Hand contacts whose marker projects inside the viewport.
  std::vector<int> handContactsInView() const;

  std::unique_ptr<MainWindow> window_;
  GraspAnalysis* analysis_ = nullptr;
  QTemporaryDir settingsDir_;
};

void TstUiSwitchesGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiSwitchesGl::init() {
  window_ = std::make_unique<MainWindow>();
  QVERIFY(window_->viewportPanel());
  window_->resize(1000, 700);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  analysis_ = window_->analysis();
  window_->findChild<QAction*>("actionAutoGrasp")->trigger();
  analysis_->recompute();
  QApplication::processEvents();
  QVERIFY(overlay());
  QCOMPARE(overlay()->nodes().contactCount(), static_cast<int>(analysis_->contacts().size()));
}

void TstUiSwitchesGl::cleanup() {
  if (window_) window_->document()->undoStack()->setClean();
  window_.reset();
  analysis_ = nullptr;
}

QPoint TstUiSwitchesGl::project(const Vec3& p) const {
  const QSize size = view()->size();
  // The view volume Coin's actions (the pick included) derive from the camera for this viewport.
  SoCallbackAction action(SbViewportRegion(size.width(), size.height()));
  SbViewVolume volume;
  action.addPreCallback(
      SoInfo::getClassTypeId(),
      [](void* out, SoCallbackAction* a, const SoNode*) {
        *static_cast<SbViewVolume*>(out) = a->getViewVolume();
        return SoCallbackAction::CONTINUE;
      },
      &volume);
  auto* graph = new SoSeparator;
  graph->ref();
  graph->addChild(view()->camera());
  graph->addChild(new SoInfo);
  action.apply(graph);
  graph->unref();
  SbVec3f screen;
  volume.projectToScreen(SbVec3f(float(p.x()), float(p.y()), float(p.z())), screen);
  return {int(screen[0] * size.width()), int((1.0f - screen[1]) * size.height())};
}

std::vector<int> TstUiSwitchesGl::handContactsInView() const {
  std::vector<int> out;
  for (int i = 0; i < overlay()->nodes().contactCount(); ++i)
    if (isHandContact(analysis_->contacts()[i]) &&
        view()->rect().contains(project(overlay()->nodes().glyph(i).position_mm())))
      out.push_back(i);
  return out;
}

void TstUiSwitchesGl::clickOnFingertipContactSelectsIt() {
  Document* doc = window_->document();
  doc->setSelection(std::nullopt);  // no dragger over the hand (a press on it drags instead of clicking)
  const std::vector<int> inView = handContactsInView();
  QVERIFY(inView.size() >= 3);
  int underFinger = 0;
  for (int i : inView) {
    const QPoint at = project(overlay()->nodes().glyph(i).position_mm());
    // What a plain pick sees there: the nearest surface, usually the fingertip over the contact.
    const std::optional<BodyHandle> nearest = ui::pickBody(*view(), *window_->viewportPanel()->scene(), at);
    underFinger += nearest && nearest->kind == K::Robot;
    analysis_->setSelectedContact(std::nullopt);
    QCOMPARE(overlay()->contactAt(at), std::optional<int>(i));
    QCOMPARE(overlay()->contactAt(at + QPoint(3, 0)), std::optional<int>(i));  // a little beside it too
    QVERIFY(overlay()->contactAt(at + QPoint(0, 12)) != std::optional<int>(i));
    click(at);
    QVERIFY2(analysis_->selectedContact() == std::optional<int>(i),
             qPrintable(QString("contact %1 at (%2, %3): selected %4")
                            .arg(i).arg(at.x()).arg(at.y())
                            .arg(analysis_->selectedContact() ? *analysis_->selectedContact() : -1)));
    QCOMPARE(overlay()->nodes().highlighted(), std::optional<int>(i));
    const QTableWidget* table = window_->findChild<ContactsDock*>()->table();
    QCOMPARE(table->currentRow(), i);
    QVERIFY(!doc->selection());  // a contact, not a body
  }
  QVERIFY2(underFinger >= 1, "no fingertip covers a contact marker: the test does not test the ray pick");
}

void TstUiSwitchesGl::clickOnMugAwayFromContactsSelectsTheMug() {
  Document* doc = window_->document();
  doc->setSelection(std::nullopt);
  // A pixel of the mug's side 15 px or more from every contact marker: up the mug's axis from its foot.
  const std::vector<Vec3> markers = [&] {
    std::vector<Vec3> v;
    for (int i = 0; i < overlay()->nodes().contactCount(); ++i) v.push_back(overlay()->nodes().glyph(i).position_mm());
    return v;
  }();
  const Vec3 foot = X_WB(doc->world().state, kMug).translation();
  std::optional<QPoint> onMug;
  for (double z = 5; z < 150 && !onMug; z += 2.5) {
    const QPoint at = project(foot + Vec3(0, 0, z));
    bool clear = true;
    for (const Vec3& m : markers) {
      const QPoint d = project(m) - at;
      clear = clear && std::hypot(d.x(), d.y()) >= 15.0;
    }
    if (clear && ui::pickBody(*view(), *window_->viewportPanel()->scene(), at) == std::optional<BodyHandle>(kMug))
      onMug = at;
  }
  QVERIFY2(onMug, "no pixel of the mug clear of the contacts");
  QVERIFY(!overlay()->contactAt(*onMug));
  click(*onMug);
  QCOMPARE(doc->selection(), std::optional<BodyHandle>(kMug));
  QVERIFY(!analysis_->selectedContact());
}

void TstUiSwitchesGl::hiddenContactsAreNotPicked() {
  Document* doc = window_->document();
  doc->setSelection(std::nullopt);
  const std::vector<int> inView = handContactsInView();
  QVERIFY(!inView.empty());
  const QPoint at = project(overlay()->nodes().glyph(inView.front()).position_mm());
  window_->findChild<QAction*>("actionShowContacts")->setChecked(false);
  QVERIFY(!overlay()->contactAt(at));
  click(at);
  QVERIFY(!analysis_->selectedContact());
  QVERIFY(doc->selection().has_value());  // the body there (fingertip or mug)
  window_->findChild<QAction*>("actionShowContacts")->setChecked(true);
  doc->setSelection(std::nullopt);
  click(at);
  QCOMPARE(analysis_->selectedContact(), std::optional<int>(inView.front()));
  QVERIFY(!doc->selection());
}

QTEST_MAIN(TstUiSwitchesGl)
#include "tst_ui_switches_gl.moc"
