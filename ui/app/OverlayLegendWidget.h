#pragma once
// The grasp overlay's legend (render/OverlayLegend.h) drawn with QPainter: a small translucent panel with one
// line per kind of arrow — the arrow in its colour (or, for the hydroelastic pressure, a colour bar), then what it
// shows and its scale (src/render/README.md §Legend). OverlayLegendWidget keeps it in the bottom-left corner of the
// 3-D view (clicks pass through to the view), scaled to the view (overlayLegendLayout: a bounded share of its area);
// the headless screenshot paints the same panel onto its image (paintOverlayLegend).
#include <QWidget>
#include <map>
#include <vector>

#include "render/OverlayLegend.h"

class QPainter;

namespace sg::app {

// The application font a little smaller: the panel explains, the view stays the subject.
QFont overlayLegendFont();
// The panel's size for `entries` with lines wrapped to at most `maxWidth` pixels (empty entries: 0 × 0).
QSize overlayLegendSize(const std::vector<OverlayLegendEntry>& entries, const QFont& font, int maxWidth);
// Paints the panel into `box` (as large as overlayLegendSize gave).
void paintOverlayLegend(QPainter& painter, const QRect& box, const std::vector<OverlayLegendEntry>& entries,
                        const QFont& font);
// Paints the panel in the bottom-left corner of `image` (nothing for no entries), fitted as overlayLegendLayout.
void paintOverlayLegend(QImage& image, const std::vector<OverlayLegendEntry>& entries);

// The panel never covers more than this fraction of the view's area (nor more than its width less the margins, nor
// kOverlayLegendMaxHeightFraction of its height): on a small view the legend shrinks, the view stays the subject.
inline constexpr double kOverlayLegendMaxAreaFraction = 0.15;
inline constexpr double kOverlayLegendMaxHeightFraction = 0.4;

// How the panel fits a view of `view` pixels: the first form within the bounds above of — the legend font with the
// full texts; the legend font, then 85 % and 75 % of it, with the compact texts (OverlayLegendEntry::compactText) —
// or, when none is, the smallest form with its first lines only and a last line "+N more".
struct OverlayLegendLayout {
  QFont font;
  bool compact = false;
  std::vector<OverlayLegendEntry> lines;  // what is painted: the chosen texts in `text`, maybe the "+N more" line
  QSize size{0, 0};                       // 0 × 0 for no entries
};
OverlayLegendLayout overlayLegendLayout(const std::vector<OverlayLegendEntry>& entries, const QSize& view);

class OverlayLegendWidget : public QWidget {
  Q_OBJECT
 public:
  // A child of `view`, kept in its bottom-left corner.
  explicit OverlayLegendWidget(QWidget* view);

  // The grasp overlay's entries (the unnamed source).
  void setEntries(std::vector<OverlayLegendEntry> entries);
  // Entries of another overlay (e.g. "comparison": the compared models' patch colours), shown after the unnamed
  // source's, sources in name order; an empty list removes the source's lines.
  void setEntries(const QString& source, std::vector<OverlayLegendEntry> entries);
  const std::vector<OverlayLegendEntry>& entries() const { return entries_; }
  // What the panel shows for the view's current size (compact texts and a smaller font on a small view).
  const OverlayLegendLayout& fitted() const { return layout_; }
  // View > Overlay Legend: shown while enabled and there is something to explain.
  void setEnabledByUser(bool on);
  bool enabledByUser() const { return enabled_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  void place();

  std::map<QString, std::vector<OverlayLegendEntry>> sources_;
  std::vector<OverlayLegendEntry> entries_;  // every source's, concatenated
  OverlayLegendLayout layout_;
  bool enabled_ = true;
};

}  // namespace sg::app
