#include "HydroelasticInspector.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "Document.h"
#include "GraspAnalysis.h"
#include "contact/models/HydroelasticContactModel.h"
#include "render/ContactSurfaceNodes.h"
#include "render/GraspOverlay.h"
#include "render/HydroelasticOverlay.h"

namespace sg::app {

namespace {

QString hydroNumber(double v) { return QString::number(v, 'g', 6); }
QString vector(const Vec3& v) {
  return QObject::tr("(%1, %2, %3)").arg(hydroNumber(v.x()), hydroNumber(v.y()), hydroNumber(v.z()));
}

}  // namespace

HydroelasticSurfacePage::HydroelasticSurfacePage(QWidget* parent) : QWidget(parent) {
  setObjectName("hydroelasticSurfacePage");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  combo_ = new QComboBox(this);
  combo_->setObjectName("hydroSurfaceCombo");
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(12);
  note_ = new QLabel(this);
  note_->setObjectName("hydroNoteLabel");
  note_->setWordWrap(true);
  tree_ = new QTreeWidget(this);
  tree_->setObjectName("hydroTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Quantity"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(true);
  layout->addWidget(combo_);
  layout->addWidget(note_);
  layout->addWidget(tree_, 1);
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int row) {
    const QVariant item = combo_->itemData(row);
    showSurface(item.isValid() ? item.toInt() : -1);
  });
  setResult(nullptr, nullptr);
}

QString HydroelasticSurfacePage::bodyName(int index) const {
  if (world_) {
    const std::vector<BodyHandle> handles = world_->bodyHandles();
    if (index >= 0 && index < static_cast<int>(handles.size()))
      return QString::fromStdString(world_->bodyLabel(handles[static_cast<std::size_t>(index)]));
  }
  return tr("body #%1").arg(index);
}

void HydroelasticSurfacePage::setResult(std::shared_ptr<const HydroelasticModelResult> result, const World* world,
                                        const QString& why) {
  result_ = std::move(result);
  world_ = world;
  int first = -1;
  {
    const QSignalBlocker block(combo_);
    combo_->clear();
    combo_->addItem(tr("(no surface)"));
    if (result_)
      for (std::size_t k = 0; k < result_->surfaces.size(); ++k) {
        const ContactSurface& s = result_->surfaces[k];
        if (s.empty()) continue;
        if (first < 0) first = static_cast<int>(k);
        combo_->addItem(tr("#%1  %2 – %3").arg(k + 1).arg(bodyName(s.bodyM), bodyName(s.bodyN)), static_cast<int>(k));
      }
  }
  showSurface(first);
  if (first < 0)
    note_->setText(!why.isEmpty() ? why
                   : result_     ? tr("The hydroelastic model found no contact surface: no compliant body overlaps another.")
                                 : tr("No hydroelastic result."));
}

void HydroelasticSurfacePage::showSurface(int index) {
  tree_->clear();
  items_.clear();
  const bool valid = result_ && index >= 0 && index < static_cast<int>(result_->surfaces.size()) &&
                     !result_->surfaces[static_cast<std::size_t>(index)].empty();
  shown_ = valid ? index : -1;
  {
    const QSignalBlocker block(combo_);
    combo_->setCurrentIndex(std::max(0, combo_->findData(shown_)));
  }
  if (!valid) {
    note_->setText(tr("Select a surface above, or a contact whose force comes from one."));
    return;
  }
  note_->clear();
  const ContactSurface& s = result_->surfaces[static_cast<std::size_t>(index)];
  QTreeWidgetItem* general = addGroup(tr("Surface #%1").arg(index + 1));
  addValue(general, "bodies", tr("Bodies (M – N)"), tr("%1 – %2").arg(bodyName(s.bodyM), bodyName(s.bodyN)));
  addValue(general, "pair", tr("Pair"), s.nCompliant ? tr("compliant – compliant (equal-pressure surface)")
                                                     : tr("compliant – rigid"));
  addValue(general, "polygons", tr("Polygons"), QString::number(s.polygons.size()));
  addValue(general, "representation", tr("Representation"), s.triangulated ? tr("triangles") : tr("polygons"));
  addValue(general, "area", tr("Area (mm²)"), hydroNumber(s.area_mm2));

  QTreeWidgetItem* pressure = addGroup(tr("Pressure"));
  const PressureUnit unit = kPressureUnit;  // as every pressure in the GUI
  addValue(pressure, "peakPressure", tr("Peak pressure (%1)").arg(QString::fromUtf8(unit.name)),
           hydroNumber(s.peakPressure_Pa / unit.pascals));
  addValue(pressure, "meanPressure", tr("Mean pressure (%1)").arg(QString::fromUtf8(unit.name)),
           hydroNumber(s.area_mm2 > 0 ? s.normalForce_N * 1e6 / s.area_mm2 / unit.pascals : 0.0));
  addValue(pressure, "centreOfPressure", tr("Centre of pressure (world, mm)"), vector(s.centreOfPressure_W_mm));

  QTreeWidgetItem* force = addGroup(tr("Force on M"));
  addValue(force, "normalForce", tr("Normal force ∫p dA (N)"), hydroNumber(s.normalForce_N));
  addValue(force, "netForce", tr("Net force (world, N)"), vector(s.force_W_N));
  addValue(force, "moment", tr("Moment about the CoP (N·mm)"), vector(s.moment_W_Nmm));
  addValue(force, "torsionalLimit", tr("Torsional limit ∫μp|r| dA (N·mm)"), hydroNumber(s.torsionalLimit_Nmm));
}

QTreeWidgetItem* HydroelasticSurfacePage::addGroup(const QString& title) {
  auto* item = new QTreeWidgetItem(tree_, {title});
  item->setFirstColumnSpanned(true);
  item->setExpanded(true);
  return item;
}

void HydroelasticSurfacePage::addValue(QTreeWidgetItem* group, const QString& key, const QString& name,
                                       const QString& value) {
  auto* item = new QTreeWidgetItem(group, {name, value});
  item->setData(0, Qt::UserRole, key);
  items_.insert(key, item);
}

QString HydroelasticSurfacePage::valueText(const QString& key) const {
  const auto it = items_.constFind(key);
  return it == items_.constEnd() ? QString() : (*it)->text(1);
}

HydroelasticInspector::HydroelasticInspector(GraspAnalysis* analysis, const Document* doc, QWidget* parent)
    : QDockWidget(tr("Hydroelastic Surface"), parent), analysis_(analysis), doc_(doc) {
  setObjectName("hydroelasticInspector");
  page_ = new HydroelasticSurfacePage;
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(page_);
  setWidget(scroll);
  connect(analysis_, &GraspAnalysis::updated, this, &HydroelasticInspector::refresh);
  connect(analysis_, &GraspAnalysis::selectedContactChanged, this, &HydroelasticInspector::followSelectedContact);
  refresh();
}

void HydroelasticInspector::refresh() {
  const auto& evaluation = analysis_->evaluation();
  if (!evaluation) {
    page_->setResult(nullptr, &doc_->world(), tr("No grasp is evaluated."));
    return;
  }
  // The result as the model's drawing reads it (render/HydroelasticOverlay.h), sharing the evaluation's ownership.
  const HydroelasticModelResult* surfaces = hydroelasticResult(*evaluation);
  if (!surfaces) {
    page_->setResult(nullptr, &doc_->world(),
                     tr("The contact model is %1: choose “hydroelastic” in Quality > Analysis Settings to compute "
                        "contact surfaces between compliant bodies (body option <hydroelastic>).")
                         .arg(QString::fromStdString(evaluation->contactModel)));
    return;
  }
  page_->setResult(std::shared_ptr<const HydroelasticModelResult>(evaluation->modelResult, surfaces), &doc_->world());
  followSelectedContact();
}

void HydroelasticInspector::followSelectedContact() {
  const auto& evaluation = analysis_->evaluation();
  const std::optional<int> selected = analysis_->selectedContact();
  if (!evaluation || !selected) return;
  const auto* hydro = hydroelasticResult(*evaluation);
  const std::optional<int> ev = analysis_->evaluationOfContact(*selected);
  if (!hydro || !ev || *ev >= static_cast<int>(hydro->surfaceOfContact.size())) return;
  const int surface = hydro->surfaceOfContact[static_cast<std::size_t>(*ev)];
  if (surface >= 0) page_->showSurface(surface);
}

}  // namespace sg::app
