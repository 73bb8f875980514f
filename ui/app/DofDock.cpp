#include "DofDock.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "CollisionStoppedEdits.h"
#include "Commands.h"
#include "Document.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"

namespace sg::app {

DofDock::DofDock(Document* doc, QWidget* parent) : QDockWidget(tr("DOFs"), parent), doc_(doc) {
  setObjectName("DofDock");
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setWidget(scroll);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind kind) {
    if (kind == ChangeKind::Structure || chooseRobot() != robot_)
      rebuild();
    else if (kind == ChangeKind::Dofs || kind == ChangeKind::Poses)
      refreshValues();
  });
  connect(doc_, &Document::selectionChanged, this, [this] {
    if (chooseRobot() != robot_) rebuild();
  });
  rebuild();
}

int DofDock::contentHeight() const {
  const int rows = dofRowCount() + eigenRowCount() + (eigenRowCount() > 0 ? 1 : 0);
  const int rowHeight = dofRows_.empty() ? fontMetrics().height() + 8 : dofRows_.front().spin->sizeHint().height() + 6;
  return (rows + 1) * rowHeight + 24;  // + the title row and the margins
}

int DofDock::chooseRobot() const {
  const int selected = robotIndexOf(doc_->selection());
  if (selected >= 0) return selected;
  return doc_->world().robots.empty() ? -1 : 0;
}

DofDock::Row DofDock::makeRow(QGridLayout* grid, int gridRow, const QString& name, double min, double max,
                              double displayScale, const QString& suffix) {
  Row row;
  row.min = min;
  row.max = max;
  row.displayScale = displayScale;
  row.slider = new QSlider(Qt::Horizontal, body_);
  row.slider->setRange(0, kSliderSteps);
  row.slider->setEnabled(max > min);
  row.slider->setMinimumWidth(120);
  row.spin = new QDoubleSpinBox(body_);
  row.spin->setDecimals(displayScale == 1 && suffix.isEmpty() ? 3 : 2);
  row.spin->setRange(min * displayScale, max * displayScale);
  row.spin->setSuffix(suffix);
  row.spin->setKeyboardTracking(false);  // one command per finished entry, not per keystroke
  row.spin->setMinimumWidth(90);
  row.spin->setSingleStep(std::max((max - min) * displayScale / 100.0, 0.01));
  grid->addWidget(new QLabel(name, body_), gridRow, 0);
  grid->addWidget(row.slider, gridRow, 1);
  grid->addWidget(row.spin, gridRow, 2);
  return row;
}

void DofDock::rebuild() {
  robot_ = chooseRobot();
  dofRows_.clear();
  eigenRows_.clear();
  body_ = new QWidget;
  auto* layout = new QVBoxLayout(body_);
  title_ = new QLabel(body_);
  layout->addWidget(title_);
  static_cast<QScrollArea*>(widget())->setWidget(body_);  // deletes the previous rows
  if (robot_ < 0) {
    title_->setText(tr("No robot in the world"));
    layout->addStretch();
    return;
  }
  const Robot& robot = doc_->world().robots.at(robot_);
  title_->setText(QString::fromStdString(robot.name));

  auto* grid = new QGridLayout;
  layout->addLayout(grid);
  int gridRow = 0;
  for (int k = 0; k < static_cast<int>(robot.dofs.size()); ++k) {
    const Dof& d = robot.dofs[k];
    const double scale = d.prismatic ? 1.0 : radToDeg(1.0);
    dofRows_.push_back(makeRow(grid, gridRow++, tr("DOF %1").arg(k), d.minValue, d.maxValue, scale,
                               d.prismatic ? tr(" mm") : tr("°")));
    dofRows_.back().slider->setToolTip(tr("DOF %1: %2 to %3%4")
                                           .arg(k)
                                           .arg(d.minValue * scale, 0, 'f', 1)
                                           .arg(d.maxValue * scale, 0, 'f', 1)
                                           .arg(d.prismatic ? tr(" mm") : tr("°")));
    connectRow(dofRows_.back(), k, false);
  }
  if (eigengraspsUsable(robot)) {
    grid->addWidget(new QLabel(tr("<b>Eigengrasps</b>"), body_), gridRow++, 0, 1, 3);
    for (int i = 0; i < static_cast<int>(robot.eigengrasps.grasps.size()); ++i) {
      const auto [lo, hi] = eigenAmplitudeRange(robot, i);
      eigenRows_.push_back(makeRow(grid, gridRow++, tr("EG %1").arg(i), lo, hi, 1.0, QString()));
      connectRow(eigenRows_.back(), i, true);
    }
  }
  layout->addStretch();
  // Wide enough for label, slider and spin box without a horizontal scroll bar.
  widget()->setMinimumWidth(body_->minimumSizeHint().width() + 2 * widget()->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
  refreshValues();
}

void DofDock::connectRow(Row& row, int index, bool eigen) {
  QSlider* slider = row.slider;
  connect(slider, &QSlider::sliderPressed, this, [this] { gesture_ = doc_->beginGesture(); });
  connect(slider, &QSlider::sliderReleased, this, [this] {
    gesture_ = 0;
    refreshValues();  // a collision-stopped drag leaves the slider where the hand let go: show the model
  });
  connect(slider, &QSlider::valueChanged, this, [this, index, eigen](int v) {
    const Row& r = (eigen ? eigenRows_ : dofRows_).at(index);
    setFromRow(index, eigen, r.min + (r.max - r.min) * v / kSliderSteps);
  });
  connect(row.spin, &QDoubleSpinBox::valueChanged, this, [this, index, eigen](double shown) {
    const Row& r = (eigen ? eigenRows_ : dofRows_).at(index);
    setFromRow(index, eigen, shown / r.displayScale);
  });
}

void DofDock::setFromRow(int index, bool eigen, double modelValue) {
  if (robot_ < 0 || robot_ >= static_cast<int>(doc_->world().robots.size())) return;
  const Robot& robot = doc_->world().robots[robot_];
  std::vector<double> values;
  if (eigen) {
    std::vector<double> amplitudes = dofsToAmplitudes(robot, doc_->world().state.robots.at(robot_).dofValues);
    amplitudes.at(index) = modelValue;
    values = amplitudesToDofs(robot, amplitudes);
  } else {
    values = doc_->world().state.robots.at(robot_).dofValues;
    values.at(index) = modelValue;
  }
  if (auto* edits = CollisionStoppedEdits::of(doc_))  // stops at contact when collision checking is on
    edits->setDofValues(robot_, values, gesture_);
  else
    doc_->push(new SetDofValuesCommand(doc_, robot_, std::move(values), gesture_));
  // A blocked edit pushes nothing (no worldChanged), a stopped or clamped one lands elsewhere: either way the
  // widgets must show the model's value, not the refused one.
  refreshValues();
}

void DofDock::refreshValues() {
  if (robot_ < 0 || robot_ >= static_cast<int>(doc_->world().robots.size())) return;
  const Robot& robot = doc_->world().robots[robot_];
  const auto show = [](Row& r, double value) {
    const QSignalBlocker b1(r.slider), b2(r.spin);
    if (!r.slider->isSliderDown()) {  // don't fight the hand on the slider
      const double t = r.max > r.min ? (value - r.min) / (r.max - r.min) : 0.0;
      r.slider->setValue(static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps)));
    }
    r.spin->setValue(value * r.displayScale);
  };
  const std::vector<double>& values = doc_->world().state.robots.at(robot_).dofValues;
  for (std::size_t k = 0; k < dofRows_.size() && k < values.size(); ++k) show(dofRows_[k], values[k]);
  if (!eigenRows_.empty()) {
    const std::vector<double> amplitudes = dofsToAmplitudes(robot, values);
    for (std::size_t i = 0; i < eigenRows_.size() && i < amplitudes.size(); ++i) show(eigenRows_[i], amplitudes[i]);
  }
}

}  // namespace sg::app
