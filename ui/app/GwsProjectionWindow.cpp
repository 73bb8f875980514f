#include "GwsProjectionWindow.h"

#include <QKeySequence>
#include <QShortcut>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QShowEvent>
#include <QVBoxLayout>
#include <exception>
#include <limits>
#include <set>

#include <Inventor/nodes/SoSeparator.h>

#include "GraspAnalysis.h"
#include "render/HullNodes.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {
constexpr double kNoDepth = -std::numeric_limits<double>::infinity();  // as originDepth of no projection
}  // namespace

QString wrenchCoordinateName(int coordinate) {
  static const char* names[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  return coordinate >= 0 && coordinate < 6 ? QLatin1String(names[coordinate]) : QString();
}

GwsProjectionWindow::GwsProjectionWindow(GraspAnalysis* analysis, bool withViewport, QWidget* parent)
    : QWidget(parent, Qt::Window), analysis_(analysis), originDepth_(kNoDepth) {
  setObjectName("gwsProjectionWindow");
  setWindowTitle(tr("GWS Projection"));
  // Esc closes it, as it would a dialog.
  auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
  escape->setContext(Qt::WindowShortcut);
  connect(escape, &QShortcut::activated, this, &QWidget::close);

  type_ = new QComboBox;
  type_->setObjectName("gwsTypeCombo");
  type_->addItem(tr("L1 (sum of normal forces ≤ 1)"));
  type_->addItem(tr("L∞ (each normal force ≤ 1)"));
  auto* form = new QFormLayout;
  form->addRow(tr("Wrench space:"), type_);
  const std::array<int, 3> defaults = GwsProjectionSettings{}.fixedCoordinates;
  for (int i = 0; i < 3; ++i) {
    coordinates_[i] = new QComboBox;
    coordinates_[i]->setObjectName(QStringLiteral("fixedCoordinateCombo%1").arg(i));
    for (int c = 0; c < 6; ++c) coordinates_[i]->addItem(wrenchCoordinateName(c));
    coordinates_[i]->setCurrentIndex(defaults[i]);
    values_[i] = new QDoubleSpinBox;
    values_[i]->setObjectName(QStringLiteral("fixedValueSpin%1").arg(i));
    values_[i]->setRange(-10.0, 10.0);
    values_[i]->setDecimals(3);
    values_[i]->setSingleStep(0.05);
    values_[i]->setToolTip(tr("Normalised units: forces per unit normal force, torques divided by the torque scale"));
    auto* row = new QHBoxLayout;
    row->addWidget(coordinates_[i]);
    row->addWidget(new QLabel(QStringLiteral("=")));
    row->addWidget(values_[i], 1);
    form->addRow(tr("Fixed coordinate %1:").arg(i + 1), row);
    connect(coordinates_[i], &QComboBox::currentIndexChanged, this, &GwsProjectionWindow::refresh);
    connect(values_[i], &QDoubleSpinBox::valueChanged, this, &GwsProjectionWindow::refresh);
  }
  connect(type_, &QComboBox::currentIndexChanged, this, [this] {
    emit typeChanged();  // may make the analysis build the L∞ space (and update)
    refresh();
  });

  summary_ = new QLabel;
  summary_->setObjectName("gwsSummaryLabel");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  if (withViewport) {
    sceneRoot_ = new SoSeparator;
    sceneRoot_->ref();
    viewport_ = new ui::CoinViewport(this);
    viewport_->setObjectName("gwsViewport");
    viewport_->setMinimumSize(360, 300);
    layout->addWidget(viewport_, 1);
  }
  layout->addWidget(summary_);
  connect(analysis_, &GraspAnalysis::updated, this, &GwsProjectionWindow::refresh);
  connect(analysis_, &GraspAnalysis::lInfinityUpdated, this, [this] {
    if (type() == GwsType::LInfinity) refresh();
  });
  connect(analysis_, &GraspAnalysis::l1HullUpdated, this, [this] {
    if (type() == GwsType::L1) refresh();
  });
  refresh();
  resize(withViewport ? QSize(520, 620) : QSize(420, 260));
}

GwsProjectionWindow::~GwsProjectionWindow() {
  if (viewport_) viewport_->setSceneGraph(nullptr);
  if (sceneRoot_) sceneRoot_->unref();
}

GwsType GwsProjectionWindow::type() const { return type_->currentIndex() == 1 ? GwsType::LInfinity : GwsType::L1; }

void GwsProjectionWindow::setType(GwsType type) { type_->setCurrentIndex(type == GwsType::LInfinity ? 1 : 0); }

void GwsProjectionWindow::setFixed(const std::array<int, 3>& coordinates, const Vec3& values) {
  for (int i = 0; i < 3; ++i) {
    const QSignalBlocker blockCoordinate(coordinates_[i]);
    const QSignalBlocker blockValue(values_[i]);
    coordinates_[i]->setCurrentIndex(coordinates[i]);
    values_[i]->setValue(values[i]);
  }
  refresh();
}

std::array<int, 3> GwsProjectionWindow::fixedCoordinates() const {
  return {coordinates_[0]->currentIndex(), coordinates_[1]->currentIndex(), coordinates_[2]->currentIndex()};
}

Vec3 GwsProjectionWindow::fixedValues() const {
  return Vec3(values_[0]->value(), values_[1]->value(), values_[2]->value());
}

void GwsProjectionWindow::refresh() {
  projection_ = GwsProjection{};
  const auto& evaluation = analysis_->evaluation();
  const std::array<int, 3> fixed = fixedCoordinates();
  const bool lInf = type() == GwsType::LInfinity;
  const QualitySettings& settings = analysis_->settings().quality;
  const GraspWrenchSpace* gws = evaluation ? (lInf ? &evaluation->lInfinity : &evaluation->l1) : nullptr;
  if (!evaluation) {
    projection_.message = analysis_->error().isEmpty() ? "no grasp evaluated" : analysis_->error().toStdString();
  } else if (std::set<int>(fixed.begin(), fixed.end()).size() != 3) {
    projection_.message = "choose three different fixed coordinates";
  } else if (lInf && analysis_->lInfinityPending()) {
    projection_.message = "the L∞ space is being computed";
  } else if (!lInf && analysis_->l1HullPending()) {
    projection_.message = "the L1 space is being computed";
  } else if (lInf && (!analysis_->settings().computeLInfinity || gws->limitExceeded)) {
    projection_.message = "the L∞ hull is not built (its Minkowski sum is over the engine's limit of " +
                          std::to_string(settings.gws.maxLInfinityPoints) + " points; ε L∞ does not need it)";
  } else if (!gws->hull.ok()) {
    projection_.message = std::string("the wrench space has no hull (") + toString(gws->hull.status) + ")";
  } else {
    GwsProjectionSettings ps;
    ps.fixedCoordinates = fixed;
    ps.fixedValues = fixedValues();
    try {
      projection_ = projectGws(gws->hyperplanes6, ps);
    } catch (const std::exception& e) {
      projection_ = GwsProjection{};
      projection_.message = e.what();
    }
  }
  originDepth_ = sg::originDepth(projection_);  // the member originDepth() hides it
  summary_->setText(summary());
  rebuildScene();
}

QString GwsProjectionWindow::summary() const {
  if (!projection_.valid) return tr("No projection: %1.").arg(QString::fromStdString(projection_.message));
  QStringList free;
  for (int c : projection_.freeCoordinates) free << wrenchCoordinateName(c);
  QString text = tr("Free coordinates %1: %2 vertices, %3 triangles.")
                     .arg(free.join(' '))
                     .arg(projection_.vertices.size())
                     .arg(projection_.triangles.size());
  if (originDepth_ > 0)
    text += tr(" The origin is inside the slice, %1 from its boundary.").arg(originDepth_, 0, 'f', 4);
  else
    text += tr(" The origin is outside the slice.");
  return text;
}

void GwsProjectionWindow::rebuildScene() {
  if (!sceneRoot_) return;
  sceneRoot_->removeAllChildren();
  std::array<std::string, 3> names;
  for (int i = 0; i < 3; ++i) names[i] = wrenchCoordinateName(projection_.freeCoordinates[i]).toStdString();
  sceneRoot_->addChild(makeHullNode(projection_.vertices, projection_.triangles, names));
  if (viewport_->sceneGraph() != sceneRoot_) viewport_->setSceneGraph(sceneRoot_);
  if (!framed_ && projection_.valid) {
    viewport_->viewAll();
    framed_ = true;
  }
  viewport_->update();
}

}  // namespace sg::app
