#pragma once
// A row of buttons that wraps onto more lines when its dock is narrow (the Planner dock's Start, Cancel
// and result buttons stayed out of sight in a narrow dock). Widgets keep their order; the column count is the
// largest that gives every widget its preferred width, so no text is cut while one column per widget or fewer fits.
#include <QWidget>
#include <vector>

class QGridLayout;

namespace sg::app {

class WrappingRow : public QWidget {
  Q_OBJECT
 public:
  explicit WrappingRow(QWidget* parent = nullptr);
  void addWidget(QWidget* w);
  int columns() const { return columns_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void arrange(int width);
  QGridLayout* grid_;
  std::vector<QWidget*> widgets_;
  int columns_ = 0;
};

}  // namespace sg::app
