#include "PropertiesDock.h"

#include <QScrollArea>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <cmath>

#include "Commands.h"
#include "Document.h"
#include "PoseEditor.h"
#include "core/Parse.h"

namespace sg::app {

PropertiesDock::PropertiesDock(Document* doc, QWidget* parent)
    : QDockWidget(tr("Properties"), parent), doc_(doc) {
  setObjectName("PropertiesDock");
  setMinimumWidth(180);  // names and values stay readable when the window is small
  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  auto* form = new QFormLayout;
  layout->addLayout(form);

  name_ = new QLabel(content);
  name_->setObjectName("propertiesName");
  material_ = new QComboBox(content);
  mass_ = new QDoubleSpinBox(content);
  mass_->setRange(0.0, 1e9);
  mass_->setSpecialValueText(tr("—"));  // shown at 0: nothing selected
  mass_->setDecimals(3);
  mass_->setSuffix(tr(" g"));
  mass_->setKeyboardTracking(false);
  mass_->setMinimumWidth(80);  // not as wide as the 1e9 g limit asks: the dock stays narrow enough for 800×600
  youngs_ = new QLineEdit(content);
  youngs_->setPlaceholderText(tr("rigid"));
  youngs_->setToolTip(tr("Young's modulus in Pa; leave empty for a rigid body"));
  youngsStatus_ = new QLabel(content);
  youngsStatus_->setStyleSheet("color: #b00020");
  youngsStatus_->setObjectName("youngsStatus");
  youngsStatus_->setWordWrap(true);  // the whole message, never clipped ("must be a…")
  geometry_ = new QLabel(content);
  geometry_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  geometry_->setWordWrap(true);
  triangles_ = new QLabel(content);
  radius_ = new QLabel(content);

  // A narrow dock puts a field under its label rather than cutting either (800×600 windows).
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form->addRow(tr("Name"), name_);
  form->addRow(tr("Material"), material_);
  form->addRow(tr("Mass"), mass_);
  form->addRow(tr("Young's modulus (Pa)"), youngs_);
  form->addRow(youngsStatus_);  // the full width: a whole sentence
  // The editable values first (name to pose), what the model file says after: a short dock scrolls the latter.
  pose_ = new PoseEditor(doc_, content);
  layout->addWidget(pose_);
  auto* facts = new QFormLayout;
  facts->setRowWrapPolicy(QFormLayout::WrapLongRows);
  facts->addRow(tr("Geometry"), geometry_);
  facts->addRow(tr("Triangles"), triangles_);
  facts->addRow(tr("Max radius"), radius_);
  layout->addLayout(facts);
  layout->addStretch();
  // Scrolls rather than claiming its full height, so the scene tree above it keeps room.
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);
  setWidget(scroll);

  connect(material_, &QComboBox::activated, this, &PropertiesDock::applyMaterial);
  connect(mass_, &QDoubleSpinBox::valueChanged, this, &PropertiesDock::applyMass);  // arrows, Enter
  connect(mass_, &QDoubleSpinBox::editingFinished, this, &PropertiesDock::applyMass);
  connect(youngs_, &QLineEdit::editingFinished, this, &PropertiesDock::applyYoungs);
  connect(doc_, &Document::selectionChanged, this, &PropertiesDock::refresh);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) {
    if (k == ChangeKind::Properties || k == ChangeKind::Structure) refresh();
  });
  refresh();
}

void PropertiesDock::refresh() {
  const auto& sel = doc_->selection();
  const bool has = sel.has_value();
  for (QWidget* w : {static_cast<QWidget*>(material_), static_cast<QWidget*>(mass_), static_cast<QWidget*>(youngs_)})
    w->setEnabled(has);
  youngsStatus_->clear();
  const QSignalBlocker b1(material_), b2(mass_), b3(youngs_);
  if (!has) {
    name_->setText(tr("(nothing selected)"));
    material_->clear();
    mass_->setValue(0.0);
    youngs_->clear();
    geometry_->clear();
    triangles_->clear();
    radius_->clear();
    return;
  }
  const World& w = doc_->world();
  const Body& b = w.body(*sel);
  name_->setText(QString::fromStdString(w.bodyLabel(*sel)));  // the label every view and the CLI use
  name_->setToolTip(b.name.empty() ? QString() : tr("Name in the model file: %1").arg(QString::fromStdString(b.name)));
  material_->clear();
  for (const auto& m : w.materials.names()) material_->addItem(QString::fromStdString(m));
  if (!w.materials.contains(b.material)) material_->addItem(QString::fromStdString(b.material));
  material_->setCurrentText(QString::fromStdString(b.material));
  mass_->setValue(b.mass_g);
  youngs_->setText(b.youngs_Pa ? QString::fromStdString(formatDouble(*b.youngs_Pa)) : QString());
  const std::string& file = b.geometry.file.empty() ? b.geometry.resolvedPath : b.geometry.file;
  QString geometryText = file.empty() ? tr("(inline)") : QString::fromStdString(file);
  if (b.primitive)  // an exact analytic shape (src/io/FORMATS.md §Primitives)
    geometryText = (file.empty() ? QString() : geometryText + " — ") + tr("exact %1").arg(shapeTypeName(b.primitive->shape));
  geometry_->setText(geometryText);
  geometry_->setToolTip(QString::fromStdString(b.geometry.resolvedPath));
  triangles_->setText(QLocale().toString(static_cast<qulonglong>(b.triangleCount())));
  radius_->setText(tr("%1 mm").arg(b.maxRadius_mm, 0, 'f', 1));
}

void PropertiesDock::applyMaterial() {
  const auto& sel = doc_->selection();
  if (!sel) return;
  BodyProperties p = propertiesOf(doc_->world().body(*sel));
  const std::string chosen = material_->currentText().toStdString();
  if (chosen.empty() || chosen == p.material) return;
  p.material = chosen;
  doc_->push(new SetBodyPropertiesCommand(doc_, *sel, p));
}

void PropertiesDock::applyMass() {
  const auto& sel = doc_->selection();
  if (!sel) return;
  BodyProperties p = propertiesOf(doc_->world().body(*sel));
  if (mass_->value() <= 0.0) {  // a mass must be positive: show the current one again
    const QSignalBlocker block(mass_);
    mass_->setValue(p.mass_g);
    return;
  }
  if (std::abs(mass_->value() - p.mass_g) < 0.5e-3) return;  // the box shows 3 decimals
  p.mass_g = mass_->value();
  doc_->push(new SetBodyPropertiesCommand(doc_, *sel, p));
}

bool PropertiesDock::applyYoungs() {
  const auto& sel = doc_->selection();
  if (!sel) return false;
  BodyProperties p = propertiesOf(doc_->world().body(*sel));
  const std::string text = youngs_->text().trimmed().toStdString();
  std::optional<double> value;
  if (!text.empty()) {
    value = parseDouble(text);
    if (!value || *value <= 0) {
      youngsStatus_->setText(tr("Young's modulus must be a number > 0 (Pa), or empty for rigid"));
      return false;
    }
  }
  youngsStatus_->clear();
  if (value == p.youngs_Pa) return true;
  p.youngs_Pa = value;
  doc_->push(new SetBodyPropertiesCommand(doc_, *sel, p));
  return true;
}

}  // namespace sg::app
