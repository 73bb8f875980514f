#include "QualityDock.h"

#include <QBrush>
#include <QHash>
#include <QPalette>
#include <optional>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSettings>

#include "AnalysisSettingsDialog.h"
#include <QRegularExpression>
#include <QScrollArea>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "Document.h"
#include "GraspAnalysis.h"
#include "grasp/HullMeasures.h"
#include "grasp/QualityMeasure.h"

namespace sg::app {

namespace {
const char* kMeasuresKey = "quality/measures";
constexpr int kPendingRole = Qt::UserRole + 1;  // a value item's "being computed, last value shown" flag
constexpr int kValueDecimals = 4;

QSettings qualityDockSettings() { return QSettings(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp")); }

const QualityMeasure* registered(const QString& name) { return findQualityMeasure(name.toStdString()); }

bool isExpensive(const QString& name) {
  const QualityMeasure* m = registered(name);
  return m && m->expensive();
}

// The hull a measure reads (the volumes), built in the background by the analysis.
std::optional<GwsType> hullOf(const QString& name) {
  const QualityMeasure* m = registered(name);
  return m ? wrenchSpaceHull(*m) : std::nullopt;
}

// Names stored before the registry (the dock's own enum keys).
QString currentName(const QString& stored) {
  static const QHash<QString, QString> old = {{"epsilonL1", "epsilon-l1"},
                                              {"epsilonLInfinity", "epsilon-linf"},
                                              {"volumeL1", "volume-l1"},
                                              {"volumeLInfinity", "volume-linf"}};
  return old.value(stored, stored);
}

// Points of the L∞ Minkowski sum Π(kᵢ + 1) (double: it overflows integers for many contacts).
double lInfinityPointCount(const GraspEvaluation& e) {
  double n = 1;
  for (const ContactEvaluation& c : e.contacts) n *= static_cast<double>(c.wrenches.size() + 1);
  return n;
}

QString qualityNumber(double v) { return QString::number(v, 'g', 10); }

// The certified bounds of an iterative value (the ε's), its message, or nothing.
QString valueToolTip(const MeasureValue* value) {
  if (!value) return {};
  QStringList lines;
  if (value->bounds) {
    const MeasureBounds& b = *value->bounds;
    lines << QObject::tr("lower bound %1").arg(qualityNumber(b.lower))
          << QObject::tr("upper bound %1").arg(qualityNumber(b.upper))
          << QObject::tr("gap %1").arg(QString::number(b.gap(), 'g', 3))
          << QObject::tr("%1 support queries (%2)").arg(b.iterations).arg(QString::fromStdString(b.status));
  }
  if (!value->message.empty()) lines << QString::fromStdString(value->message);
  return lines.join('\n');
}

QString hullNote(const char* space, const GraspQuality& q) {
  if (q.hullStatus == HullStatus::Ok) return {};
  QString note = QObject::tr("%1 space: %2").arg(QString::fromUtf8(space), QString::fromUtf8(toString(q.hullStatus)));  // UTF-8 ("L∞"), never Latin-1
  QString message = QString::fromStdString(q.message).section('\n', 0, 0);
  const QString status = QString::fromUtf8(toString(q.hullStatus));
  if (message.startsWith(status)) message = message.mid(status.size()).remove(QRegularExpression("^[: ]+"));  // once
  if (!message.isEmpty()) note += QStringLiteral(" — ") + message;
  return note;
}
}  // namespace

QString measureLabel(const QString& name) {
  const QualityMeasure* m = registered(name);
  return m ? QString::fromStdString(m->label()) : name;
}

QualityDock::QualityDock(GraspAnalysis* analysis, const Document* doc, QWidget* parent)
    : QDockWidget(tr("Quality"), parent), analysis_(analysis), doc_(doc) {
  setObjectName("qualityDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);

  graspable_ = new QLabel(body);
  graspable_->setObjectName("qualityGraspableLabel");
  graspable_->setWordWrap(true);
  forceClosure_ = new QLabel(body);
  forceClosure_->setObjectName("forceClosureLabel");
  forceClosure_->setAlignment(Qt::AlignCenter);
  forceClosure_->setMargin(4);

  table_ = new QTableWidget(0, 2, body);
  table_->setObjectName("qualityMeasuresTable");
  table_->setHorizontalHeaderLabels({tr("Measure"), tr("Value")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);  // compact: short windows
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);

  add_ = new QToolButton(body);
  add_->setObjectName("addMeasureButton");
  add_->setText(tr("Add measure"));
  add_->setPopupMode(QToolButton::InstantPopup);
  add_->setMenu(new QMenu(add_));
  remove_ = new QToolButton(body);
  remove_->setObjectName("removeMeasureButton");
  remove_->setText(tr("Remove"));
  remove_->setToolTip(tr("Remove the selected measure"));
  connect(remove_, &QToolButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row >= 0 && row < measures_.size()) removeMeasure(measures_[row]);
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_);
  buttons->addWidget(remove_);
  buttons->addStretch();

  notes_ = new QLabel(body);
  notes_->setObjectName("qualityNotesLabel");
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  settings_ = new QLabel(body);
  settings_->setObjectName("qualitySettingsLabel");
  settings_->setWordWrap(true);
  settings_->setToolTip(tr("Quality > Analysis Settings changes these (Restore Defaults there)"));

  // The values first (graspable, force closure, the measures), then what explains them: at small heights the values
  // stay in view and the rest scrolls.
  layout->addWidget(graspable_);
  layout->addWidget(forceClosure_);
  // Exactly as tall as its rows (rebuildRows): a compact table, so the docks sharing the column keep their room; a
  // long note scrolls the dock, it never cuts the rows.
  layout->addWidget(table_);
  layout->addLayout(buttons);
  layout->addWidget(settings_);
  layout->addWidget(notes_);
  layout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName("qualityScroll");
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(body);
  setMinimumWidth(220);  // "Measure" and a value side by side
  setWidget(scroll);

  const QSettings settings = qualityDockSettings();
  if (settings.contains(kMeasuresKey)) {
    QStringList stored;
    for (const QString& key : settings.value(kMeasuresKey).toStringList()) stored << currentName(key);
    for (const QualityMeasure* m : qualityMeasures())
      if (stored.contains(QString::fromStdString(m->name()))) measures_ << QString::fromStdString(m->name());
  } else {
    measures_ = {QStringLiteral("epsilon-l1"), QStringLiteral("volume-l1"), QStringLiteral("epsilon-linf"),
                 QStringLiteral("epsilon-exact")};
  }
  rebuildRows();
  connect(analysis_, &GraspAnalysis::updated, this, &QualityDock::refresh);
  connect(analysis_, &GraspAnalysis::lInfinityUpdated, this, &QualityDock::refresh);
  connect(analysis_, &GraspAnalysis::l1HullUpdated, this, &QualityDock::refresh);
}

bool QualityDock::needsLInfinity() const {
  for (const QString& m : measures_)
    if (isExpensive(m)) return true;
  return false;
}

void QualityDock::addMeasure(const QString& m) {
  if (measures_.contains(m) || !registered(m)) return;
  // Keep the registry's order whatever the order of adding.
  QStringList ordered;
  for (const QualityMeasure* x : qualityMeasures())
    if (const QString name = QString::fromStdString(x->name()); name == m || measures_.contains(name)) ordered << name;
  measures_ = ordered;
  storeMeasures();
  rebuildRows();
  emit measuresChanged();
}

void QualityDock::removeMeasure(const QString& m) {
  if (!measures_.removeOne(m)) return;
  storeMeasures();
  rebuildRows();
  emit measuresChanged();
}

void QualityDock::storeMeasures() const {
  qualityDockSettings().setValue(kMeasuresKey, measures_);
}

int QualityDock::valuesHeight() const {
  const QMargins m = widget() ? static_cast<QScrollArea*>(widget())->widget()->layout()->contentsMargins() : QMargins();
  const int spacing = 6;
  // The settings in force are values too: as many lines as the dock's width wraps them to.
  const int settingsHeight = settings_->heightForWidth(std::max(settings_->width(), 100));
  return m.top() + graspable_->sizeHint().height() + forceClosure_->sizeHint().height() + table_->height() +
         add_->sizeHint().height() + settingsHeight + 4 * spacing + 8;
}

void QualityDock::rebuildRows() {
  table_->setRowCount(static_cast<int>(measures_.size()));
  table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                         std::max<int>(1, static_cast<int>(measures_.size())) * table_->verticalHeader()->defaultSectionSize() +
                         2 * table_->frameWidth());
  for (int row = 0; row < measures_.size(); ++row) {
    auto* label = new QTableWidgetItem(measureLabel(measures_[row]));
    if (const QualityMeasure* m = registered(measures_[row]))
      label->setToolTip(QString::fromStdString(m->description()));
    table_->setItem(row, 0, label);
    table_->setItem(row, 1, new QTableWidgetItem);
  }
  remove_->setEnabled(!measures_.isEmpty());
  rebuildAddMenu();
  refresh();
}

void QualityDock::rebuildAddMenu() {
  QMenu* menu = add_->menu();
  menu->clear();
  for (const QualityMeasure* registeredMeasure : qualityMeasures()) {
    const QString m = QString::fromStdString(registeredMeasure->name());
    if (measures_.contains(m)) continue;
    QAction* action = menu->addAction(measureLabel(m), this, [this, m] { addMeasure(m); });
    action->setObjectName(QStringLiteral("add_") + m);
    action->setToolTip(QString::fromStdString(registeredMeasure->description()));
  }
  add_->setEnabled(!menu->isEmpty());
}

QString QualityDock::valueText(const QString& m) const {
  const int row = static_cast<int>(measures_.indexOf(m));
  if (row < 0 || !table_->item(row, 1)) return {};
  return table_->item(row, 1)->text();
}

bool QualityDock::valuePending(const QString& m) const {
  const int row = static_cast<int>(measures_.indexOf(m));
  return row >= 0 && table_->item(row, 1) && table_->item(row, 1)->data(kPendingRole).toBool();
}

namespace {

// The bodies the graspable's evaluated contacts are with, each once, in contact order: a robot by its name (its
// links touch, the hand grasps), any other body by its label.
QStringList contactPartners(const World& world, const std::vector<Contact>& contacts, const GraspEvaluation& evaluation,
                            int graspable) {
  QStringList names;
  for (const ContactEvaluation& e : evaluation.contacts)
    for (int source : e.sourceContacts) {
      if (source < 0 || source >= static_cast<int>(contacts.size())) continue;
      const Contact& c = contacts[static_cast<std::size_t>(source)];
      const bool side1IsObject = c.side1.body.kind == BodyHandle::Kind::Graspable && c.side1.body.index == graspable;
      const BodyHandle& other = side1IsObject ? c.side2.body : c.side1.body;
      if (!world.isValid(other)) continue;
      const QString name = other.kind == BodyHandle::Kind::Robot
                               ? QString::fromStdString(world.robots.at(static_cast<std::size_t>(other.index)).name)
                               : QString::fromStdString(world.bodyLabel(other));
      if (!names.contains(name)) names << name;
    }
  return names;
}

}  // namespace

void QualityDock::refresh() {
  const auto& evaluation = analysis_->evaluation();
  const QualitySettings& settings = analysis_->settings().quality;
  QStringList notes;
  if (!analysis_->error().isEmpty()) notes << tr("Error: %1").arg(analysis_->error());

  // The settings in force (they persist between sessions, so say which ones apply).
  {
    const AnalysisSettings& all = analysis_->settings();
    const ContactModel* model = findContactModel(all.contactModel);
    // The patches the evaluation's contacts report (ModelContact::patchShape), whatever the model: its label
    // names the patch formula ("… (elastic layer)", "Hertz (elliptical contact)").
    QStringList shapes;
    if (evaluation && evaluation->contactModel == all.contactModel)
      for (const ContactEvaluation& c : evaluation->contacts)
        if (!c.patchShape.empty() && !shapes.contains(QString::fromStdString(c.patchShape)))
          shapes << QString::fromStdString(c.patchShape);
    const QString patch = shapes.isEmpty() ? tr("none (rigid contacts)") : shapes.join(QStringLiteral(", "));
    QString text = tr("Contact model: %1 · patch: %2 · normal force %3 N")
                       .arg(model ? QString::fromStdString(model->label()) : QString::fromStdString(all.contactModel),
                            patch)
                       .arg(settings.soft.patch.normalForce_N, 0, 'g', 4);
    if (!sameAsDefaults(all)) text += tr(" (not the defaults)");
    settings_->setText(text);
  }

  // Graspable and contact summary.
  const World& world = doc_->world();
  const int g = analysis_->graspableIndex();
  if (g < 0 || g >= static_cast<int>(world.graspables.size())) {
    graspable_->setText(tr("No graspable body in the world."));
  } else {
    QString text = tr("Graspable: <b>%1</b>").arg(QString::fromStdString(world.graspables[g].name).toHtmlEscaped());
    if (evaluation) {
      int soft = 0;
      for (const ContactEvaluation& c : evaluation->contacts) soft += c.kind == ContactKind::SoftFinger;
      const auto n = evaluation->contacts.size();
      std::size_t sources = 0;
      for (const ContactEvaluation& c : evaluation->contacts) sources += c.sourceContacts.size();
      text += n == 1 ? tr(" — 1 contact") : tr(" — %1 contacts").arg(n);
      text += tr(" (%1 soft)").arg(soft);
      // The Contacts dock lists every contact found; the model may merge neighbouring soft contacts into one. Say
      // whose contacts they were (the hand's, by its name: not "the table", which reads as the table body).
      if (sources > n)
        text += tr("; merged from %1 contacts of %2")
                    .arg(sources)
                    .arg(contactPartners(world, analysis_->contacts(), *evaluation, g).join(QStringLiteral(", "))
                             .toHtmlEscaped());
      graspable_->setToolTip(sources > n ? tr("The Contacts dock lists every contact found; the contact model "
                                              "merged neighbouring ones into the contacts evaluated here.")
                                         : QString());
    }
    graspable_->setText(text);
  }

  // Force closure (from ε L1 — both spaces agree on it — computed by support functions with every update).
  QString fcText, fcColour;
  if (!evaluation) {
    fcText = tr("No grasp evaluated");
    fcColour = QStringLiteral("#9e9e9e");
  } else if (evaluation->forceClosure()) {
    fcText = tr("✔ Force closure");
    fcColour = QStringLiteral("#2e7d32");
  } else {
    fcText = tr("✘ No force closure");
    fcColour = QStringLiteral("#c62828");
  }
  forceClosure_->setText(fcText);
  forceClosure_->setStyleSheet(
      QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; border-radius: 3px; }").arg(fcColour));
  forceClosure_->setProperty("forceClosure", evaluation && evaluation->forceClosure());

  if (evaluation) {
    for (const ContactEvaluation& c : evaluation->contacts)
      if (!c.note.empty()) {
        const int source = c.sourceContacts.empty() ? -1 : c.sourceContacts.front();
        notes << tr("Contact #%1: %2").arg(source + 1).arg(  // 1-based, as the contacts table
                       QString::fromStdString(c.note));
      }
    if (const QString n = hullNote("L1", evaluation->l1Quality); evaluation->l1Built && !n.isEmpty()) notes << n;
    // Nothing to say about an L∞ space still being built.
    const bool lInfinityShown = evaluation->lInfinityBuilt && !analysis_->lInfinityPending();
    if (lInfinityShown && evaluation->lInfinity.limitExceeded)
      notes << tr("Volume L∞ not computed: the hull of its Minkowski sum would have %1 points, above the "
                  "limit of %2 (ε L∞ does not need it).")
                   .arg(lInfinityPointCount(*evaluation), 0, 'f', 0)
                   .arg(settings.gws.maxLInfinityPoints);
    else if (const QString n = hullNote("L∞", evaluation->lInfinityQuality); lInfinityShown && !n.isEmpty())
      notes << n;
  }
  notes_->setText(notes.join('\n'));
  notes_->setVisible(!notes.isEmpty());

  for (int row = 0; row < measures_.size(); ++row) {
    const QString& m = measures_[row];
    const bool expensive = isExpensive(m);
    const MeasureValue* value = evaluation ? evaluation->measure(m.toStdString()) : nullptr;
    QTableWidgetItem* item = table_->item(row, 1);
    // The L1 hull's measures arrive within milliseconds of each update: the last value stays, greyed, so
    // dragging the hand does not make the row flicker (the L∞ hull can take seconds: "computing…").
    const bool l1Pending = evaluation && hullOf(m) == GwsType::L1 && analysis_->l1HullPending();
    item->setData(kPendingRole, l1Pending);
    item->setForeground(l1Pending ? palette().brush(QPalette::Disabled, QPalette::Text) : QBrush());
    QString text;
    if (!evaluation)
      text = QStringLiteral("—");
    else if (l1Pending) {
      const QString last = item->text();
      const bool number = !last.isEmpty() && (last[0].isDigit() || last[0] == '-' || last[0] == '.');
      item->setToolTip(tr("being computed in the background; the last value is shown until then"));
      item->setText(number ? last : tr("computing…"));
      continue;
    } else if (expensive && analysis_->lInfinityPending())
      text = tr("computing…");
    else if (expensive && evaluation->lInfinity.limitExceeded)
      text = tr("over the hull limit");
    else if (!value)
      text = tr("not computed");
    else if (m.startsWith(QLatin1String("volume")))
      text = QString::number(value->value, 'g', kValueDecimals);
    else if (value->ok && value->bounds && !value->bounds->converged && value->value == value->bounds->lower)
      text = QStringLiteral("≥ ") + QString::number(value->value, 'f', kValueDecimals);  // the certified lower bound
    else
      text = QString::number(value->value, 'f', kValueDecimals);
    table_->item(row, 1)->setToolTip(valueToolTip(value));
    table_->item(row, 1)->setText(text);
  }
}

}  // namespace sg::app
