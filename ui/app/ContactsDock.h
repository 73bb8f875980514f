#pragma once
// The contacts of the open world as a table, one row per GraspAnalysis::contacts() entry: the two bodies
// (World::bodyLabel), position (mm, side 1), normal (into body 1), static and kinetic friction, friction
// type (and "soft, fitted" when the grasp evaluation fitted a soft patch) and separation (mm). Updates live;
// selecting a row selects that contact in the analysis (highlighted in the viewport), and a contact
// selected elsewhere selects its row.
#include <QDockWidget>

class QLabel;
class QTableWidget;

namespace sg::app {

class Document;
class GraspAnalysis;

class ContactsDock : public QDockWidget {
  Q_OBJECT
 public:
  enum Column { kBody1, kBody2, kPosition, kNormal, kMuStatic, kMuKinetic, kType, kSeparation, kColumnCount };

  ContactsDock(Document* doc, GraspAnalysis* analysis, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  // Red line naming the interpenetrating pairs and their depths (hidden when there are none).
  QLabel* collisionLabel() const { return collisions_; }

 private:
  void rebuild();
  void followSelection();
  void onRowSelected();

  Document* doc_;
  GraspAnalysis* analysis_;
  QLabel* summary_ = nullptr;
  QLabel* collisions_ = nullptr;
  QTableWidget* table_ = nullptr;
  bool updating_ = false;  // filling the table or following the analysis: not a user selection
};

}  // namespace sg::app
