#include "PlannerSettingsPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "RefusedInput.h"
#include "core/Error.h"

namespace sg::app {

using namespace sg::planner;

namespace {

enum VariableColumn { kVarName, kVarOn, kVarInput, kVarTarget, kVarConfidence, kVarColumns };

// A cell's number; nullopt for an empty cell; sg::Error naming the cell otherwise.
std::optional<double> cellNumber(const QTableWidget* table, int row, int column, const QString& what) {
  const QTableWidgetItem* item = table->item(row, column);
  const QString text = item ? item->text().trimmed() : QString();
  if (text.isEmpty()) return std::nullopt;
  bool ok = false;
  const double v = text.toDouble(&ok);
  if (!ok || !std::isfinite(v))
    throw Error(QStringLiteral("%1 of %2: '%3' is not a number")
                    .arg(what, table->item(row, kVarName)->text(), text)
                    .toStdString());
  return v;
}

}  // namespace

PlannerSettingsPanel::PlannerSettingsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  buildForm(layout);
  variables_ = new QTableWidget(0, kVarColumns);
  variables_->setObjectName("plannerVariablesTable");
  variables_->setHorizontalHeaderLabels({tr("Variable"), tr("On"), tr("Input"), tr("Target"), tr("Confidence")});
  variables_->verticalHeader()->hide();
  variables_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  variables_->setMinimumHeight(120);
  layout->addWidget(variables_);
  connect(space_, &QComboBox::currentIndexChanged, this, &PlannerSettingsPanel::spaceChanged);
}

void PlannerSettingsPanel::buildForm(QVBoxLayout* layout) {
  auto* form = new QFormLayout;
  layout->addLayout(form);
  plannerType_ = new QComboBox;
  plannerType_->setObjectName("plannerTypeCombo");
  plannerType_->addItem(tr("Sim. Ann."), QStringLiteral("simann"));
  plannerType_->addItem(tr("Loop"), QStringLiteral("loop"));
  plannerType_->addItem(tr("Guided (multi-threaded)"), QStringLiteral("guided"));
  plannerType_->addItem(tr("Online (follows the hand)"), QStringLiteral("online"));
  form->addRow(tr("Type"), plannerType_);
  energy_ = new QComboBox;
  energy_->setObjectName("plannerEnergyCombo");
  for (const std::string& e : energyNames()) energy_->addItem(QString::fromStdString(e));
  form->addRow(tr("Energy"), energy_);
  space_ = new QComboBox;
  space_->setObjectName("plannerSpaceCombo");
  for (const std::string& s : positionSpaceNames()) space_->addItem(QString::fromStdString(s));
  form->addRow(tr("Search space"), space_);
  params_ = new QComboBox;
  params_->setObjectName("plannerParamsCombo");
  for (const std::string& p : AnnealingParams::names()) params_->addItem(QString::fromStdString(p));
  form->addRow(tr("Parameters"), params_);
  steps_ = new QSpinBox;
  steps_->setObjectName("plannerStepsSpin");
  steps_->setRange(1, 100000000);
  steps_->setValue(70000);
  form->addRow(tr("Max steps"), steps_);
  // The counter runs from the parameter set's first step K0 (30 000 for default): the limit must exceed it
  // (requireStepsBeyondStart), so the spin box's minimum follows the parameter set.
  const auto followParams = [this](const QString& name) {
    const AnnealingParams p = AnnealingParams::byName(name.toStdString());
    steps_->setMinimum(static_cast<int>(p.k0 + 1));
    steps_->setToolTip(tr("The step counter's end: it runs from the parameter set's first step (%1 for '%2') to "
                          "this limit, as in GraspIt!").arg(p.k0).arg(name));
  };
  connect(params_, &QComboBox::currentTextChanged, this, followParams);
  followParams(params_->currentText());
  timeLimit_ = new QDoubleSpinBox;
  timeLimit_->setObjectName("plannerTimeLimitSpin");
  timeLimit_->setRange(0, 86400);
  timeLimit_->setDecimals(1);
  timeLimit_->setSuffix(tr(" s"));
  timeLimit_->setSpecialValueText(tr("none"));
  form->addRow(tr("Time limit"), timeLimit_);
  seed_ = new QSpinBox;
  seed_->setObjectName("plannerSeedSpin");
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setValue(1);
  form->addRow(tr("Seed"), seed_);
  threads_ = new QSpinBox;
  threads_->setObjectName("plannerThreadsSpin");
  threads_->setRange(1, 256);
  threads_->setValue(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  threads_->setToolTip(tr("Worker threads; the list does not depend on them"));
  form->addRow(tr("Threads"), threads_);
  chains_ = new QSpinBox;
  chains_->setObjectName("plannerChainsSpin");
  chains_->setRange(1, 256);
  chains_->setValue(4);
  form->addRow(tr("Chains"), chains_);
  // A number the box refuses (out of range, unfinished) is said in the status line, not silently reverted.
  const std::pair<QAbstractSpinBox*, QString> numeric[] = {{steps_, tr("Max steps")}, {timeLimit_, tr("Time limit")},
                                                           {seed_, tr("Seed")}, {threads_, tr("Threads")},
                                                           {chains_, tr("Chains")}};
  for (const auto& [box, what] : numeric)
    reportRefusedInput(box, what, [this](const QString& message) { emit inputRefused(message); });
  // A new value clears it (Enter re-emits the kept value: not new).
  for (QSpinBox* box : {steps_, seed_, threads_, chains_})
    connect(box, &QSpinBox::valueChanged, this, [this, last = box->value()](int v) mutable {
      if (v != last) emit inputChanged();
      last = v;
    });
  connect(timeLimit_, &QDoubleSpinBox::valueChanged, this, [this, last = timeLimit_->value()](double v) mutable {
    if (v != last) emit inputChanged();
    last = v;
  });
  presetContacts_ = new QCheckBox(tr("Preset contacts"));
  presetContacts_->setObjectName("plannerPresetContactsCheck");
  presetContacts_->setChecked(true);
  showSearch_ = new QCheckBox(tr("Show search"));
  showSearch_->setObjectName("plannerShowSearchCheck");
  showSearch_->setChecked(true);
  showSearch_->setToolTip(tr("Show the current search state in the 3-D view (5 times a second)"));
  auto* checks = new QHBoxLayout;
  checks->addWidget(presetContacts_);
  checks->addWidget(showSearch_);
  form->addRow(checks);
}

bool PlannerSettingsPanel::online() const { return plannerType_->currentData().toString() == QStringLiteral("online"); }

bool PlannerSettingsPanel::showSearch() const { return showSearch_->isChecked(); }

void PlannerSettingsPanel::setLocked(bool locked) {
  for (QWidget* w : std::initializer_list<QWidget*>{plannerType_, energy_, space_, params_, steps_, timeLimit_, seed_,
                                                    threads_, chains_, presetContacts_, variables_})
    w->setEnabled(!locked);
}

void PlannerSettingsPanel::rebuildVariables(const World& world, int robot, int graspable) {
  variables_->setRowCount(0);
  if (robot < 0 || graspable < 0) return;
  HandSearchSpace space;
  try {
    space = makeSearchSpace(world, world.state, robot, graspable,
                            positionSpaceFromString(space_->currentText().toStdString()));
  } catch (const Error&) {
    return;
  }
  variables_->setRowCount(static_cast<int>(space.variables.size()));
  for (std::size_t i = 0; i < space.variables.size(); ++i) {
    const SearchVariable& v = space.variables[i];
    const int row = static_cast<int>(i);
    auto* name = new QTableWidgetItem(QString::fromStdString(v.name));
    name->setFlags(Qt::ItemIsEnabled);
    name->setToolTip(tr("range [%1, %2], max jump %3").arg(v.min).arg(v.max).arg(v.maxJump));
    variables_->setItem(row, kVarName, name);
    auto* on = new QTableWidgetItem;
    on->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    on->setCheckState(Qt::Checked);
    on->setToolTip(tr("Off: the variable stays at its input value"));
    variables_->setItem(row, kVarOn, on);
    // Shown with 6 digits; the exact start value is kept so an unedited cell gives the hand's exact
    // configuration (the search depends on it: the same seed then gives the CLI's list).
    auto* input = new QTableWidgetItem(QString::number(v.value, 'g', 6));
    input->setData(Qt::UserRole, v.value);
    input->setData(Qt::UserRole + 1, input->text());
    variables_->setItem(row, kVarInput, input);
    variables_->setItem(row, kVarTarget, new QTableWidgetItem);
    variables_->setItem(row, kVarConfidence, new QTableWidgetItem(QStringLiteral("0")));
  }
}

PlanRequest PlannerSettingsPanel::request(const World& world, int robot, int graspable,
                                          const std::optional<AnalysisRequest>& analysis) const {
  PlanRequest r;
  const std::string type = plannerType_->currentData().toString().toStdString();
  if (type != "online") r.planner = plannerFromString(type);  // online: OnlinePlanner, not planGrasps
  r.robot = robot;
  r.graspable = graspable;
  r.space = positionSpaceFromString(space_->currentText().toStdString());
  r.energy.kind = energyFromString(energy_->currentText().toStdString());
  r.energy.presetContacts = presetContacts_->isChecked();
  if (analysis) r.energy.analysis = *analysis;
  r.params = AnnealingParams::byName(params_->currentText().toStdString());
  r.maxSteps = steps_->value();
  r.timeLimit_s = timeLimit_->value();
  r.seed = static_cast<std::uint64_t>(seed_->value());
  r.threads = threads_->value();
  r.chains = chains_->value();
  const HandSearchSpace space = makeSearchSpace(world, world.state, robot, graspable, r.space);
  if (variables_->rowCount() != static_cast<int>(space.variables.size())) return r;
  r.variables = space.variables;
  for (int row = 0; row < variables_->rowCount(); ++row) {
    SearchVariable& v = r.variables[static_cast<std::size_t>(row)];
    v.fixed = variables_->item(row, kVarOn)->checkState() != Qt::Checked;
    const QTableWidgetItem* inputItem = variables_->item(row, kVarInput);
    if (inputItem && inputItem->text() == inputItem->data(Qt::UserRole + 1).toString())
      v.value = inputItem->data(Qt::UserRole).toDouble();  // unedited: exact
    else if (auto input = cellNumber(variables_, row, kVarInput, "Input"))
      v.value = *input;
    v.target = cellNumber(variables_, row, kVarTarget, "Target");
    v.confidence = cellNumber(variables_, row, kVarConfidence, "Confidence").value_or(0.0);
    if (v.confidence < 0 || v.confidence > 1)  // said, not clamped behind the user's back
      throw Error(QStringLiteral("Confidence of %1: %2 is not in 0 to 1")
                      .arg(variables_->item(row, kVarName)->text())
                      .arg(v.confidence)
                      .toStdString());
  }
  return r;
}

}  // namespace sg::app
