#include "AnalysisSettingsDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "AnalysisSettingsIni.h"

namespace sg::app {

namespace {

using namespace settings_ini;  // the ranges, shared with the stored settings' reader (AnalysisSettingsIni.h)

QSettings analysisDialogSettings() { return QSettings(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp")); }

QDoubleSpinBox* doubleSpin(double min, double max, int decimals, double step, const QString& suffix,
                           const char* name) {
  auto* spin = new QDoubleSpinBox;
  spin->setRange(min, max);
  spin->setDecimals(decimals);
  spin->setSingleStep(step);
  spin->setSuffix(suffix);
  spin->setObjectName(name);
  return spin;
}

QSpinBox* intSpin(int min, int max, const char* name) {
  auto* spin = new QSpinBox;
  spin->setRange(min, max);
  spin->setObjectName(name);
  return spin;
}

// A field for one declared parameter: its kind's widget with the declared range, unit and help.
QWidget* parameterEditor(const std::string& model, const ModelParameter& p) {
  QWidget* w = nullptr;
  const QString unit = p.unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(p.unit);
  switch (p.kind) {
    case ParameterKind::Number: {
      // Enough decimals for the smallest bound and the default (ranges span 1e-6 … 1e9).
      auto* spin = new QDoubleSpinBox;
      spin->setDecimals(6);
      spin->setRange(p.min, p.max);
      spin->setSingleStep(p.defaultValue > 0 ? p.defaultValue / 10 : 0.1);
      spin->setSuffix(unit);
      w = spin;
      break;
    }
    case ParameterKind::Integer: {
      auto* spin = new QSpinBox;
      spin->setRange(static_cast<int>(p.min), static_cast<int>(p.max));
      spin->setSuffix(unit);
      w = spin;
      break;
    }
    case ParameterKind::Choice: {
      auto* combo = new QComboBox;
      for (const std::string& c : p.choices) combo->addItem(QString::fromStdString(c));
      w = combo;
      break;
    }
    case ParameterKind::Bool: w = new QCheckBox; break;
  }
  w->setObjectName(QString::fromStdString("param." + model + "." + p.key));
  w->setToolTip(QString::fromStdString(p.help + " (" + parameterRange(p) + ", default " +
                                       parameterText(p, p.defaultValue) + ")"));
  return w;
}

void showParameter(QWidget* w, double value) {
  if (auto* d = qobject_cast<QDoubleSpinBox*>(w)) d->setValue(value);
  else if (auto* i = qobject_cast<QSpinBox*>(w)) i->setValue(static_cast<int>(std::lround(value)));
  else if (auto* c = qobject_cast<QComboBox*>(w)) c->setCurrentIndex(static_cast<int>(value));
  else if (auto* b = qobject_cast<QCheckBox*>(w)) b->setChecked(value != 0);
}

double editedParameter(const QWidget* w) {
  if (auto* d = qobject_cast<const QDoubleSpinBox*>(w)) return d->value();
  if (auto* i = qobject_cast<const QSpinBox*>(w)) return i->value();
  if (auto* c = qobject_cast<const QComboBox*>(w)) return c->currentIndex();
  if (auto* b = qobject_cast<const QCheckBox*>(w)) return b->isChecked() ? 1 : 0;
  return 0;
}

}  // namespace

QString curvatureEstimatorLabel(CurvatureEstimator e) {
  if (e == CurvatureEstimator::OsculatingJet) return QObject::tr("Osculating jet (accurate)");
  if (e == CurvatureEstimator::GraspItParaboloid) return QObject::tr("GraspIt! paraboloid (parity)");
  return QString::fromUtf8(curvatureEstimatorName(e));
}

AnalysisSettings readAnalysisSettings(const AnalysisSettings& base) {
  QSettings q = analysisDialogSettings();
  return readAnalysisSettings(q, base);
}

AnalysisSettings readAnalysisSettings(QSettings& q, const AnalysisSettings& base) {
  AnalysisSettings s = base;
  settings_ini::read(q, s.collision, s.contactModel, s.quality);
  return s;
}

void writeAnalysisSettings(const AnalysisSettings& s) {
  QSettings q = analysisDialogSettings();
  writeAnalysisSettings(q, s);
}

void writeAnalysisSettings(QSettings& q, const AnalysisSettings& s) {
  settings_ini::write(q, s.collision, s.contactModel, s.quality);
}

bool exportAnalysisSettings(const AnalysisSettings& settings, const QString& path) {
  QSettings q(path, QSettings::IniFormat);
  q.clear();
  writeAnalysisSettings(q, settings);
  q.sync();
  return q.status() == QSettings::NoError;
}

bool sameAsDefaults(const AnalysisSettings& s) {
  const AnalysisSettings d;
  return s.collision.contacts.threshold_mm == d.collision.contacts.threshold_mm && s.contactModel == d.contactModel &&
         s.quality.soft.fit.estimator == d.quality.soft.fit.estimator &&
         s.quality.soft.patch.normalForce_N == d.quality.soft.patch.normalForce_N &&
         s.quality.edges.pointContactEdges == d.quality.edges.pointContactEdges &&
         equatorDirectionsOf(s.quality.edges.softRings) == equatorDirectionsOf(d.quality.edges.softRings) &&
         s.quality.torqueLength_mm == d.quality.torqueLength_mm && modelParametersAtDefaults(s.quality);
}

QWidget* AnalysisSettingsDialog::buildModelPage(const ContactModel& model) {
  auto* page = new QWidget;
  page->setObjectName(QString::fromStdString("modelPage." + model.name()));
  auto* form = new QFormLayout(page);
  const std::vector<ModelParameter> declared = model.parameters();
  if (declared.empty()) form->addRow(new QLabel(tr("This model has no settings of its own.")));
  for (const ModelParameter& p : declared) {
    QWidget* w = parameterEditor(model.name(), p);
    form->addRow(QString::fromStdString(p.label) + QLatin1Char(':'), w);
    parameterFields_.push_back({model.name(), p, w});
  }
  return page;
}

QWidget* AnalysisSettingsDialog::parameterWidget(const std::string& model, const std::string& key) const {
  for (const ParameterField& f : parameterFields_)
    if (f.model == model && f.parameter.key == key) return f.widget;
  return nullptr;
}

AnalysisSettingsDialog::AnalysisSettingsDialog(GraspAnalysis* analysis, QWidget* parent)
    : QDialog(parent), analysis_(analysis) {
  setObjectName("analysisSettingsDialog");
  setWindowTitle(tr("Analysis Settings"));

  threshold_ = doubleSpin(kThresholdMin_mm, kThresholdMax_mm, 3, 0.05, tr(" mm"), "thresholdSpin");
  threshold_->setToolTip(tr("Bodies closer than this are in contact (GraspIt!: 0.2 mm)."));
  contactModel_ = new QComboBox;
  contactModel_->setObjectName("contactModelCombo");
  for (const ContactModel* m : contactModels()) {  // whatever the registry holds
    contactModel_->addItem(QString::fromStdString(m->label()), QString::fromStdString(m->name()));
    contactModel_->setItemData(contactModel_->count() - 1, QString::fromStdString(m->description()), Qt::ToolTipRole);
  }
  curvatureEstimator_ = new QComboBox;
  curvatureEstimator_->setObjectName("curvatureEstimatorCombo");
  for (CurvatureEstimator e : selectableCurvatureEstimators())
    curvatureEstimator_->addItem(curvatureEstimatorLabel(e), QString::fromLatin1(curvatureEstimatorKey(e)));
  curvatureEstimator_->setToolTip(tr("How a soft contact's principal curvatures are estimated from the mesh: the "
                                     "osculating jet (positions and vertex normals, within 1 % on well-tessellated "
                                     "spheres) or GraspIt!'s paraboloid fit (for GraspIt!'s numbers)."));
  normalForce_ = doubleSpin(kForceMin_N, kForceMax_N, 2, 0.5, tr(" N"), "normalForceSpin");
  normalForce_->setToolTip(tr("Nominal normal force that sizes the soft patches (GraspIt!: 5 N)."));
  pointEdges_ = intSpin(kEdgesMin, kEdgesMax, "pointEdgesSpin");
  pointEdges_->setToolTip(tr("Edges of the linearised friction cone of a point contact (GraspIt!: 8)."));
  softEquator_ = intSpin(kEdgesMin, kEdgesMax, "softEquatorSpin");
  softEquator_->setToolTip(tr("Directions on the equator of the soft-contact limit surface; the ±45° rings get "
                              "5/8 of them and the poles one each (GraspIt!: 8 → 20 edges)."));
  torqueScale_ = new QComboBox;
  torqueScale_->setObjectName("torqueScaleCombo");
  torqueScale_->addItem(tr("Object's max radius (GraspIt!)"));
  torqueScale_->addItem(tr("Fixed length"));
  torqueLength_ = doubleSpin(kTorqueLengthMin_mm, kTorqueLengthMax_mm, 1, 5, tr(" mm"), "torqueLengthSpin");
  connect(torqueScale_, &QComboBox::currentIndexChanged, this,
          [this](int index) { torqueLength_->setEnabled(index == 1); });

  auto* contacts = new QGroupBox(tr("Contacts"));
  auto* contactsForm = new QFormLayout(contacts);
  contactsForm->addRow(tr("Contact threshold:"), threshold_);
  contactsForm->addRow(tr("Contact model:"), contactModel_);
  contactsForm->addRow(tr("Curvature estimator:"), curvatureEstimator_);
  contactsForm->addRow(tr("Nominal normal force:"), normalForce_);
  contactsForm->addRow(tr("Point-contact cone edges:"), pointEdges_);
  contactsForm->addRow(tr("Soft limit surface, equator directions:"), softEquator_);
  // The chosen model's own settings (every model's are kept and applied).
  auto* modelBox = new QGroupBox(tr("Model settings"));
  modelPages_ = new QStackedWidget;
  modelPages_->setObjectName("modelPages");
  for (const ContactModel* m : contactModels()) modelPages_->addWidget(buildModelPage(*m));
  (new QVBoxLayout(modelBox))->addWidget(modelPages_);
  connect(contactModel_, &QComboBox::currentIndexChanged, modelPages_, &QStackedWidget::setCurrentIndex);
  auto* quality = new QGroupBox(tr("Wrench spaces"));
  auto* qualityForm = new QFormLayout(quality);
  qualityForm->addRow(tr("Torque scaling:"), torqueScale_);
  qualityForm->addRow(tr("Torque length:"), torqueLength_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply |
                                       QDialogButtonBox::RestoreDefaults);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    apply();
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &AnalysisSettingsDialog::apply);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          [this] { showSettings(AnalysisSettings{}); });

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(contacts);
  layout->addWidget(modelBox);
  layout->addWidget(quality);
  layout->addWidget(buttons);
  showSettings(analysis_->settings());
}

void AnalysisSettingsDialog::showSettings(const AnalysisSettings& s) {
  threshold_->setValue(s.collision.contacts.threshold_mm);
  contactModel_->setCurrentIndex(std::max(0, contactModel_->findData(QString::fromStdString(s.contactModel))));
  curvatureEstimator_->setCurrentIndex(std::max(
      0, curvatureEstimator_->findData(QString::fromLatin1(curvatureEstimatorKey(s.quality.soft.fit.estimator)))));
  normalForce_->setValue(s.quality.soft.patch.normalForce_N);
  pointEdges_->setValue(s.quality.edges.pointContactEdges);
  softEquator_->setValue(equatorDirectionsOf(s.quality.edges.softRings));
  const bool fixedLength = s.quality.torqueLength_mm > 0;
  torqueScale_->setCurrentIndex(fixedLength ? 1 : 0);
  torqueLength_->setEnabled(fixedLength);
  torqueLength_->setValue(fixedLength ? s.quality.torqueLength_mm : 100.0);
  for (ParameterField& f : parameterFields_) {
    f.source = parameterValue(s.quality, f.model, f.parameter);
    showParameter(f.widget, f.source);
    f.shown = editedParameter(f.widget);
  }
  modelPages_->setCurrentIndex(contactModel_->currentIndex());
}

AnalysisSettings AnalysisSettingsDialog::editedSettings() const {
  AnalysisSettings s = analysis_->settings();
  s.collision.contacts.threshold_mm = threshold_->value();
  s.contactModel = contactModel_->currentData().toString().toStdString();
  if (const auto e = curvatureEstimatorFromKey(curvatureEstimator_->currentData().toString().toStdString()))
    s.quality.soft.fit.estimator = *e;
  s.quality.soft.patch.normalForce_N = normalForce_->value();
  s.quality.edges.pointContactEdges = pointEdges_->value();
  // Keep a custom ring list when the equator count is unchanged.
  if (softEquator_->value() != equatorDirectionsOf(s.quality.edges.softRings))
    s.quality.edges.softRings = softRingsWithEquator(softEquator_->value());
  s.quality.torqueLength_mm = torqueScale_->currentIndex() == 1 ? torqueLength_->value() : 0.0;
  // A field left as shown gives the value shown exactly (a spin box rounds to its decimals).
  for (const ParameterField& f : parameterFields_) {
    const double v = editedParameter(f.widget);
    setParameterValue(s.quality, f.model, f.parameter, v == f.shown ? f.source : v);
  }
  return s;
}

void AnalysisSettingsDialog::apply() {
  const AnalysisSettings s = editedSettings();
  writeAnalysisSettings(s);
  analysis_->setSettings(s);
}

}  // namespace sg::app
