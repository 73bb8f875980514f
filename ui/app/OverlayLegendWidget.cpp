#include "OverlayLegendWidget.h"

#include <QEvent>
#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <string>

namespace sg::app {

namespace {
constexpr int kMargin_px = 8;     // panel to the view's edges
constexpr int kPadding_px = 6;    // text to the panel's edges
constexpr int kSwatch_px = 28;    // the sample arrow
constexpr int kGap_px = 6;        // sample arrow to text
constexpr int kLineGap_px = 3;

QColor toColour(const std::array<float, 3>& c) { return QColor::fromRgbF(c[0], c[1], c[2]); }

// The text of every entry wrapped to `textWidth`.
std::vector<QRect> textRects(const std::vector<OverlayLegendEntry>& entries, const QFontMetrics& metrics, int textWidth) {
  std::vector<QRect> rects;
  for (const OverlayLegendEntry& e : entries)
    rects.push_back(metrics.boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap,
                                         QString::fromStdString(e.text)));
  return rects;
}

int widestText(const std::vector<OverlayLegendEntry>& entries, const QFontMetrics& metrics) {
  int widest = 0;
  for (const OverlayLegendEntry& e : entries)
    widest = std::max(widest, metrics.horizontalAdvance(QString::fromStdString(e.text)));
  return widest;
}

void paintSampleArrow(QPainter& painter, QPointF from, QPointF to, const QColor& colour, bool doubleHead) {
  painter.setPen(QPen(colour, 3, Qt::SolidLine, Qt::FlatCap));
  painter.drawLine(from, QPointF(to.x() - 5, to.y()));
  painter.setPen(Qt::NoPen);
  painter.setBrush(colour);
  auto head = [&](double tipX) {
    painter.drawPolygon(QPolygonF({QPointF(tipX, to.y()), QPointF(tipX - 8, to.y() - 5), QPointF(tipX - 8, to.y() + 5)}));
  };
  head(to.x());
  if (doubleHead) head(to.x() - 7);
}
// A colour bar (the hydroelastic pressure scale): the ramp's colours left (low) to right (high), outlined.
void paintColourBar(QPainter& painter, QPointF from, QPointF to, const std::vector<std::array<float, 3>>& ramp) {
  const QRectF bar(from.x(), from.y() - 4, to.x() - from.x(), 8);
  QLinearGradient gradient(bar.topLeft(), bar.topRight());
  for (std::size_t i = 0; i < ramp.size(); ++i)
    gradient.setColorAt(ramp.size() > 1 ? double(i) / double(ramp.size() - 1) : 0.0, toColour(ramp[i]));
  painter.setPen(QPen(QColor(0, 0, 0, 120), 1));
  painter.setBrush(gradient);
  painter.drawRect(bar);
}
}  // namespace

QFont overlayLegendFont() {
  QFont font = QGuiApplication::font();
  if (font.pointSizeF() > 0)
    font.setPointSizeF(font.pointSizeF() * 0.9);
  else if (font.pixelSize() > 0)
    font.setPixelSize(std::max(8, font.pixelSize() * 9 / 10));
  return font;
}

QSize overlayLegendSize(const std::vector<OverlayLegendEntry>& entries, const QFont& font, int maxWidth) {
  if (entries.empty()) return {0, 0};
  const QFontMetrics metrics(font);
  const int chrome = 2 * kPadding_px + kSwatch_px + kGap_px;
  // The painter wraps at the same width (the box's width less the chrome), so the lines break the same way.
  const int textWidth = std::max(40, std::min(widestText(entries, metrics) + 2, maxWidth - chrome));
  int height = 2 * kPadding_px - kLineGap_px;
  for (const QRect& r : textRects(entries, metrics, textWidth))
    height += std::max(r.height(), metrics.height()) + kLineGap_px;
  return {chrome + textWidth, height};
}

void paintOverlayLegend(QPainter& painter, const QRect& box, const std::vector<OverlayLegendEntry>& entries,
                        const QFont& font) {
  if (entries.empty() || box.isEmpty()) return;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setFont(font);
  QPainterPath panel;
  panel.addRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
  painter.fillPath(panel, QColor(255, 255, 255, 215));
  painter.setPen(QColor(0, 0, 0, 90));
  painter.drawPath(panel);
  const QFontMetrics metrics(font);
  const int textX = box.left() + kPadding_px + kSwatch_px + kGap_px;
  const int textWidth = box.right() - kPadding_px - textX + 1;
  const std::vector<QRect> rects = textRects(entries, metrics, textWidth);
  int y = box.top() + kPadding_px;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const int lineHeight = std::max(rects[i].height(), metrics.height());
    const double midY = y + metrics.height() / 2.0;
    const QPointF from(box.left() + kPadding_px, midY), to(box.left() + kPadding_px + kSwatch_px, midY);
    if (entries[i].key == "more") {  // overlayLegendLayout's count of the lines left out: no sample
    } else if (entries[i].key.rfind("patches:", 0) == 0) {  // a patch outline (render/PatchOutlineNodes.h): a ring
      painter.setPen(QPen(toColour(entries[i].colour), 3));
      painter.setBrush(Qt::NoBrush);
      painter.drawEllipse(QRectF(box.left() + kPadding_px + 2, midY - 5, kSwatch_px - 4, 10));
    } else if (!entries[i].colourRamp.empty()) {
      paintColourBar(painter, from, to, entries[i].colourRamp);
    } else {
      paintSampleArrow(painter, from, to, toColour(entries[i].colour), entries[i].doubleHead);
    }
    painter.setPen(Qt::black);
    painter.drawText(QRect(textX, y, textWidth, lineHeight), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                     QString::fromStdString(entries[i].text));
    y += lineHeight + kLineGap_px;
  }
  painter.restore();
}

OverlayLegendLayout overlayLegendLayout(const std::vector<OverlayLegendEntry>& entries, const QSize& view) {
  OverlayLegendLayout layout;
  layout.font = overlayLegendFont();
  if (entries.empty() || view.isEmpty()) return layout;
  const int maxWidth = view.width() - 2 * kMargin_px;
  const double maxArea = kOverlayLegendMaxAreaFraction * view.width() * view.height();
  const double maxHeight = kOverlayLegendMaxHeightFraction * view.height();
  auto fits = [&](const QSize& s) {
    return s.width() <= maxWidth && s.height() <= maxHeight && double(s.width()) * s.height() <= maxArea;
  };
  auto texts = [&](bool compact) {
    std::vector<OverlayLegendEntry> lines = entries;
    if (compact)
      for (OverlayLegendEntry& e : lines)
        if (!e.compactText.empty()) e.text = e.compactText;
    return lines;
  };
  auto scaled = [](double factor) {
    QFont font = overlayLegendFont();
    if (font.pointSizeF() > 0)
      font.setPointSizeF(std::max(6.0, font.pointSizeF() * factor));
    else if (font.pixelSize() > 0)
      font.setPixelSize(std::max(8, static_cast<int>(font.pixelSize() * factor)));
    return font;
  };
  const struct { double scale; bool compact; } forms[] = {{1.0, false}, {1.0, true}, {0.85, true}, {0.75, true}};
  for (const auto& form : forms) {
    layout.font = scaled(form.scale);
    layout.compact = form.compact;
    layout.lines = texts(form.compact);
    layout.size = overlayLegendSize(layout.lines, layout.font, maxWidth);
    if (fits(layout.size)) return layout;
  }
  // Still too large (a tiny view, or many comparison lines): the first lines, and how many more there are.
  const std::vector<OverlayLegendEntry> all = layout.lines;
  for (std::size_t shown = all.size(); shown-- > 0;) {
    layout.lines.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(shown));
    OverlayLegendEntry more;
    more.key = "more";
    more.text = "+" + std::to_string(all.size() - shown) + " more";
    layout.lines.push_back(more);
    layout.size = overlayLegendSize(layout.lines, layout.font, maxWidth);
    if (fits(layout.size)) return layout;
  }
  layout.lines.clear();  // not even one line fits: no panel
  layout.size = QSize(0, 0);
  return layout;
}

void paintOverlayLegend(QImage& image, const std::vector<OverlayLegendEntry>& entries) {
  if (entries.empty() || image.isNull()) return;
  const OverlayLegendLayout layout = overlayLegendLayout(entries, image.size());
  if (layout.lines.empty()) return;
  QPainter painter(&image);
  paintOverlayLegend(painter, QRect(QPoint(kMargin_px, image.height() - kMargin_px - layout.size.height()), layout.size),
                     layout.lines, layout.font);
}

OverlayLegendWidget::OverlayLegendWidget(QWidget* view) : QWidget(view) {
  setObjectName("overlayLegend");
  setAttribute(Qt::WA_TransparentForMouseEvents);  // the view under it still orbits and picks
  setAttribute(Qt::WA_TranslucentBackground);
  setFont(overlayLegendFont());
  view->installEventFilter(this);
  hide();
}

void OverlayLegendWidget::setEntries(std::vector<OverlayLegendEntry> entries) { setEntries({}, std::move(entries)); }

void OverlayLegendWidget::setEntries(const QString& source, std::vector<OverlayLegendEntry> entries) {
  sources_[source] = std::move(entries);
  entries_.clear();
  for (const auto& [name, list] : sources_) entries_.insert(entries_.end(), list.begin(), list.end());
  place();
  update();
}

void OverlayLegendWidget::setEnabledByUser(bool on) {
  enabled_ = on;
  place();
}

bool OverlayLegendWidget::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) place();
  return QWidget::eventFilter(watched, event);
}

void OverlayLegendWidget::place() {
  QWidget* view = parentWidget();
  layout_ = overlayLegendLayout(entries_, view->size());
  setFont(layout_.font);
  const QSize size = layout_.size;
  setVisible(enabled_ && !layout_.lines.empty() && !size.isEmpty());
  setGeometry(QRect(QPoint(kMargin_px, view->height() - kMargin_px - size.height()), size));
  raise();
}

void OverlayLegendWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paintOverlayLegend(painter, rect(), layout_.lines, layout_.font);
}

}  // namespace sg::app
