#include "PhysicsRunDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "contact/ContactModel.h"
#include "sim/PhysicsComparison.h"

namespace sg::app {

PhysicsRunSettings::PhysicsRunSettings() {
  const sim::PhysicsComparisonRequest engine;
  seeds = engine.seeds;
  iterations = static_cast<int>(engine.iterations);
  keep = static_cast<int>(engine.keep);
  pull_s = engine.trial.duration_s;
  successScore = engine.successScore;
  threads = std::max(1, QThread::idealThreadCount());
}

PhysicsRunDialog::PhysicsRunDialog(const PhysicsRunSettings& s, bool haveCurrentWorld, QWidget* parent)
    : QDialog(parent) {
  setObjectName("physicsRunDialog");
  setWindowTitle(tr("Run Measures vs Physics"));
  auto* layout = new QVBoxLayout(this);
  current_ = new QCheckBox(tr("The current world (the live analysis' settings, the Grasp toolbar's hand)"), this);
  current_->setChecked(s.currentWorld && haveCurrentWorld);
  current_->setEnabled(haveCurrentWorld);
  layout->addWidget(current_);
  files_ = new QListWidget(this);
  files_->addItems(s.worldFiles);
  files_->setToolTip(tr("More worlds to plan and try, each with its first hand and graspable"));
  layout->addWidget(files_);
  auto* fileButtons = new QHBoxLayout;
  auto* add = new QPushButton(tr("Add Worlds…"), this);
  auto* remove = new QPushButton(tr("Remove"), this);
  fileButtons->addWidget(add);
  fileButtons->addWidget(remove);
  fileButtons->addStretch(1);
  layout->addLayout(fileButtons);
  connect(add, &QPushButton::clicked, this, [this] {
    files_->addItems(QFileDialog::getOpenFileNames(this, tr("Worlds to Plan"), QString(), tr("Worlds (*.xml)")));
  });
  connect(remove, &QPushButton::clicked, this, [this] { delete files_->currentItem(); });

  auto* listRow = new QHBoxLayout;
  graspList_ = new QLineEdit(s.graspList, this);
  graspList_->setObjectName("physicsRunGraspList");
  graspList_->setPlaceholderText(tr("none: plan the worlds"));
  graspList_->setToolTip(tr("A grasp list (the Planner dock's Save…): its grasps are tried on the current "
                            "world instead of planning"));
  auto* browse = new QPushButton(tr("Grasp List…"), this);
  listRow->addWidget(new QLabel(tr("Grasps from"), this));
  listRow->addWidget(graspList_, 1);
  listRow->addWidget(browse);
  layout->addLayout(listRow);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Grasp List"), graspList_->text(), tr("Grasp lists (*.json)"));
    if (!path.isEmpty()) graspList_->setText(path);
  });

  models_ = new QListWidget(this);
  models_->setObjectName("physicsRunModels");
  models_->setToolTip(tr("The contact models whose measures are ranked against the trial"));
  for (const ContactModel* model : contactModels()) {
    auto* item = new QListWidgetItem(QString::fromStdString(model->name()), models_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(s.models.isEmpty() || s.models.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
  }
  layout->addWidget(models_);

  auto* form = new QFormLayout;
  auto integer = [this](int value, int from, int to) {
    auto* box = new QSpinBox(this);
    box->setRange(from, to);
    box->setValue(value);
    return box;
  };
  seeds_ = integer(s.seeds, 1, 1000);
  iterations_ = integer(s.iterations, 1, 10000000);
  keep_ = integer(s.keep, 1, 1000);
  threads_ = integer(s.threads, 1, 256);
  pull_ = new QDoubleSpinBox(this);
  pull_->setDecimals(2);
  pull_->setRange(0.01, 10.0);
  pull_->setSuffix(QStringLiteral(" s"));
  pull_->setValue(s.pull_s);
  success_ = new QDoubleSpinBox(this);
  success_->setDecimals(3);
  success_->setRange(0.001, 1.0);
  success_->setSingleStep(1.0 / 6);
  success_->setValue(s.successScore);
  form->addRow(tr("Planner seeds per world"), seeds_);
  form->addRow(tr("Annealing iterations per plan"), iterations_);
  form->addRow(tr("Kept grasps per plan"), keep_);
  form->addRow(tr("Pull per direction"), pull_);
  form->addRow(tr("Success: trial score at least"), success_);
  form->addRow(tr("Threads"), threads_);
  layout->addLayout(form);
  auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  box->button(QDialogButtonBox::Ok)->setText(tr("Run"));
  connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(box);
}

PhysicsRunSettings PhysicsRunDialog::settings() const {
  PhysicsRunSettings s;
  s.currentWorld = current_->isChecked();
  for (int i = 0; i < files_->count(); ++i) s.worldFiles << files_->item(i)->text();
  s.seeds = seeds_->value();
  s.iterations = iterations_->value();
  s.keep = keep_->value();
  s.pull_s = pull_->value();
  s.successScore = success_->value();
  s.threads = threads_->value();
  for (int i = 0; i < models_->count(); ++i)
    if (models_->item(i)->checkState() == Qt::Checked) s.models << models_->item(i)->text();
  if (s.models.size() == models_->count()) s.models.clear();  // every one
  s.graspList = graspList_->text().trimmed();
  return s;
}

}  // namespace sg::app
