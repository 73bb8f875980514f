#pragma once
// Contact markers and friction cones in the 3-D view, kept in step with the live analysis: the glyphs of
// GraspAnalysis::contacts() as the render layer maps them (render/GraspOverlay.h: contactGlyphs, the mapping
// the headless screenshot uses too; soft contacts also get their fitted patch and ellipse from the
// QualityOverlay), and the highlight of the selected contact.
// A click on a contact marker in the viewport selects that contact (GraspAnalysis::setSelectedContact)
// instead of a body, even where a fingertip covers the marker (ContactNodes::pickContact).
// Lives under the scene's overlayRoot(); without a viewport (offscreen platform) it still tracks the
// contacts, so its state can be tested.
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <memory>
#include <optional>

namespace sg {
class ContactNodes;
}  // namespace sg

class SoSwitch;

namespace sg::app {

class GraspAnalysis;
class ViewportPanel;

class ContactOverlay : public QObject {
  Q_OBJECT
 public:
  // `panel` may be null (no viewport).
  ContactOverlay(GraspAnalysis* analysis, ViewportPanel* panel, QObject* parent = nullptr);
  ~ContactOverlay() override;

  // Markers (and the highlight) on or off; friction cones on or off (shown only while markers are).
  void setContactsVisible(bool on);
  bool contactsVisible() const { return contactsVisible_; }
  void setConesVisible(bool on);
  bool conesVisible() const;

  const ContactNodes& nodes() const { return *nodes_; }

  // The contact (index into GraspAnalysis::contacts()) whose marker is shown at `pos` (viewport widget
  // pixels), if any; none while contacts are hidden or without a viewport.
  std::optional<int> contactAt(QPoint pos) const;
  // Selects the contact at `pos` and returns true, or returns false (nothing picked, nothing changed).
  bool selectContactAt(QPoint pos);

 private:
  void rebuild();
  void updateHighlight();
  void redraw();

  GraspAnalysis* analysis_;
  QPointer<ViewportPanel> panel_;
  std::unique_ptr<ContactNodes> nodes_;
  SoSwitch* switch_ = nullptr;  // ref'd; child of the scene's overlayRoot() while there is a scene
  bool contactsVisible_ = true;
};

}  // namespace sg::app
