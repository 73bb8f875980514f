#include "ModelResultInspector.h"

#include <QLabel>
#include <QVBoxLayout>

#include "GraspAnalysis.h"
#include "ModelResultView.h"
#include "contact/ContactModel.h"

namespace sg::app {

ModelResultInspector::ModelResultInspector(GraspAnalysis* analysis, QWidget* parent)
    : QDockWidget(tr("Model Result"), parent), analysis_(analysis) {
  setObjectName("modelResultInspector");
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  note_ = new QLabel;
  note_->setObjectName("modelResultNote");
  note_->setWordWrap(true);
  layout->addWidget(note_);
  view_ = new ModelResultView;
  layout->addWidget(view_, 1);
  setWidget(page);
  connect(analysis_, &GraspAnalysis::updated, this, &ModelResultInspector::refresh);
  connect(analysis_, &GraspAnalysis::selectedContactChanged, this, &ModelResultInspector::refresh);
  refresh();
}

void ModelResultInspector::refresh() {
  const auto& evaluation = analysis_->evaluation();
  if (!evaluation || !evaluation->modelResult) {
    view_->clearDescription();
    note_->setText(tr("No grasp is evaluated."));
    return;
  }
  const ContactModel* model = findContactModel(evaluation->contactModel);
  const QString name = model ? QString::fromStdString(model->label()) : QString::fromStdString(evaluation->contactModel);
  const ContactModelResult& result = *evaluation->modelResult;
  Json contact = Json::object();
  const std::optional<int> selected = analysis_->selectedContact();
  const std::optional<int> ev = selected ? analysis_->evaluationOfContact(*selected) : std::nullopt;
  if (ev) {
    contact = result.describeContact(static_cast<std::size_t>(*ev));
    note_->setText(tr("%1, contact #%2.").arg(name).arg(*selected + 1));
  } else {
    note_->setText(selected ? tr("%1: contact #%2 is not part of the evaluated grasp.").arg(name).arg(*selected + 1)
                            : tr("%1: select a contact for its own data.").arg(name));
  }
  view_->setDescription(contact, result.describe());
  if (view_->topLevelItemCount() == 0)
    note_->setText(note_->text() + QLatin1Char(' ') + tr("The model describes nothing beyond the contacts dock."));
}

}  // namespace sg::app
