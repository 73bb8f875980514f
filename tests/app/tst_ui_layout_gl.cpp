// The main window at 1280×800 and at 800×600, under an X server with the real 3-D view: the bundled
// default world, the app's G (Approach & Grasp), then for each size the window is exactly that size, its picture
// is saved (build dir: screenshots/main_window_WxH.png, to look at), and for every dock — raised in turn where docks
// share a tab — its key values are on screen: visible, not empty, wholly inside every clipping parent (scroll
// viewports, the dock, the window) and their text not cut or elided. The same for the overlay legend in the view.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "ContactsDock.h"
#include "DofDock.h"
#include "GraspAnalysis.h"
#include "GraspedDefaultWorld.h"
#include "MainWindow.h"
#include "OverlayLegendWidget.h"
#include "PropertiesDock.h"
#include "QualityDock.h"
#include "SceneTreeDock.h"
#include "SoftContactInspector.h"
#include "ViewportPanel.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

// Where each checked widget failed; empty when all is well.
class Visibility {
 public:
  explicit Visibility(QWidget* window) : window_(window) {}
  const QStringList& problems() const { return problems_; }
  int checked() const { return checked_; }

  // `local` (in `w`'s coordinates) is wholly on screen: every ancestor up to the window shows all of it.
  void area(const QString& what, const QWidget* w, const QRect& local) {
    ++checked_;
    if (!w->isVisible()) return fail(what, "not visible");
    if (local.isEmpty()) return fail(what, "empty geometry");
    QRect r = local;
    QRect clipped = local;
    for (const QWidget* x = w; x != window_ && x->parentWidget(); x = x->parentWidget()) {
      clipped = clipped.intersected(x->rect()).translated(x->pos());
      r.translate(x->pos());
    }
    clipped = clipped.intersected(window_->rect());
    if (clipped != r)
      fail(what, QString("%1×%2 at (%3,%4) but only %5×%6 on screen")
                     .arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y()).arg(clipped.width()).arg(clipped.height()));
  }
  void widget(const QString& what, const QWidget* w) { area(what, w, w->rect()); }

  // A label: on screen and its whole text fits (wrapped labels: tall enough for their width).
  void label(const QString& what, const QLabel* l) {
    widget(what, l);
    if (l->text().isEmpty()) return fail(what, "empty text");
    const QRect c = l->contentsRect();
    const bool fits = l->wordWrap() ? l->heightForWidth(l->width()) <= l->height() + 1
                                    : l->sizeHint().width() <= l->width() + 1 && l->sizeHint().height() <= l->height() + 1;
    if (!fits) fail(what, QString("text \"%1\" cut (%2×%3)").arg(l->text().left(40)).arg(c.width()).arg(c.height()));
  }
  // A spin box or line edit: on screen and its text fits its editor.
  void field(const QString& what, const QWidget* w, const QString& text) {
    widget(what, w);
    const QLineEdit* edit = qobject_cast<const QLineEdit*>(w) ? qobject_cast<const QLineEdit*>(w) : w->findChild<QLineEdit*>();
    if (!edit) return fail(what, "no editor");
    if (text.isEmpty()) return fail(what, "empty text");
    const int needed = edit->fontMetrics().horizontalAdvance(text) + 4;
    if (needed > edit->width()) fail(what, QString("text \"%1\" needs %2 px, has %3").arg(text).arg(needed).arg(edit->width()));
  }
  void combo(const QString& what, const QComboBox* c) {
    widget(what, c);
    const int needed = c->fontMetrics().horizontalAdvance(c->currentText()) + 30;  // + the arrow
    if (c->currentText().isEmpty() || needed > c->width())
      fail(what, QString("\"%1\" needs %2 px, has %3").arg(c->currentText()).arg(needed).arg(c->width()));
  }
  // A table cell: wholly inside the table's viewport (and on screen) and its text not elided.
  void cell(const QString& what, const QTableWidget* t, int row, int column) {
    const QTableWidgetItem* item = t->item(row, column);
    if (!item) return fail(what, "no item");
    const QRect r = t->visualItemRect(item);
    area(what, t->viewport(), r);
    if (item->text().isEmpty()) return fail(what, "empty text");
    const int needed = t->fontMetrics().horizontalAdvance(item->text()) + 6;
    if (needed > r.width()) fail(what, QString("\"%1\" elided: needs %2 px, has %3").arg(item->text()).arg(needed).arg(r.width()));
  }
  void treeItem(const QString& what, const QTreeWidget* t, const QTreeWidgetItem* item, int column) {
    const QModelIndex index = t->indexFromItem(item, column);
    QRect r = t->visualRect(index);
    area(what, t->viewport(), r);
    const QString text = item->text(column);
    if (text.isEmpty()) return fail(what, "empty text");
    const int icon = item->icon(column).isNull() ? 0 : t->iconSize().width() + 4;
    const int needed = t->fontMetrics().horizontalAdvance(text) + icon + 6;
    if (needed > r.width()) fail(what, QString("\"%1\" elided: needs %2 px, has %3").arg(text).arg(needed).arg(r.width()));
  }

 private:
  void fail(const QString& what, const QString& why) { problems_ << what + ": " + why; }
  QWidget* window_;
  QStringList problems_;
  int checked_ = 0;
};

// Raises `dock` if it shares a tab with others, and lets the layout settle.
void bringForward(QMainWindow& w, QDockWidget* dock) {
  if (!w.tabifiedDockWidgets(dock).isEmpty()) dock->raise();
  QApplication::processEvents();
}

}  // namespace

class TstUiLayoutGl : public QObject {
  Q_OBJECT

 public:
  static void initMain() { test::prepareGlApplication(); }

 private slots:
  void initTestCase();
  void everyDocksValuesAreVisible_data();
  void everyDocksValuesAreVisible();
  void windowFitsSmallScreens_data();
  void windowFitsSmallScreens();

 private:
  void checkDocks(MainWindow& w, Visibility& check);
  QTemporaryDir settingsDir_;
};

void TstUiLayoutGl::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  if (!test::onX11()) QSKIP(test::kNeedsX);
}

void TstUiLayoutGl::everyDocksValuesAreVisible_data() {
  QTest::addColumn<QSize>("size");
  QTest::newRow("1280x800") << QSize(1280, 800);
  QTest::newRow("800x600") << QSize(800, 600);
}

// Every dock's key values at a window size, after a first start (default layout) and G on the default world.
void TstUiLayoutGl::everyDocksValuesAreVisible() {
  QFETCH(QSize, size);
  MainWindow w;
  QVERIFY(w.viewportPanel());
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(w.openWorldFile(test::defaultWorldPath()));
  QAction* grasp = w.findChild<QAction*>("actionApproachAndGrasp");
  QVERIFY(grasp);
  grasp->trigger();  // the app's G
  w.analysis()->recompute();
  QVERIFY(w.analysis()->evaluation() && w.analysis()->evaluation()->forceClosure());
  QVERIFY(w.analysis()->contacts().size() >= 3);
  // The mug selected: the Properties dock shows a body's values; the first soft contact in the inspector.
  w.document()->setSelection(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  const int soft = test::firstSoftContact(*w.analysis());
  QVERIFY(soft >= 0);
  w.analysis()->setSelectedContact(soft);

  w.resize(size);
  QTest::qWait(100);  // the dock layout follows on the next turns of the event loop
  QApplication::processEvents();
  QCOMPARE(w.size(), size);

  const QString dir = sg::test::qInBuildTree("screenshots");
  QVERIFY(QDir().mkpath(dir));
  const QString file = QString("%1/main_window_%2x%3.png").arg(dir).arg(size.width()).arg(size.height());
  const QImage picture = w.grab().toImage();
  QVERIFY(!picture.isNull());
  QVERIFY(picture.save(file));
  qInfo("saved %s", qPrintable(file));

  Visibility check(&w);
  checkDocks(w, check);
  QVERIFY2(check.problems().isEmpty(), qPrintable(QString("at %1×%2:\n  ").arg(size.width()).arg(size.height()) +
                                                  check.problems().join("\n  ")));
  QVERIFY(check.checked() >= 30);
  w.document()->undoStack()->setClean();
}

void TstUiLayoutGl::checkDocks(MainWindow& w, Visibility& check) {
  // Every dock of the window is docked and shown (tabs count as shown: each is raised in turn below).
  const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly);
  QVERIFY(docks.size() >= 6);
  for (QDockWidget* d : docks) {
    QVERIFY2(!d->isFloating() && !d->isHidden(), qPrintable(d->objectName()));
  }

  // Scene: the selected body's row, whole (the tree scrolls to it; the hand's link rows may scroll away).
  SceneTreeDock* scene = w.sceneTreeDock();
  bringForward(w, scene);
  QTreeWidget* tree = scene->tree();
  QTreeWidgetItem* selected = tree->currentItem();
  QVERIFY(selected && selected->isSelected() && selected->text(0) == "mug");
  check.treeItem("Scene selected row 'mug'", tree, selected, 0);

  // Properties of the selected mug: name, material, mass, Young's modulus, position.
  PropertiesDock* properties = w.propertiesDock();
  bringForward(w, properties);
  check.label("Properties name", properties->findChild<QLabel*>("propertiesName"));
  const auto combos = properties->findChildren<QComboBox*>();
  QVERIFY(!combos.isEmpty());
  check.combo("Properties material", combos.front());
  const auto spins = properties->findChildren<QDoubleSpinBox*>();
  for (QDoubleSpinBox* s : spins)
    if (s->objectName().isEmpty()) check.field("Properties mass", s, s->text());
  for (const char* axis : {"pose_x", "pose_y", "pose_z"}) {
    auto* s = properties->findChild<QDoubleSpinBox*>(axis);
    QVERIFY(s);
    check.field(QString("Properties %1").arg(axis), s, s->text());
  }
  const auto edits = properties->findChildren<QLineEdit*>();
  for (QLineEdit* e : edits)
    if (!e->placeholderText().isEmpty())  // Young's modulus ("rigid" when empty)
      check.field("Properties Young's modulus", e, e->text().isEmpty() ? e->placeholderText() : e->text());

  // DOFs: every DOF's value (the rows come first; eigengrasp amplitudes follow and may scroll).
  DofDock* dofs = w.dofDock();
  bringForward(w, dofs);
  const auto dofSpins = dofs->findChildren<QDoubleSpinBox*>();
  const int dofCount = static_cast<int>(w.document()->world().robots.at(0).dofs.size());
  QVERIFY(dofCount >= 1 && dofSpins.size() >= dofCount);
  for (int k = 0; k < dofCount; ++k) check.field(QString("DOF %1 value").arg(k), dofSpins[k], dofSpins[k]->text());

  // Contacts: the summary and the first rows' bodies and type.
  auto* contacts = w.findChild<ContactsDock*>();
  QVERIFY(contacts);
  bringForward(w, contacts);
  check.label("Contacts summary", contacts->findChild<QLabel*>("contactsSummary"));
  auto* table = contacts->findChild<QTableWidget*>("contactsTable");
  QVERIFY(table && table->rowCount() >= 3);
  for (int row = 0; row < 2; ++row)
    for (int column : {0, 1}) check.cell(QString("Contacts row %1 column %2").arg(row + 1).arg(column), table, row, column);

  // Quality: graspable, force closure, every measure's value, the settings in force.
  auto* quality = w.findChild<QualityDock*>();
  QVERIFY(quality);
  bringForward(w, quality);
  check.label("Quality graspable", quality->graspableLabel());
  check.label("Quality force closure", quality->forceClosureLabel());
  for (int row = 0; row < quality->table()->rowCount(); ++row) {
    check.cell(QString("Quality measure %1").arg(row), quality->table(), row, 0);
    check.cell(QString("Quality value %1").arg(row), quality->table(), row, 1);
  }
  check.label("Quality settings", quality->settingsLabel());

  // Soft Contact inspector: the contact chooser (long names may be elided there: the full text is its tooltip and
  // the contacts table's) and the contact's first values.
  auto* inspector = w.findChild<SoftContactInspector*>();
  QVERIFY(inspector);
  bringForward(w, inspector);
  check.widget("Inspector contact", inspector->contactCombo());
  QCOMPARE(inspector->contactCombo()->toolTip(), inspector->contactCombo()->currentText());
  QTreeWidget* quantities = inspector->tree();
  QVERIFY(quantities->topLevelItemCount() >= 1);
  QTreeWidgetItem* group = quantities->topLevelItem(0);
  check.treeItem(QString("Inspector group '%1'").arg(group->text(0)), quantities, group, 0);
  int values = 0;
  for (int k = 0; k < group->childCount(); ++k) {
    QTreeWidgetItem* item = group->child(k);
    if (!QStringList({"separation", "contactModel", "mu"}).contains(item->data(0, Qt::UserRole).toString())) continue;
    check.treeItem(QString("Inspector label '%1'").arg(item->text(0)), quantities, item, 0);
    check.treeItem(QString("Inspector value '%1'").arg(item->text(0)), quantities, item, 1);
    ++values;
  }
  QCOMPARE(values, 3);
  bringForward(w, quality);  // as the user had it

  // Any other dock: at least its content is on screen.
  for (QDockWidget* d : docks)
    if (d != scene && d != properties && d != dofs && d != contacts && d != quality && d != inspector) {
      bringForward(w, d);
      check.widget(QString("Dock %1").arg(d->objectName()), d->widget());
    }

  // The legend of the arrows in the 3-D view.
  auto* legend = w.findChild<OverlayLegendWidget*>();
  QVERIFY(legend);
  QVERIFY(!legend->entries().empty());
  check.widget("Overlay legend", legend);
  const QSize needed = overlayLegendSize(legend->fitted().lines, legend->font(), legend->parentWidget()->width() - 16);
  if (needed.width() > legend->width() || needed.height() > legend->height())
    check.area("Overlay legend (whole text)", legend, QRect(QPoint(0, 0), needed));
  // A bounded share of the view (it covered ~40 % of it at 800×600).
  const QSize view = legend->parentWidget()->size();
  const double share = double(legend->width()) * legend->height() / (double(view.width()) * view.height());
  const QSize unfitted = overlayLegendSize(legend->entries(), overlayLegendFont(), view.width() - 16);  // before
  qInfo("legend %d×%d in a %d×%d view: %.1f %% of it (%s lines; the full lines would take %.1f %%)", legend->width(),
        legend->height(), view.width(), view.height(), 100 * share, legend->fitted().compact ? "compact" : "full",
        100.0 * unfitted.width() * unfitted.height() / (double(view.width()) * view.height()));
  QVERIFY2(share <= kOverlayLegendMaxAreaFraction, qPrintable(QString::number(share)));
}

// With every bundled world open the window may be made as small as 800×600 (its minimum size fits) and comes back
// to exactly that size from smaller.
void TstUiLayoutGl::windowFitsSmallScreens_data() {
  QTest::addColumn<QString>("world");
  const QDir worlds(sg::test::qInSourceTree("worlds"));
  for (const QString& f : worlds.entryList({"*.xml"}, QDir::Files, QDir::Name))
    QTest::newRow(qPrintable(f)) << worlds.filePath(f);
}

void TstUiLayoutGl::windowFitsSmallScreens() {
  QFETCH(QString, world);
  MainWindow w;
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(w.openWorldFile(world));
  QApplication::processEvents();
  const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
  QVERIFY2(minimum.width() <= 800 && minimum.height() <= 600,
           qPrintable(QString("minimum %1×%2").arg(minimum.width()).arg(minimum.height())));
  w.resize(640, 480);
  QTest::qWait(50);
  w.resize(800, 600);
  QTest::qWait(50);
  QCOMPARE(w.size(), QSize(800, 600));
  w.document()->undoStack()->setClean();
}

QTEST_MAIN(TstUiLayoutGl)
#include "tst_ui_layout_gl.moc"
