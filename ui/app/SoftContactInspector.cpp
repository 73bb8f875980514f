#include "SoftContactInspector.h"

#include <QScrollArea>

#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <set>
#include <tuple>

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include "Document.h"
#include "GraspAnalysis.h"
#include "contact/models/SoftFingerContactModel.h"
#include "contact/SoftNeighbourhood.h"
#include "render/ContactSurfaceNodes.h"
#include "render/SoftPatchNodes.h"

namespace sg::app {

namespace {

QString number(double v) { return QString::number(v, 'g', 6); }

// The label the scene tree and contacts dock use ("ThreeFinger/chain0/link2"): link names repeat.
QString bodyName(const World& world, const BodyHandle& h) {
  if (!world.isValid(h)) return QObject::tr("(unknown body)");
  return QString::fromStdString(world.bodyLabel(h));
}

QString modelName(const ContactEvaluation& ce) {
  switch (ce.kind) {
    case ContactKind::Frictionless: return QObject::tr("frictionless point");
    case ContactKind::PointWithFriction: return QObject::tr("point with friction");
    case ContactKind::SoftFinger: return QObject::tr("soft finger");
  }
  return {};
}

QString fitStatus(QuadricFitStatus s) {
  switch (s) {
    case QuadricFitStatus::Ok: return QObject::tr("ok");
    case QuadricFitStatus::TooFewPoints: return QObject::tr("too few points (flat)");
    case QuadricFitStatus::Degenerate: return QObject::tr("degenerate (flat)");
    case QuadricFitStatus::Unreliable: return QObject::tr("unreliable");
  }
  return {};
}

// The status with its reason ("unreliable: RMS residual … of the 3.51 mm neighbourhood …", or how an ok fit was
// obtained: "ok: neighbourhood grown from 3.51 to 7.02 mm …").
QString fitStatusText(const QuadricFit& f) {
  const QString status = fitStatus(f.status);
  return f.note.empty() ? status : QObject::tr("%1: %2").arg(status, QString::fromStdString(f.note));
}

QString patchFallbackText(const SoftPatch& p) {
  switch (p.fallback) {
    case PatchFallback::None: return QObject::tr("none");
    case PatchFallback::FlatDirection: return QObject::tr("flat direction: flat radius");
    case PatchFallback::ConformingDirection: return QObject::tr("conforming direction: flat radius");
    case PatchFallback::FailedFit: return QObject::tr("failed fit taken as flat");
    case PatchFallback::UnreliableFit: return QObject::tr("unreliable fit taken as flat");
  }
  return {};
}


// Where a side's curvatures came from: GraspIt!'s paraboloid fit, the osculating jet, or any other source
// (an exact primitive, ...) by its estimator name (curvatureEstimatorName), with the estimator's residual.
QString curvatureSource(const QuadricFit& f) {
  QString source;
  if (f.estimator == CurvatureEstimator::GraspItParaboloid)
    source = QObject::tr("GraspIt! fit");
  else if (f.estimator == CurvatureEstimator::OsculatingJet)
    source = QObject::tr("estimated (osculating jet, degree %1)").arg(f.degree);
  else
    source = QString::fromUtf8(curvatureEstimatorName(f.estimator));
  QString residual = QObject::tr("RMS residual %1 mm").arg(number(f.rmsResidual_mm));
  if (f.normalCount > 0) residual += QObject::tr(", slope %1").arg(number(f.rmsSlopeResidual));
  return QObject::tr("%1; %2").arg(source, residual);
}

}  // namespace

SoftContactInspector::SoftContactInspector(GraspAnalysis* analysis, const Document* doc, SoSeparator* overlayRoot,
                                           QWidget* parent)
    : QDockWidget(tr("Soft Contact"), parent), analysis_(analysis), doc_(doc), overlayRoot_(overlayRoot) {
  setObjectName("softContactInspector");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  combo_ = new QComboBox(body);
  combo_->setObjectName("inspectorContactCombo");
  // As wide as the dock, not as its longest entry: long body names would widen the dock's content beyond the
  // dock and scroll the values out of view (the full text is in the contacts dock and the tooltip).
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(12);
  note_ = new QLabel(body);
  note_->setObjectName("inspectorNoteLabel");
  note_->setWordWrap(true);
  tree_ = new QTreeWidget(body);
  tree_->setObjectName("inspectorTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Quantity"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->header()->setMinimumSectionSize(40);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(1, QHeaderView::Stretch);  // the values: the rest, down to 40 px
  tree_->viewport()->installEventFilter(this);  // fitQuantityColumn on every resize
  edges_ = new QTableWidget(0, 4, body);
  edges_->setObjectName("inspectorEdgesTable");
  edges_->setHorizontalHeaderLabels({tr("fx (N)"), tr("fy (N)"), tr("fz (N)"), tr("τz (N·mm)")});
  edges_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  edges_->setToolTip(tr("Wrench edges in the contact frame for a unit normal force, μ applied"));
  layout->addWidget(combo_);
  layout->addWidget(note_);
  layout->addWidget(tree_, 2);
  auto* edgesTitle = new QLabel(tr("4-D wrench edges (contact frame, unit normal force, μ applied: fz = 1):"), body);
  edgesTitle->setWordWrap(true);  // never wider than the dock
  layout->addWidget(edgesTitle);
  layout->addWidget(edges_, 1);
  // Scrolls rather than claiming its full height: it shares the right column with the DOF dock.
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(body);
  setWidget(scroll);

  if (overlayRoot_) {
    overlayRoot_->ref();
    highlight_ = new SoSwitch;
    highlight_->setName("softContactHighlight");
    highlight_->ref();
    highlight_->whichChild = SO_SWITCH_ALL;
    overlayRoot_->addChild(highlight_);
  }

  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int row) {
    const QVariant item = combo_->itemData(row);
    analysis_->setSelectedContact(item.isValid() ? std::optional<int>(item.toInt()) : std::nullopt);
  });
  connect(analysis_, &GraspAnalysis::updated, this, &SoftContactInspector::refresh);
  connect(analysis_, &GraspAnalysis::selectedContactChanged, this, &SoftContactInspector::showSelected);
  refresh();
}

SoftContactInspector::~SoftContactInspector() {
  if (overlayRoot_) {
    overlayRoot_->removeChild(highlight_);
    highlight_->unref();
    overlayRoot_->unref();
  }
}

bool SoftContactInspector::eventFilter(QObject* watched, QEvent* event) {
  if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitQuantityColumn();
  return QDockWidget::eventFilter(watched, event);
}

void SoftContactInspector::fitQuantityColumn() {
  tree_->resizeColumnToContents(0);
  const int width = tree_->viewport()->width();
  tree_->setColumnWidth(0, std::min(tree_->columnWidth(0), std::max(width * 3 / 5, width - 80)));
}

void SoftContactInspector::refresh() {
  fillContactCombo();
  showSelected();
}

void SoftContactInspector::fillContactCombo() {
  const QSignalBlocker block(combo_);
  combo_->clear();
  combo_->addItem(tr("(no contact selected)"));
  const World& world = doc_->world();
  const auto& contacts = analysis_->contacts();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    QString text = tr("#%1  %2 – %3").arg(i + 1).arg(bodyName(world, c.side1.body), bodyName(world, c.side2.body));
    if (const auto ev = analysis_->evaluationOfContact(static_cast<int>(i));
        ev && analysis_->evaluation()->contacts[*ev].kind == ContactKind::SoftFinger)
      text += tr("  (soft)");
    combo_->addItem(text, static_cast<int>(i));
  }
}

QTreeWidgetItem* SoftContactInspector::addGroup(const QString& title) {
  auto* item = new QTreeWidgetItem(tree_, {title});
  item->setFirstColumnSpanned(true);
  item->setExpanded(true);
  return item;
}

void SoftContactInspector::addValue(QTreeWidgetItem* group, const QString& key, const QString& name,
                                    const QString& value) {
  auto* item = new QTreeWidgetItem(group, {name, value});
  item->setData(0, Qt::UserRole, key);
  items_.insert(key, item);
}

QString SoftContactInspector::valueText(const QString& key) const {
  const auto it = items_.constFind(key);
  return it == items_.constEnd() ? QString() : (*it)->text(1);
}

void SoftContactInspector::showSelected() {
  tree_->clear();
  items_.clear();
  edges_->setRowCount(0);
  const std::optional<int> selected = analysis_->selectedContact();
  {
    const QSignalBlocker block(combo_);
    combo_->setCurrentIndex(selected ? *selected + 1 : 0);
    combo_->setToolTip(combo_->currentText());
  }
  if (!selected) {
    note_->setText(tr("Select a contact above, in the contacts dock or in the viewport."));
    highlight({});
    return;
  }
  const World& world = doc_->world();
  const Contact& contact = analysis_->contacts()[static_cast<std::size_t>(*selected)];
  QTreeWidgetItem* general = addGroup(tr("Contact #%1").arg(*selected + 1));  // 1-based, as the contacts table
  addValue(general, "bodies", tr("Bodies"),
           tr("%1 – %2").arg(bodyName(world, contact.side1.body), bodyName(world, contact.side2.body)));
  addValue(general, "separation", tr("Separation (mm)"), number(contact.separation_mm));

  const std::optional<int> ev = analysis_->evaluationOfContact(*selected);
  if (!ev) {
    note_->setText(tr("This contact is not part of the evaluated grasp (it does not join the hand and the "
                      "graspable, or the evaluation failed)."));
    highlight({});
    return;
  }
  const GraspEvaluation& evaluation = *analysis_->evaluation();
  const ContactEvaluation& ce = evaluation.contacts[static_cast<std::size_t>(*ev)];
  const SoftContactResult* soft = softContactResult(evaluation.modelResult.get(), static_cast<std::size_t>(*ev));
  addValue(general, "contactModel", tr("Contact model"), QString::fromStdString(evaluation.contactModel));
  addValue(general, "model", tr("Model"), modelName(ce));
  addValue(general, "mu", tr("μ"), number(ce.mu));
  if (ce.sourceContacts.size() > 1) {
    QStringList merged;
    for (int s : ce.sourceContacts) merged << QString::number(s);
    addValue(general, "merged", tr("Merged contacts"), merged.join(", "));
  }

  // The 4-D wrench edges: f = n + μ(e0 t_x + e1 t_y), τ_n = μ e5, at unit normal force.
  edges_->setRowCount(static_cast<int>(ce.frictionEdges.size()));
  for (int row = 0; row < static_cast<int>(ce.frictionEdges.size()); ++row) {
    const Vec6& e = ce.frictionEdges[static_cast<std::size_t>(row)];
    const double values[4] = {ce.mu * e[0], ce.mu * e[1], 1.0, ce.mu * e[5]};
    for (int col = 0; col < 4; ++col) edges_->setItem(row, col, new QTableWidgetItem(number(values[col])));
  }

  if (!soft) {
    QString text = tr("Not a soft contact: %1.").arg(modelName(ce));
    if (!ce.note.empty()) text += QStringLiteral(" ") + QString::fromStdString(ce.note);
    note_->setText(text);
    highlight({});
    return;
  }
  note_->setText(ce.note.empty() ? QString() : QString::fromStdString(ce.note));

  QTreeWidgetItem* hood = addGroup(tr("Neighbourhood"));
  addValue(hood, "radius", tr("Radius (mm)"), number(soft->neighbourhoodRadius_mm));
  addValue(hood, "size1", tr("Points, side 1"), QString::number(soft->neighbourhoods.side1.size()));
  addValue(hood, "size2", tr("Points, side 2"), QString::number(soft->neighbourhoods.side2.size()));

  const QuadricFit* fits[2] = {&soft->fit1, &soft->fit2};
  const ContactSide* sides[2] = {&ce.contact.side1, &ce.contact.side2};
  for (int k = 0; k < 2; ++k) {
    const QuadricFit& f = *fits[k];
    const QString n = QString::number(k + 1);
    const bool onObject = (k == 0) == ce.objectIsSide1;
    QTreeWidgetItem* g = addGroup(tr("Fit, side %1: %2 (%3)")
                                      .arg(n, bodyName(world, sides[k]->body), onObject ? tr("object") : tr("hand")));
    addValue(g, "source" + n, tr("Curvature source"), curvatureSource(f));
    addValue(g, "status" + n, tr("Status"), fitStatusText(f));
    if (f.neighbourhoodRadius_mm > 0)
      addValue(g, "relativeResidual" + n, tr("Residual / neighbourhood"),
               tr("%1 % of %2 mm").arg(number(100 * f.relativeResidual), number(f.neighbourhoodRadius_mm)));
    addValue(g, "a" + n, tr("a (1/mm)"), number(f.a));
    addValue(g, "b" + n, tr("b (1/mm)"), number(f.b));
    addValue(g, "c" + n, tr("c (1/mm)"), number(f.c));
    addValue(g, "residual" + n, tr("RMS residual (mm)"), number(f.rmsResidual_mm));
    if (f.normalCount > 0) addValue(g, "slopeResidual" + n, tr("RMS slope residual"), number(f.rmsSlopeResidual));
    addValue(g, "kappaMax" + n, tr("κmax (1/mm)"), number(f.curvatures.kappaMax_per_mm));
    addValue(g, "kappaMin" + n, tr("κmin (1/mm)"), number(f.curvatures.kappaMin_per_mm));
    addValue(g, "radiusMax" + n, tr("Radius of κmax (mm)"), number(f.curvatures.radiusMax_mm()));
    addValue(g, "radiusMin" + n, tr("Radius of κmin (mm)"), number(f.curvatures.radiusMin_mm()));
  }

  QTreeWidgetItem* rel = addGroup(tr("Relative curvature"));
  addValue(rel, "relKappaMax", tr("κmax (1/mm)"), number(soft->relative.kappaMax_per_mm));
  addValue(rel, "relKappaMin", tr("κmin (1/mm)"), number(soft->relative.kappaMin_per_mm));
  addValue(rel, "relRadiusMin", tr("R′ (mm)"), number(soft->patch.relativeRadiusMin_mm));
  addValue(rel, "relRadiusMax", tr("R″ (mm)"), number(soft->patch.relativeRadiusMax_mm));
  if (soft->patch.flatReplaced) addValue(rel, "flatReplaced", tr("Flat direction"), tr("radius replaced"));
  addValue(rel, "patchFallback", tr("Fallback"),
           soft->patch.fallback == PatchFallback::None
               ? patchFallbackText(soft->patch)
               : tr("%1 (%2)").arg(patchFallbackText(soft->patch), QString::fromStdString(soft->patch.fallbackReason)));

  QTreeWidgetItem* patch = addGroup(tr("Patch"));
  addValue(patch, "patchModel", tr("Model"),
           soft->patch.model == PatchModel::Hertz ? tr("Hertz ellipse") : tr("elastic layer"));
  addValue(patch, "semiAxisLong", tr("Semi-axis a, long (mm)"), number(soft->patch.semiAxisLong_mm));
  addValue(patch, "semiAxisShort", tr("Semi-axis b, short (mm)"), number(soft->patch.semiAxisShort_mm));
  const Vec3& al = soft->patch.axisLong;
  const Vec3& as = soft->patch.axisShort;
  addValue(patch, "axisLong", tr("Long axis (world)"), tr("(%1, %2, %3)").arg(number(al.x()), number(al.y()), number(al.z())));
  addValue(patch, "axisShort", tr("Short axis (world)"), tr("(%1, %2, %3)").arg(number(as.x()), number(as.y()), number(as.z())));
  addValue(patch, "penetration", tr("Penetration δ (mm)"), number(soft->patch.penetration_mm));
  addValue(patch, "maxPressure", tr("Peak pressure (%1)").arg(QString::fromUtf8(kPressureUnit.name)),
           number(soft->patch.maxPressure_Pa / kPressureUnit.pascals));  // the GUI's one pressure unit
  addValue(patch, "modulus", tr("Modulus (Pa)"), number(soft->patch.modulus_Pa));
  addValue(patch, "normalForce", tr("Normal force (N)"), number(soft->patch.normalForce_N));

  QTreeWidgetItem* torsion = addGroup(tr("Torsion"));
  addValue(torsion, "torsion", tr("e_n = τmax/(μN) (mm)"), number(ce.torsion_mm));
  addValue(torsion, "maxTorsionalFriction", tr("Max torsional friction (N·mm)"), number(ce.maxTorsionalFriction_Nmm));

  // The neighbourhood points the fits used (both sides; the analysis keeps them).
  std::vector<Vec3> points = soft->neighbourhoods.side1.allPoints_mm();
  for (const Vec3& p : soft->neighbourhoods.side2.allPoints_mm()) points.push_back(p);
  highlight(points);
  fitQuantityColumn();
}

void SoftContactInspector::highlight(const std::vector<Vec3>& points) {
  points_ = points;
  if (!highlight_) return;
  highlight_->removeAllChildren();
  if (points_.empty()) return;
  auto* group = new SoSeparator;
  auto* xray = new SoDepthBuffer;  // seen through the finger that covers them
  xray->test = false;
  group->addChild(xray);
  group->addChild(makePointMarkersNode(points_));
  highlight_->addChild(group);
}

}  // namespace sg::app
