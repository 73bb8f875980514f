#include "JobEnds.h"

#include <QLabel>
#include <memory>

#include "JobRunner.h"

namespace sg::app {

void connectJobEnds(JobRunner* jobs, QObject* context, JobEnds ends) {
  auto shared = std::make_shared<const JobEnds>(std::move(ends));
  QObject::connect(jobs, &JobRunner::cancelled, context, [shared](std::uint64_t tag) {
    if (tag != *shared->currentTag) return;
    if (shared->idle) shared->idle();
    if (shared->status) shared->status->setText(QObject::tr("Cancelled"));
    if (shared->cancelled) shared->cancelled();
  });
  QObject::connect(jobs, &JobRunner::failed, context, [shared](std::uint64_t tag, const QString& error) {
    if (tag != *shared->currentTag) return;
    if (shared->idle) shared->idle();
    if (shared->status) shared->status->setText(shared->failedText.arg(error));
    if (shared->failed) shared->failed(error);
  });
}

}  // namespace sg::app
