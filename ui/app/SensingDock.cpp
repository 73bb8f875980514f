#include "SensingDock.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>


#include "Document.h"
#include "core/Error.h"

namespace sg::app {

namespace {

QString sensingNumber(double v, int digits = 4) { return QString::number(v, 'g', digits); }
QString vec(const Vec3& v) {
  return QStringLiteral("(%1, %2, %3)").arg(sensingNumber(v.x()), sensingNumber(v.y()), sensingNumber(v.z()));
}
QString frame(const Transform& X) {
  const Quat& q = X.rotation();
  return vec(X.translation()) +
         QStringLiteral(" q(%1, %2, %3, %4)")
             .arg(sensingNumber(q.w()), sensingNumber(q.x()), sensingNumber(q.y()), sensingNumber(q.z()));
}

}  // namespace

SensingDock::SensingDock(Document* doc, QWidget* parent) : QDockWidget(tr("Sensing"), parent), doc_(doc) {
  setObjectName("sensingDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  auto* row = new QHBoxLayout;
  squeeze_ = new QComboBox(body);
  squeeze_->setObjectName("sensingSqueeze");
  squeeze_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // narrow: a bottom tab
  squeeze_->setMinimumContentsLength(8);
  squeeze_->addItems({tr("As placed"), tr("Squeeze by DOF effort"), tr("Squeeze by extra motion")});
  squeeze_->setToolTip(tr("Penalty contact of the hand as placed, or after closing it past first contact by each "
                          "DOF's effort (quasi-static equilibrium) or by a set extra DOF motion"));
  extraJointValue_ = new QDoubleSpinBox(body);
  extraJointValue_->setObjectName("sensingMotionDegrees");
  extraJointValue_->setRange(0, 30);
  extraJointValue_->setDecimals(3);
  extraJointValue_->setValue(1);
  extraJointValue_->setSuffix(tr(" °"));
  extraJointValue_->setToolTip(tr("Extra motion of each closing DOF (degrees; prismatic DOFs: mm)"));
  extraJointValue_->setEnabled(false);
  row->addWidget(squeeze_);
  row->addWidget(extraJointValue_);
  row->addStretch();
  layout->addLayout(row);
  summary_ = new QLabel(body);
  summary_->setObjectName("sensingSummary");
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  table_ = new QTableWidget(0, kColumnCount, body);
  table_->setObjectName("sensingTable");
  table_->setHorizontalHeaderLabels({tr("Body 1"), tr("Body 2"), tr("Separation (mm)"), tr("Contact"),
                                     tr("Normal (N)"), tr("Friction (N)"), tr("Normal force on 1 (N)"),
                                     tr("Friction on 1 (N)"), tr("Point 1 (mm)"), tr("Point 2 (mm)"), tr("Frame 1"),
                                     tr("Frame 2")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(table_);
  setWidget(body);

  connect(squeeze_, &QComboBox::currentIndexChanged, this, [this](int index) {
    extraJointValue_->setEnabled(index == kMotionSqueeze);
    rebuild();
  });
  connect(extraJointValue_, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
  connect(doc_, &Document::worldChanged, this, [this] { rebuild(); });
  connect(doc_, &Document::selectionChanged, this, [this] { rebuild(); });
  rebuild();
}

void SensingDock::rebuild() {
  const World& world = doc_->world();
  sensing_ = {};
  table_->setRowCount(0);
  if (world.robots.empty()) {
    summary_->setText(tr("No hand in the world."));
    return;
  }
  const int selected = robotIndexOf(doc_->selection());
  const int robot = selected >= 0 ? selected : 0;
  std::optional<SqueezeSettings> squeeze;
  if (squeeze_->currentIndex() != kNoSqueeze) {
    squeeze = squeeze_->currentIndex() == kMotionSqueeze ? motionSqueeze(extraJointValue_->value()) : SqueezeSettings{};
  }
  WorldState state = world.state;  // a squeeze moves the copy's DOFs, never the document's
  try {
    sensing_ = senseHand(world, state, robot, PenaltySettings{}, squeeze);
  } catch (const Error& e) {
    summary_->setText(tr("Sensing failed: %1").arg(QString::fromStdString(e.message())));
    return;
  }
  int touching = 0;
  table_->setRowCount(static_cast<int>(sensing_.rows.size()));
  for (std::size_t i = 0; i < sensing_.rows.size(); ++i) {
    const HandSensingRow& r = sensing_.rows[i];
    const PenaltySensing& s = r.sensing;
    const Contact& c = s.contact;
    touching += s.signal ? 1 : 0;
    const QString cells[kColumnCount] = {QString::fromStdString(world.bodyLabel(r.hand)),
                                         QString::fromStdString(world.bodyLabel(r.other)),
                                         sensingNumber(c.separation_mm),
                                         s.signal ? QStringLiteral("1") : QStringLiteral("0"),
                                         sensingNumber(s.normalForce_N),
                                         sensingNumber(s.frictionForce_N),
                                         vec(s.normalForce_W_N),
                                         vec(s.frictionForce_W_N),
                                         vec(c.side1.p_WC_mm),
                                         vec(c.side2.p_WC_mm),
                                         frame(c.side1.X_WC),
                                         frame(c.side2.X_WC)};
    for (int col = 0; col < kColumnCount; ++col)
      table_->setItem(static_cast<int>(i), col, new QTableWidgetItem(cells[col]));
  }
  QString text = tr("%1: %2 pairs, %3 in contact")
                     .arg(QString::fromStdString(world.robots[static_cast<std::size_t>(robot)].name))
                     .arg(sensing_.rows.size())
                     .arg(touching);
  if (sensing_.squeeze) {
    const SqueezeResult& q = *sensing_.squeeze;
    if (!q.converged) text += tr("; the squeeze did not converge");
    for (const std::string& note : q.notes) text += QStringLiteral("; ") + QString::fromStdString(note);
  }
  summary_->setText(text);
}

}  // namespace sg::app
