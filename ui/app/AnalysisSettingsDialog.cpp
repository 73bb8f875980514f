#include "AnalysisSettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "AnalysisSettingsIni.h"

namespace sg::app {

namespace {

using namespace settings_ini;  // the ranges, shared with the stored settings' reader (AnalysisSettingsIni.h)

QSettings appSettings() { return QSettings(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp")); }

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

}  // namespace

QString curvatureEstimatorLabel(CurvatureEstimator e) {
  if (e == CurvatureEstimator::OsculatingJet) return QObject::tr("Osculating jet (accurate)");
  if (e == CurvatureEstimator::GraspItParaboloid) return QObject::tr("GraspIt! paraboloid (parity)");
  return QString::fromUtf8(curvatureEstimatorName(e));
}

std::vector<FrictionRing> softRingsWithEquator(int m) { return settings_ini::softRingsWithEquator(m); }

int equatorDirectionsOf(const std::vector<FrictionRing>& rings) { return settings_ini::equatorDirectionsOf(rings); }

AnalysisSettings readAnalysisSettings(const AnalysisSettings& base) {
  QSettings q = appSettings();
  return readAnalysisSettings(q, base);
}

AnalysisSettings readAnalysisSettings(QSettings& q, const AnalysisSettings& base) {
  AnalysisSettings s = base;
  settings_ini::read(q, s.collision, s.contactModel, s.quality);
  return s;
}

void writeAnalysisSettings(const AnalysisSettings& s) {
  QSettings q = appSettings();
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
         s.quality.torqueLength_mm == d.quality.torqueLength_mm;
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
  return s;
}

void AnalysisSettingsDialog::apply() {
  const AnalysisSettings s = editedSettings();
  writeAnalysisSettings(s);
  analysis_->setSettings(s);
}

}  // namespace sg::app
