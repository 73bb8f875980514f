#pragma once
// The grasp overlay's legend (render/OverlayLegend.h) drawn with QPainter: a small translucent panel with one
// line per kind of arrow — the arrow in its colour (or, for the hydroelastic pressure, a colour bar), then what it
// shows and its scale (src/render/README.md §Legend). OverlayLegendWidget keeps it in the bottom-left corner of the 3-D view (clicks pass through to the
// view); the headless screenshot paints the same panel onto its image (paintOverlayLegend).
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
// Paints the panel in the bottom-left corner of `image` (nothing for no entries).
void paintOverlayLegend(QImage& image, const std::vector<OverlayLegendEntry>& entries);

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
  bool enabled_ = true;
};

}  // namespace sg::app
