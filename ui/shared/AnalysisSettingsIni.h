#pragma once
// The analysis settings as the application stores them (QSettings group "analysis"; on Linux the INI file
// ~/.config/SoftGrasp/softgrasp.conf) and exports them (File > Export Analysis Settings…, an INI file with the same
// group), read by `softgrasp-cli --settings FILE` too: one reader and one writer for both programs (QtCore only).
//
//   [analysis]
//   threshold_mm=0.2            contact threshold (mm)
//   contactModel=soft-finger    a registered contact model (soft-finger, hertz, point, frictionless)
//   curvatureEstimator=jet      how soft contacts estimate curvature: jet (osculating jet) or graspit (GraspIt!'s
//                               paraboloid fit)
//   normalForce_N=5             nominal normal force of a soft patch (N)
//   pointContactEdges=8         friction-cone edges of a point contact
//   softEquatorDirections=8     directions on the equator of a soft contact's limit surface
//   torqueLength_mm=0           torque scale (0: the object's max radius)
//
//   [patch]                     one group per registered model with parameters of its own, keys as the model
//   tolerance_mm=0.1            declares them (ContactModel::parameters(), src/contact/ModelParameter.h)
//
// Missing or malformed keys keep the caller's values (`problems`, if given, names each malformed value with its
// group: a file written by hand on a German desktop may say "0,2", which INI reads as a list); numbers are
// clamped to the ranges the dialog allows. Files without model groups (older versions) load with the models'
// settings left as they were. Numbers are written through core/NumberFormat.h and read through core/Parse.h
// (C locale whatever the process locale); the [analysis] numbers go QVariant <-> QString, also C locale.
#include <QSettings>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "contact/CollisionSettings.h"
#include "contact/ContactModel.h"
#include "contact/CurvatureEstimator.h"
#include "contact/ModelParameter.h"
#include "grasp/Analysis.h"

namespace sg::settings_ini {

// The ranges of every field, shared by the dialog's spin boxes and the clamping of stored values.
inline constexpr double kThresholdMin_mm = 0.01, kThresholdMax_mm = 20.0;
inline constexpr double kForceMin_N = 0.01, kForceMax_N = 10000.0;
inline constexpr int kEdgesMin = kMinFrictionDirections, kEdgesMax = kMaxFrictionDirections;
inline constexpr double kTorqueLengthMin_mm = 0.1, kTorqueLengthMax_mm = 100000.0;

// The group of each registered model's declared parameters ([patch] tolerance_mm=...), over `settings`.
// An out-of-range number is clamped, a malformed value keeps the current one and is named in `problems`.
inline void readModelParameters(QSettings& q, ContactModelSettings& settings, std::vector<std::string>* problems) {
  for (const ContactModel* m : contactModels()) {
    const std::vector<ModelParameter> declared = m->parameters();
    if (declared.empty()) continue;
    q.beginGroup(QString::fromStdString(m->name()));
    for (const ModelParameter& p : declared) {
      const QString key = QString::fromStdString(p.key);
      if (!q.contains(key)) continue;
      // "0,2" is read as the list {0, 2}: join it back so the message shows what the file says.
      const std::string text = q.value(key).toStringList().join(QLatin1Char(',')).toStdString();
      std::string problem;
      if (const auto v = parseParameterText(p, text, problem, /*clampToRange=*/true))
        setParameterValue(settings, m->name(), p, *v);
      else if (problems)
        problems->push_back("[" + m->name() + "] " + problem);
    }
    q.endGroup();
  }
}

inline void writeModelParameters(QSettings& q, const ContactModelSettings& settings) {
  for (const ContactModel* m : contactModels()) {
    const std::vector<ModelParameter> declared = m->parameters();
    if (declared.empty()) continue;
    q.beginGroup(QString::fromStdString(m->name()));
    for (const ModelParameter& p : declared)
      q.setValue(QString::fromStdString(p.key),
                 QString::fromStdString(parameterText(p, parameterValue(settings, m->name(), p))));
    q.endGroup();
  }
}

// Reads group "analysis" of `q` over the given values.
inline void read(QSettings& q, CollisionSettings& collision, std::string& contactModel, QualitySettings& quality,
                 std::vector<std::string>* problems = nullptr) {
  q.beginGroup(QStringLiteral("analysis"));
  auto number = [&q, problems](const char* key, double current, double min, double max) {
    bool ok = false;
    const QVariant value = q.value(QLatin1String(key));
    const double v = value.toDouble(&ok);
    if (ok && std::isfinite(v)) return std::clamp(v, min, max);
    if (problems && q.contains(QLatin1String(key))) {
      const QString text = value.toStringList().join(QLatin1Char(','));  // "0,2" is read as the list {0, 2}
      problems->push_back("[analysis] " + std::string(key) + " = '" + text.toStdString() +
                          "' is not a number (write numbers with a decimal point, e.g. 0.2)");
    }
    return current;
  };
  collision.contacts.threshold_mm = number("threshold_mm", collision.contacts.threshold_mm, kThresholdMin_mm, kThresholdMax_mm);
  // A registered contact model; "patchModel" = hertz is how the Hertz choice was stored before the registry.
  if (const auto* m = findContactModel(q.value("contactModel").toString().toStdString())) contactModel = m->name();
  else if (q.value("patchModel").toString() == QLatin1String("hertz")) contactModel = "hertz";
  if (const auto e = curvatureEstimatorFromKey(q.value("curvatureEstimator").toString().toStdString()))
    quality.soft.fit.estimator = *e;
  quality.soft.patch.normalForce_N = number("normalForce_N", quality.soft.patch.normalForce_N, kForceMin_N, kForceMax_N);
  quality.edges.pointContactEdges =
      static_cast<int>(number("pointContactEdges", quality.edges.pointContactEdges, kEdgesMin, kEdgesMax));
  if (q.contains("softEquatorDirections"))
    quality.edges.softRings = softRingsWithEquator(static_cast<int>(
        number("softEquatorDirections", equatorDirectionsOf(quality.edges.softRings), kEdgesMin, kEdgesMax)));
  if (q.contains("torqueLength_mm")) {  // 0 = the object's max radius
    const double l = number("torqueLength_mm", quality.torqueLength_mm, 0, kTorqueLengthMax_mm);
    quality.torqueLength_mm = l < kTorqueLengthMin_mm ? 0 : l;
  }
  q.endGroup();
  readModelParameters(q, quality, problems);
}

inline void write(QSettings& q, const CollisionSettings& collision, const std::string& contactModel,
                  const QualitySettings& quality) {
  q.beginGroup(QStringLiteral("analysis"));
  q.setValue("threshold_mm", collision.contacts.threshold_mm);
  q.setValue("contactModel", QString::fromStdString(contactModel));
  q.remove("patchModel");
  if (*curvatureEstimatorKey(quality.soft.fit.estimator))
    q.setValue("curvatureEstimator", QString::fromLatin1(curvatureEstimatorKey(quality.soft.fit.estimator)));
  q.setValue("normalForce_N", quality.soft.patch.normalForce_N);
  q.setValue("pointContactEdges", quality.edges.pointContactEdges);
  q.setValue("softEquatorDirections", equatorDirectionsOf(quality.edges.softRings));
  q.setValue("torqueLength_mm", quality.torqueLength_mm);
  // ε L∞ no longer needs a Minkowski sum: the point limit is not a setting any more (keys of older versions go).
  q.remove("maxLInfinityPoints");
  q.remove("pruneLInfinity");
  q.endGroup();
  writeModelParameters(q, quality);
}

}  // namespace sg::settings_ini
