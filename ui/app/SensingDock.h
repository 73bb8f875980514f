#pragma once
// Penalty-contact sensing outputs of the open world's hand (src/contact/README.md §Penalty contact), the table
// `softgrasp-cli sensing` prints: one row per pair of a hand body with another body — separation, contact
// signal, normal and friction force (magnitudes and vectors on body 1), contact points and frames on both
// bodies. The squeeze choice (none, by the DOF efforts, by an extra DOF motion in degrees; prismatic DOFs mm)
// runs on a copy of the state: the document is not changed. The hand is the selected body's robot, else
// robot 0. Recomputed whenever the world changes.
#include <QDockWidget>

#include <optional>

#include "contact/penalty/HandSensing.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace sg::app {

class Document;

class SensingDock : public QDockWidget {
  Q_OBJECT
 public:
  enum Column {
    kBody1, kBody2, kSeparation, kSignal, kNormalForce, kFriction, kNormalVector, kFrictionVector, kPoint1, kPoint2,
    kFrame1, kFrame2, kColumnCount
  };
  enum Squeeze { kNoSqueeze, kTorqueSqueeze, kMotionSqueeze };

  explicit SensingDock(Document* doc, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QComboBox* squeezeChoice() const { return squeeze_; }
  QDoubleSpinBox* extraJointValue() const { return extraJointValue_; }
  QLabel* summary() const { return summary_; }
  // What the table shows (empty rows without a robot).
  const HandSensing& sensing() const { return sensing_; }

 private:
  void rebuild();

  Document* doc_;
  QComboBox* squeeze_ = nullptr;
  // Extra joint value of each closing DOF for the motion squeeze: degrees for revolute DOFs, mm for prismatic ones.
  QDoubleSpinBox* extraJointValue_ = nullptr;
  QLabel* summary_ = nullptr;
  QTableWidget* table_ = nullptr;
  HandSensing sensing_;
};

}  // namespace sg::app
