#include "WrappingRow.h"

#include <QAbstractButton>
#include <QGridLayout>
#include <QResizeEvent>
#include <algorithm>

namespace sg::app {

namespace {
constexpr int kButtonMargin_px = 24;  // a push button's frame and padding around its text
}  // namespace

WrappingRow::WrappingRow(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this)) {
  grid_->setContentsMargins(0, 0, 0, 0);
}

void WrappingRow::addWidget(QWidget* w) {
  // Small minimum width: the row, not the button, decides how narrow the dock may get (it wraps first).
  w->setMinimumWidth(std::min(w->sizeHint().width(), 24));
  widgets_.push_back(w);
  columns_ = 0;
  arrange(width() > 0 ? width() : 1 << 20);
}

void WrappingRow::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange(event->size().width());
}

void WrappingRow::arrange(int width) {
  if (widgets_.empty()) return;
  const int spacing = std::max(0, grid_->horizontalSpacing());
  // A button's width is its text's and a margin: the style's 80 px minimum for push buttons would wrap four
  // short buttons at 160 px.
  int widest = 0;
  for (QWidget* w : widgets_) {
    int w_px = w->sizeHint().width();
    if (const auto* b = qobject_cast<const QAbstractButton*>(w))
      w_px = std::min(w_px, b->fontMetrics().horizontalAdvance(b->text()) + kButtonMargin_px);
    widest = std::max(widest, w_px);
  }
  // Equal columns as wide as the widest widget, as many as fit (at least one), then the rows balanced: 4 buttons
  // that do not fit in one row become 2 × 2, not 3 + 1.
  const int n = static_cast<int>(widgets_.size());
  const int fit = std::clamp((width + spacing) / std::max(1, widest + spacing), 1, n);
  const int rows = (n + fit - 1) / fit;
  const int columns = (n + rows - 1) / rows;
  if (columns == columns_) return;
  columns_ = columns;
  for (QWidget* w : widgets_) grid_->removeWidget(w);
  for (int k = 0; k < n; ++k) grid_->addWidget(widgets_[static_cast<std::size_t>(k)], k / columns, k % columns);
  for (int c = 0; c < n; ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
}

}  // namespace sg::app
