#include "ContactsDock.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "Document.h"
#include "GraspAnalysis.h"

namespace sg::app {

namespace {

QString vec(const Vec3& v, int decimals) {
  return QStringLiteral("(%1, %2, %3)")
      .arg(v.x(), 0, 'f', decimals)
      .arg(v.y(), 0, 'f', decimals)
      .arg(v.z(), 0, 'f', decimals);
}

QString kindName(ContactKind kind) {
  switch (kind) {
    case ContactKind::Frictionless: return ContactsDock::tr("frictionless");
    case ContactKind::PointWithFriction: return ContactsDock::tr("point with friction");
    case ContactKind::SoftFinger: return ContactsDock::tr("soft finger, fitted");
  }
  return {};
}

QTableWidgetItem* cell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

ContactsDock::ContactsDock(Document* doc, GraspAnalysis* analysis, QWidget* parent)
    : QDockWidget(tr("Contacts"), parent), doc_(doc), analysis_(analysis) {
  setObjectName("ContactsDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  summary_ = new QLabel(body);
  summary_->setObjectName("contactsSummary");
  layout->addWidget(summary_);
  collisions_ = new QLabel(body);
  collisions_->setObjectName("contactsCollisions");
  collisions_->setStyleSheet(QStringLiteral("color: #c00000; font-weight: bold"));
  collisions_->setWordWrap(true);
  collisions_->hide();
  layout->addWidget(collisions_);
  table_ = new QTableWidget(0, kColumnCount, body);
  table_->setObjectName("contactsTable");
  table_->setHorizontalHeaderLabels({tr("Body 1"), tr("Body 2"), tr("Position (mm)"), tr("Normal (into body 1)"),
                                     tr("μ static"), tr("μ kinetic"), tr("Type"), tr("Separation (mm)")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_);
  setWidget(body);

  connect(analysis_, &GraspAnalysis::updated, this, &ContactsDock::rebuild);
  connect(analysis_, &GraspAnalysis::selectedContactChanged, this, &ContactsDock::followSelection);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &ContactsDock::onRowSelected);
  rebuild();
}

void ContactsDock::rebuild() {
  updating_ = true;
  const World& world = doc_->world();
  const std::vector<Contact>& contacts = analysis_->contacts();
  const auto& evaluation = analysis_->evaluation();
  table_->clearContents();
  table_->setRowCount(static_cast<int>(contacts.size()));
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[i];
    auto label = [&](const BodyHandle& h) {
      return world.isValid(h) ? QString::fromStdString(world.bodyLabel(h)) : tr("?");
    };
    // What the contact model made of it; contacts outside the evaluated grasp have none.
    QString type = tr("not in the grasp");
    if (const auto e = analysis_->evaluationOfContact(i); evaluation && e) type = kindName(evaluation->contacts.at(*e).kind);
    // Contacts are numbered from 1 in the GUI and the CLI's text (#1 = the first contact; JSON "index" is 0-based).
    table_->setVerticalHeaderItem(i, new QTableWidgetItem(QString::number(i + 1)));
    table_->setItem(i, kBody1, cell(label(c.side1.body)));
    table_->setItem(i, kBody2, cell(label(c.side2.body)));
    table_->setItem(i, kPosition, cell(vec(c.side1.p_WC_mm, 2)));
    table_->setItem(i, kNormal, cell(vec(c.side1.n_W, 3)));
    table_->setItem(i, kMuStatic, cell(QString::number(c.muStatic, 'f', 2), true));
    table_->setItem(i, kMuKinetic, cell(QString::number(c.muKinetic, 'f', 2), true));
    table_->setItem(i, kType, cell(type));
    table_->setItem(i, kSeparation, cell(QString::number(c.separation_mm, 'f', 3), true));
  }
  table_->resizeColumnsToContents();
  const int byHand = static_cast<int>(std::count_if(contacts.begin(), contacts.end(), isHandContact));
  QString summary = tr("%n contact(s)", nullptr, static_cast<int>(contacts.size()));
  if (!contacts.empty()) summary += tr(", %n by a hand (listed first)", nullptr, byHand);
  if (!analysis_->error().isEmpty()) summary += QStringLiteral(" — ") + analysis_->error();
  summary_->setText(summary);
  const QString collisions = analysis_->describeInterpenetrations(8);
  collisions_->setText(collisions);
  collisions_->setVisible(!collisions.isEmpty());
  updating_ = false;
  followSelection();
}

void ContactsDock::followSelection() {
  updating_ = true;
  const std::optional<int> selected = analysis_->selectedContact();
  if (selected && *selected < table_->rowCount()) {
    table_->selectRow(*selected);
    table_->scrollToItem(table_->item(*selected, 0));
  } else {
    table_->clearSelection();
  }
  updating_ = false;
}

void ContactsDock::onRowSelected() {
  if (updating_) return;
  const auto rows = table_->selectionModel()->selectedRows();
  analysis_->setSelectedContact(rows.isEmpty() ? std::nullopt : std::optional<int>(rows.first().row()));
}

}  // namespace sg::app
