// Progress and cancellation (core/Progress.h): SubProgress maps nested ranges onto the parent's bar,
// throwIfCancelled throws Cancelled (an sg::Error) once asked, and CancellableProgress is cancelled and read
// from another thread.
#include <QtTest>

#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/Progress.h"

using namespace sg;

namespace {
// Records every report; cancels when told to.
class RecordingProgress final : public ProgressSink {
 public:
  std::vector<std::pair<double, std::string>> reports;
  bool cancel = false;
  void report(double fraction, std::string_view message) override { reports.emplace_back(fraction, message); }
  bool cancelRequested() const override { return cancel; }
};
}  // namespace

class TestProgress : public QObject {
  Q_OBJECT
 private slots:
  void subProgressMapsOntoTheParentsRange() {
    RecordingProgress parent;
    SubProgress sub(parent, 0.2, 0.6);
    sub.report(0, "start");
    sub.report(0.5, "half");
    sub.report(1, "end");
    QCOMPARE(parent.reports.size(), std::size_t(3));
    QCOMPARE(parent.reports[0].first, 0.2);
    QVERIFY(std::abs(parent.reports[1].first - 0.4) < 1e-15);
    QVERIFY(std::abs(parent.reports[2].first - 0.6) < 1e-15);
    QCOMPARE(parent.reports[1].second, std::string("half"));
  }
  void nestedSubProgressComposes() {
    RecordingProgress parent;
    SubProgress outer(parent, 0.5, 1.0);  // the second half of the job
    SubProgress inner(outer, 0.0, 0.5);   // the first half of that
    inner.report(1, "inner done");
    QCOMPARE(parent.reports.size(), std::size_t(1));
    QVERIFY(std::abs(parent.reports[0].first - 0.75) < 1e-15);
  }
  void fractionsOutsideTheRangeAreClamped() {
    RecordingProgress parent;
    SubProgress sub(parent, 0.25, 0.5);
    sub.report(-3, "");
    sub.report(7, "");
    sub.report(std::nan(""), "");
    QCOMPARE(parent.reports[0].first, 0.25);
    QCOMPARE(parent.reports[1].first, 0.5);
    QCOMPARE(parent.reports[2].first, 0.25);
    QCOMPARE(clampFraction(0.3), 0.3);
    QCOMPARE(clampFraction(-0.1), 0.0);
    QCOMPARE(clampFraction(1.5), 1.0);
  }
  void subProgressForwardsTheParentsCancel() {
    RecordingProgress parent;
    SubProgress sub(parent, 0, 0.5);
    QVERIFY(!sub.cancelRequested());
    throwIfCancelled(sub);  // not asked: no throw
    parent.cancel = true;
    QVERIFY(sub.cancelRequested());
    QVERIFY_THROWS_EXCEPTION(Cancelled, throwIfCancelled(sub));
  }
  void cancelledIsAnErrorNamedCancelled() {
    CancellableProgress p;
    p.cancel();
    try {
      throwIfCancelled(p);
      QFAIL("no exception");
    } catch (const Error& e) {  // sg::Error handlers see it; Cancelled tells it apart
      QVERIFY(dynamic_cast<const Cancelled*>(&e));
      QCOMPARE(std::string(e.what()), std::string("cancelled"));
    }
  }
  void nullProgressNeverCancels() {
    NullProgress p;
    p.report(0.5, "ignored");
    QVERIFY(!p.cancelRequested());
    SubProgress sub(p, 0.1, 0.2);
    throwIfCancelled(sub);
  }
  void cancellableProgressKeepsTheLatestReport() {
    CancellableProgress p;
    QCOMPARE(p.snapshot().reports, std::uint64_t(0));
    p.report(0.3, "first");
    p.report(0.7, "second");
    const auto s = p.snapshot();
    QCOMPARE(s.fraction, 0.7);
    QCOMPARE(s.message, std::string("second"));
    QCOMPARE(s.reports, std::uint64_t(2));
    p.report(2, "over");
    QCOMPARE(p.snapshot().fraction, 1.0);
  }
  void cancellableProgressIsCancelledFromAnotherThread() {
    CancellableProgress p;
    // The computation on one thread polls until cancelled, reporting as it goes; this thread cancels it
    // once it has reported.
    bool sawCancel = false;
    std::thread computation([&] {
      for (;;) {
        p.report(0.5, "working");
        try {
          throwIfCancelled(p);
        } catch (const Cancelled&) {
          sawCancel = true;
          return;
        }
        std::this_thread::yield();
      }
    });
    while (p.snapshot().reports == 0) std::this_thread::yield();  // a hang fails at ctest's timeout
    QCOMPARE(p.snapshot().message, std::string("working"));
    p.cancel();
    computation.join();  // returns only because the computation saw the cancel
    QVERIFY(sawCancel);
    QVERIFY(p.cancelRequested());
  }
};

QTEST_APPLESS_MAIN(TestProgress)
#include "tst_progress.moc"
