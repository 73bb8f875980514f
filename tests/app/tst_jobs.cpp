// The background job runner (ui/app/JobRunner.h) with small synthetic jobs: a result arrives on the GUI
// thread with its tag; a newer submit replaces the waiting job, which never starts; cancel() stops a
// cooperative job, reported as cancelled, and drops the waiting one; destroying the runner mid-job cancels
// and joins; progress arrives throttled and in order; a throwing job reports its error; connectJobEnds
// (ui/app/JobEnds.h) hands a window's current job's cancel and failure to it, idle first, and drops other tags.
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "JobEnds.h"
#include "JobRunner.h"

using namespace sg;
using namespace sg::app;

namespace {
constexpr int kWait_ms = 60000;  // bounds, not speed expectations: a loaded machine still passes

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// What a gated job shares with the test: it counts its start, then waits until released or cancelled.
struct Gate {
  std::atomic<int> starts{0};
  std::atomic<bool> open{false};
  std::atomic<bool> sawCancel{false};
};

// Runs until the gate opens (returns `value`) or the runner cancels it (throws Cancelled).
JobRunner::Job gatedJob(std::shared_ptr<Gate> gate, int value) {
  return [gate, value](ProgressSink& progress) -> std::any {
    ++gate->starts;
    while (!gate->open) {
      if (progress.cancelRequested()) {
        gate->sawCancel = true;
        throwIfCancelled(progress);
      }
      sleepMs(1);
    }
    return value;
  };
}

// Waits without the event loop (nothing is delivered meanwhile) until the job has started.
void waitForStart(const Gate& gate) {
  while (gate.starts == 0) sleepMs(1);  // a hang fails at ctest's timeout
}

std::uint64_t tagOf(const QList<QVariant>& signal) { return signal.at(0).value<std::uint64_t>(); }
}  // namespace

class TestJobs : public QObject {
  Q_OBJECT
 private slots:
  void cleanup() { QCOMPARE(JobRunner::liveThreadCount(), 0); }  // every runner joined its thread

  void resultArrivesWithItsTag() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    const auto caller = std::this_thread::get_id();
    std::thread::id ranOn;
    runner.submit(7, [&ranOn](ProgressSink&) {
      ranOn = std::this_thread::get_id();
      return std::string("hull");
    });
    QVERIFY(finished.wait(kWait_ms));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(tagOf(finished.first()), std::uint64_t(7));
    const auto result = finished.first().at(1).value<std::any>();
    const auto* text = JobRunner::resultAs<std::string>(result);
    QVERIFY(text);
    QCOMPARE(*text, std::string("hull"));
    QVERIFY(!JobRunner::resultAs<int>(result));  // the wrong type gives null, not a crash
    QVERIFY(ranOn != caller);  // off the GUI thread
    QCOMPARE(JobRunner::liveThreadCount(), 1);
    QVERIFY(!runner.busy());
    QCOMPARE(runner.startedCount(), 1);
  }

  void outcomesAreDeliveredOnTheRunnersThread() {
    JobRunner runner;
    std::thread::id deliveredOn;
    connect(&runner, &JobRunner::finished, this, [&] { deliveredOn = std::this_thread::get_id(); });
    QSignalSpy finished(&runner, &JobRunner::finished);
    runner.submit(1, [](ProgressSink&) { return 1; });
    QVERIFY(finished.wait(kWait_ms));
    QVERIFY(deliveredOn == std::this_thread::get_id());
  }

  void aNewerSubmitReplacesTheWaitingJob() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    auto first = std::make_shared<Gate>(), second = std::make_shared<Gate>(), third = std::make_shared<Gate>();
    runner.submit(1, gatedJob(first, 10));
    waitForStart(*first);
    runner.submit(2, gatedJob(second, 20));  // waits behind the first…
    runner.submit(3, gatedJob(third, 30));   // …and is replaced by this one
    QVERIFY(runner.busy());
    third->open = true;
    first->open = true;
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kWait_ms);
    QVERIFY(QTest::qWaitFor([&] { return !runner.busy(); }, kWait_ms));
    QCoreApplication::sendPostedEvents();
    QCOMPARE(finished.count(), 2);
    QCOMPARE(second->starts.load(), 0);  // superseded: never started
    QCOMPARE(first->starts.load(), 1);
    QCOMPARE(third->starts.load(), 1);
    QCOMPARE(runner.startedCount(), 2);
    QCOMPARE(tagOf(finished.at(0)), std::uint64_t(1));
    QCOMPARE(tagOf(finished.at(1)), std::uint64_t(3));
    QCOMPARE(*JobRunner::resultAs<int>(finished.at(1).at(1).value<std::any>()), 30);
  }

  void cancelStopsTheRunningJobAndDropsTheWaitingOne() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy failed(&runner, &JobRunner::failed);
    auto running = std::make_shared<Gate>(), waiting = std::make_shared<Gate>();
    runner.submit(4, gatedJob(running, 1));  // never released: only a cancel ends it
    waitForStart(*running);
    runner.submit(5, gatedJob(waiting, 2));
    runner.cancel();
    QVERIFY(cancelled.wait(kWait_ms));
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(tagOf(cancelled.first()), std::uint64_t(4));
    QVERIFY(running->sawCancel);
    QVERIFY(!runner.busy());  // the waiting job went with the cancel
    QCoreApplication::sendPostedEvents();
    QCOMPARE(waiting->starts.load(), 0);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(failed.count(), 0);  // cancelled is not an error

    // The runner goes on: the next job runs with a fresh sink.
    runner.submit(6, [](ProgressSink& progress) {
      throwIfCancelled(progress);
      return 6;
    });
    QVERIFY(finished.wait(kWait_ms));
    QCOMPARE(tagOf(finished.first()), std::uint64_t(6));
  }

  void dropWaitingLeavesTheRunningJob() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    auto running = std::make_shared<Gate>(), waiting = std::make_shared<Gate>();
    runner.submit(1, gatedJob(running, 1));
    waitForStart(*running);
    runner.submit(2, gatedJob(waiting, 2));
    runner.dropWaiting();
    running->open = true;
    QVERIFY(finished.wait(kWait_ms));
    QVERIFY(QTest::qWaitFor([&] { return !runner.busy(); }, kWait_ms));
    QCoreApplication::sendPostedEvents();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(tagOf(finished.first()), std::uint64_t(1));
    QVERIFY(!running->sawCancel);
    QCOMPARE(waiting->starts.load(), 0);
  }

  void destroyingTheRunnerCancelsAndJoins() {
    auto gate = std::make_shared<Gate>(), waiting = std::make_shared<Gate>();
    auto runner = std::make_unique<JobRunner>();
    runner->submit(1, gatedJob(gate, 1));  // never released
    waitForStart(*gate);
    runner->submit(2, gatedJob(waiting, 2));
    QCOMPARE(JobRunner::liveThreadCount(), 1);
    runner.reset();  // returns only once the thread has ended
    QVERIFY(gate->sawCancel);
    QCOMPARE(waiting->starts.load(), 0);
    QCOMPARE(JobRunner::liveThreadCount(), 0);
    QCoreApplication::sendPostedEvents();  // nothing posted to the dead runner is delivered
  }

  void destroyingAnIdleRunnerJoins() {
    {
      JobRunner neverUsed;  // no thread until the first submit
      QCOMPARE(JobRunner::liveThreadCount(), 0);
    }
    auto runner = std::make_unique<JobRunner>();
    QSignalSpy finished(runner.get(), &JobRunner::finished);
    runner->submit(1, [](ProgressSink&) { return 1; });
    QVERIFY(finished.wait(kWait_ms));
    QCOMPARE(JobRunner::liveThreadCount(), 1);  // idle, waiting for the next job
    runner.reset();
    QCOMPARE(JobRunner::liveThreadCount(), 0);
  }

  void progressArrivesInOrderAndBeforeTheResult() {
    JobRunner runner;
    std::vector<double> fractions;
    std::vector<QString> messages;
    bool progressAfterResult = false, resultSeen = false;
    connect(&runner, &JobRunner::progress, this, [&](std::uint64_t tag, double f, const QString& m) {
      QCOMPARE(tag, std::uint64_t(9));
      fractions.push_back(f);
      messages.push_back(m);
      if (resultSeen) progressAfterResult = true;
    });
    connect(&runner, &JobRunner::finished, this, [&] { resultSeen = true; });
    QSignalSpy finished(&runner, &JobRunner::finished);
    // Increasing fractions, over half a second or more, so several polls see the job running.
    runner.submit(9, [](ProgressSink& progress) {
      for (int i = 0; i <= 20; ++i) {
        SubProgress step(progress, i / 21.0, (i + 1) / 21.0);
        step.report(1, "step " + std::to_string(i));
        sleepMs(25);
      }
      return 0;
    });
    QVERIFY(finished.wait(kWait_ms));
    QVERIFY(!fractions.empty());
    QVERIFY(fractions.size() <= 21);  // only changes are signalled
    for (std::size_t i = 0; i < fractions.size(); ++i) {
      QVERIFY(fractions[i] > 0 && fractions[i] <= 1);
      if (i > 0) QVERIFY2(fractions[i] > fractions[i - 1], "progress must be monotone");
      QVERIFY(messages[i].startsWith("step "));
    }
    QVERIFY(!progressAfterResult);
  }

  void progressIsThrottled() {
    JobRunner runner;
    QSignalSpy progress(&runner, &JobRunner::progress);
    auto gate = std::make_shared<Gate>();
    constexpr int kReports = 100000;
    runner.submit(1, [gate](ProgressSink& sink) -> std::any {
      for (int i = 1; i <= kReports; ++i) sink.report(double(i) / kReports, "tight loop");
      while (!gate->open) sleepMs(1);
      return 0;
    });
    // The latest report is the one that arrives, however many came before it.
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(1).toDouble() == 1.0, kWait_ms);
    gate->open = true;
    QVERIFY(QTest::qWaitFor([&] { return !runner.busy(); }, kWait_ms));
    QVERIFY(progress.count() < kReports / 10);  // polled, not one signal per report
  }

  void aThrowingJobReportsItsError() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    QSignalSpy failed(&runner, &JobRunner::failed);
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    runner.submit(3, [](ProgressSink&) -> std::any { throw std::runtime_error("qhull: precision error"); });
    QVERIFY(failed.wait(kWait_ms));
    QCOMPARE(tagOf(failed.first()), std::uint64_t(3));
    QCOMPARE(failed.first().at(1).toString(), QString("qhull: precision error"));
    runner.submit(4, [](ProgressSink&) -> std::any { throw Error("bad wrench", "mug.xml", 3); });
    QVERIFY(failed.wait(kWait_ms));
    QCOMPARE(failed.last().at(1).toString(), QString("mug.xml:3: bad wrench"));
    // A job that gives up with Cancelled on its own is cancelled, not failed.
    runner.submit(5, [](ProgressSink&) -> std::any { throw Cancelled(); });
    QVERIFY(cancelled.wait(kWait_ms));
    QCOMPARE(tagOf(cancelled.first()), std::uint64_t(5));
    QCOMPARE(failed.count(), 2);
    QCOMPARE(finished.count(), 0);
  }

  // The windows' wiring (PhysicsTrialDock, SensitivityWindow, PhysicsPredictionWindow): the current tag's cancel
  // and failure reach the owner after it went idle; an outcome of an older tag does not. (No status label:
  // this suite has no widgets; the windows' suites check their status lines.)
  void jobEndsReachTheOwnerOfTheCurrentTag() {
    JobRunner runner;
    QObject owner;
    std::uint64_t current = 7;
    std::vector<std::string> events;
    connectJobEnds(&runner, &owner,
                   {&current, [&] { events.push_back("idle"); }, nullptr, QString("failed: %1"),
                    [&] { events.push_back("cancelled"); },
                    [&](const QString& error) { events.push_back("failed " + error.toStdString()); }});
    QSignalSpy failed(&runner, &JobRunner::failed);
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    runner.submit(6, [](ProgressSink&) -> std::any { throw Cancelled(); });  // a stale tag
    QVERIFY(cancelled.wait(kWait_ms));
    QVERIFY(events.empty());
    runner.submit(7, [](ProgressSink&) -> std::any { throw Cancelled(); });
    QVERIFY(cancelled.wait(kWait_ms));
    QCOMPARE(events, (std::vector<std::string>{"idle", "cancelled"}));
    runner.submit(7, [](ProgressSink&) -> std::any { throw std::runtime_error("no hand"); });
    QVERIFY(failed.wait(kWait_ms));
    QCOMPARE(events, (std::vector<std::string>{"idle", "cancelled", "idle", "failed no hand"}));
    current = 8;
    runner.submit(7, [](ProgressSink&) -> std::any { throw std::runtime_error("stale"); });
    QVERIFY(failed.wait(kWait_ms));
    QCOMPARE(events.size(), std::size_t{4});
  }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
