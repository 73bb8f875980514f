#include "ComparisonDock.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShowEvent>
#include <QTableWidget>
#include <QVBoxLayout>

#include "Document.h"
#include "GraspAnalysis.h"
#include "JobRunner.h"
#include "QualityDock.h"
#include "render/ContactSurfaceNodes.h"
#include "render/PatchOutlineNodes.h"

namespace sg::app {

namespace {

QString comparisonNumber(double v) { return QString::number(v, 'g', 5); }

QColor colourOf(const std::string& model) {
  const auto c = comparisonColour(std::string_view(model));
  return QColor::fromRgbF(c[0], c[1], c[2]);
}

}  // namespace

std::optional<GraspSnapshot> snapshotGrasp(const Document& doc, const GraspAnalysis& analysis) {
  if (analysis.graspableIndex() < 0) return std::nullopt;
  GraspSnapshot s;
  s.world = std::make_shared<const World>(doc.world());
  s.state = doc.world().state;
  s.contacts = analysis.contacts();
  s.graspable = analysis.graspableIndex();
  s.settings = analysis.settings().quality;
  return s;
}

ComparisonDock::ComparisonDock(GraspAnalysis* analysis, const Document* doc, QWidget* parent)
    : QDockWidget(tr("Comparison"), parent), analysis_(analysis), doc_(doc), jobs_(new JobRunner(this)) {
  setObjectName("comparisonDock");
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* boxes = new QHBoxLayout;
  boxes->addWidget(new QLabel(tr("Overlay:"), content));
  for (std::size_t k = 0; k < contactModels().size(); ++k) {
    const ContactModel* m = contactModels()[k];
    auto* box = new QCheckBox(QString::fromStdString(m->name()), content);
    box->setObjectName(QStringLiteral("overlay_") + QString::fromStdString(m->name()));
    box->setToolTip(tr("Draw the patches of %1 in the 3-D view").arg(QString::fromStdString(m->label())));
    box->setChecked(false);  // outlines clutter the grasp: none until the user asks for a model's
    QPalette p = box->palette();
    p.setColor(QPalette::WindowText, colourOf(m->name()).darker(130));
    box->setPalette(p);
    connect(box, &QCheckBox::toggled, this, &ComparisonDock::overlayModelsChanged);
    boxes->addWidget(box);
    boxes_.push_back(box);
  }
  boxes->addStretch(1);
  layout->addLayout(boxes);

  table_ = new QTableWidget(content);
  table_->setObjectName("comparisonTable");
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  layout->addWidget(table_, 1);

  auto* bottom = new QHBoxLayout;
  status_ = new QLabel(content);
  status_->setObjectName("comparisonStatus");
  status_->setWordWrap(true);
  bottom->addWidget(status_, 1);
  sensitivity_ = new QPushButton(tr("Sensitivity Plots…"), content);
  sensitivity_->setObjectName("sensitivityButton");
  connect(sensitivity_, &QPushButton::clicked, this, &ComparisonDock::sensitivityRequested);
  bottom->addWidget(sensitivity_);
  layout->addLayout(bottom);
  // In a scroll area: the model checkboxes and the table must not widen the dock column (small screens).
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);
  setWidget(scroll);

  connect(analysis_, &GraspAnalysis::updated, this, [this] {
    stale_ = true;
    if (isVisible()) recompute();
  });
  connect(jobs_, &JobRunner::finished, this, [this](std::uint64_t tag, const std::any& result) {
    if (tag != generation_) return;
    const auto* c = JobRunner::resultAs<std::shared_ptr<const ModelComparison>>(result);
    comparison_ = c ? *c : nullptr;
    ++comparisons_;
    fill();
    emit comparisonChanged();
  });
  connect(jobs_, &JobRunner::failed, this, [this](std::uint64_t tag, const QString& error) {
    if (tag != generation_) return;
    comparison_.reset();
    ++comparisons_;
    fill();
    status_->setText(tr("Comparison failed: %1").arg(error));
    emit comparisonChanged();
  });
  fill();
}

ComparisonDock::~ComparisonDock() = default;

void ComparisonDock::showEvent(QShowEvent* event) {
  QDockWidget::showEvent(event);
  if (stale_) recompute();
}

void ComparisonDock::recompute() {
  stale_ = false;
  const std::uint64_t tag = ++generation_;
  std::optional<GraspSnapshot> snapshot = snapshotGrasp(*doc_, *analysis_);
  if (!snapshot) {
    jobs_->cancel();
    comparison_.reset();
    ++comparisons_;
    fill();
    emit comparisonChanged();
    return;
  }
  status_->setText(tr("Comparing…"));
  jobs_->submit(tag, [s = std::move(*snapshot)](ProgressSink& progress) -> std::any {
    auto c = std::make_shared<const ModelComparison>(
        compareModels(*s.world, s.state, s.contacts, s.graspable, s.settings, ComparisonRequest{}, progress));
    return std::shared_ptr<const ModelComparison>(c);
  });
}

QStringList ComparisonDock::overlayModels() const {
  QStringList out;
  for (std::size_t k = 0; k < boxes_.size(); ++k)
    if (boxes_[k]->isChecked()) out << QString::fromStdString(contactModels()[k]->name());
  return out;
}

void ComparisonDock::setOverlayModel(const QString& model, bool shown) {
  if (QCheckBox* box = overlayCheckBox(model)) box->setChecked(shown);
}

QCheckBox* ComparisonDock::overlayCheckBox(const QString& model) const {
  for (std::size_t k = 0; k < boxes_.size(); ++k)
    if (contactModels()[k]->name() == model.toStdString()) return boxes_[k];
  return nullptr;
}

QString ComparisonDock::cellText(int row, const QString& model) const {
  for (int c = 0; c < table_->columnCount(); ++c)
    if (table_->horizontalHeaderItem(c)->data(Qt::UserRole).toString() == model)
      return table_->item(row, c) ? table_->item(row, c)->text() : QString();
  return {};
}

void ComparisonDock::fill() {
  table_->clear();
  const ModelComparison* c = comparison_.get();
  if (!c || c->graspable < 0) {
    table_->setRowCount(0);
    table_->setColumnCount(0);
    status_->setText(c ? tr("No graspable body.") : tr("No comparison yet."));
    return;
  }
  table_->setColumnCount(static_cast<int>(c->columns.size()));
  for (std::size_t k = 0; k < c->columns.size(); ++k) {
    auto* header = new QTableWidgetItem(QString::fromStdString(c->columns[k].model));
    header->setToolTip(QString::fromStdString(c->columns[k].label));
    header->setData(Qt::UserRole, QString::fromStdString(c->columns[k].model));
    header->setForeground(colourOf(c->columns[k].model).darker(130));
    table_->setHorizontalHeaderItem(static_cast<int>(k), header);
  }
  const QStringList quantities = {tr("patch"), tr("area (mm²)"), tr("normal force (N)"),
                                  tr("peak pressure (%1)").arg(QString::fromUtf8(kPressureUnit.name)),
                                  tr("torsional limit (N·mm)")};
  const int perContact = static_cast<int>(quantities.size());
  const int contactRows = perContact * static_cast<int>(c->rows.size());
  table_->setRowCount(contactRows + static_cast<int>(c->measures.size()));
  QStringList labels;
  for (std::size_t r = 0; r < c->rows.size(); ++r)
    for (int q = 0; q < perContact; ++q)
      labels << (q == 0 ? tr("%1 %2").arg(r + 1).arg(QString::fromStdString(c->rows[r].label))
                        : QStringLiteral("%1 %2").arg(r + 1).arg(quantities[q]));
  for (const std::string& m : c->measures) labels << measureLabel(QString::fromStdString(m));
  table_->setVerticalHeaderLabels(labels);

  for (std::size_t k = 0; k < c->columns.size(); ++k) {
    const ModelColumn& column = c->columns[k];
    const int col = static_cast<int>(k);
    for (std::size_t r = 0; r < c->rows.size(); ++r) {
      const ComparedContact& cell = column.contacts[r];
      const int row = perContact * static_cast<int>(r);
      QStringList texts;
      if (!column.ok) {
        texts = {tr("failed"), {}, {}, {}, {}};
      } else if (!cell.present) {
        texts = {cell.mergedInto >= 0 ? tr("merged into %1").arg(cell.mergedInto + 1) : tr("—"), {}, {}, {}, {}};
      } else {
        QString shape = QString::fromUtf8(toString(cell.kind));
        if (!cell.patchShape.empty()) shape += QStringLiteral(", ") + QString::fromStdString(cell.patchShape);
        auto value = [](double v) { return v > 0 ? comparisonNumber(v) : QStringLiteral("—"); };
        texts = {shape, value(cell.patchArea_mm2), value(cell.normalForce_N), value(cell.peakPressure_Pa / kPressureUnit.pascals),
                 value(cell.maxTorsionalFriction_Nmm)};
      }
      for (int q = 0; q < perContact; ++q) {
        auto* item = new QTableWidgetItem(texts[q]);
        if (q == 0 && !cell.note.empty()) item->setToolTip(QString::fromStdString(cell.note));
        table_->setItem(row + q, col, item);
      }
    }
    for (std::size_t m = 0; m < c->measures.size(); ++m) {
      const MeasureValue* v = column.measure(c->measures[m]);
      auto* item = new QTableWidgetItem(!column.ok   ? tr("failed")
                                        : v && v->ok ? comparisonNumber(v->value)
                                                     : tr("n/a"));
      if (!column.ok) item->setToolTip(QString::fromStdString(column.error));
      else if (v && !v->message.empty()) item->setToolTip(QString::fromStdString(v->message));
      table_->setItem(contactRows + static_cast<int>(m), col, item);
    }
  }
  status_->setText(tr("%n contact(s) under %1 models; the live analysis' contacts, one evaluation per model.", "",
                      static_cast<int>(c->rows.size()))
                       .arg(c->columns.size()));
}

}  // namespace sg::app
