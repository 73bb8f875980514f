// Grasp > Measures vs Physics (ui/app/PhysicsPredictionWindow.h) on the offscreen platform: the window opens a
// compare --against-physics table the test writes by hand per docs/schemas/physics-prediction.schema.json (and
// the same rows as the CLI's CSV) or the CLI writes, its bars and table cells are the document's numbers (an undefined value an
// empty bar and "undefined"), the charts export as PNG and SVG, and bad files give an error dialog naming the
// file and the problem while the window keeps its table.
#include <QAction>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QXmlStreamReader>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>
#include <cmath>
#include <optional>
#include <utility>

#include "../support/AppTestSetup.h"
#include "../support/TestPaths.h"
#include "Document.h"
#include "MainWindow.h"
#include "MessageBoxCloser.h"
#include "PhysicsPredictionWindow.h"
#include "render/CoinInit.h"

using namespace sg;
using namespace sg::app;
using Statistic = PhysicsPredictionWindow::Statistic;

namespace {

struct Row {
  const char* model;
  const char* measure;
  int missing;
  std::optional<double> auc, spearman;
};

// Two models × three measures; soft-finger's volume-l1 has no AUC, point's epsilon-exact no Spearman ρ.
const Row kRows[] = {
    {"soft-finger", "epsilon-l1", 1, 0.8125, 0.625},
    {"soft-finger", "volume-l1", 4, std::nullopt, 0.25},
    {"soft-finger", "epsilon-exact", 1, 0.75, 0.5},
    {"point", "epsilon-l1", 0, 0.6875, 0.375},
    {"point", "volume-l1", 2, 0.4375, -0.125},
    {"point", "epsilon-exact", 0, 0.5, std::nullopt},
};

QByteArray optionalText(const std::optional<double>& v, const char* none) {
  return v ? QByteArray::number(*v, 'g', 17) : QByteArray(none);
}

QByteArray jsonFixture() {
  QByteArray rows;
  for (const Row& r : kRows) {
    if (!rows.isEmpty()) rows += ",\n";
    rows += "    {\"model\": \"" + QByteArray(r.model) + "\", \"measure\": \"" + r.measure +
            "\", \"grasps\": 16, \"missing\": " + QByteArray::number(r.missing) +
            ", \"successes\": 6, \"auc\": " + optionalText(r.auc, "null") +
            ", \"spearman\": " + optionalText(r.spearman, "null") +
            (r.auc && r.spearman ? QByteArray() : QByteArray(", \"undefined\": \"one class or a constant side\"")) +
            "}";
  }
  return "{\n  \"format\": \"softgrasp.physics-prediction\", \"version\": 1,\n"
         "  \"files\": [\"/data/worlds/paralleljaw_box.xml\"], \"seeds\": 1, \"iterations\": 200, \"keep\": 16,\n"
         "  \"settings\": {\"settle_s\": 0.3, \"duration_s\": 1, \"gravity_mps2\": 9.81, \"timestep_s\": 0.002,\n"
         "                \"heldDisplacement_mm\": 10, \"heldRotation_deg\": 15, \"impratio\": 10, \"poisson\": 0.5,\n"
         "                \"directions\": [\"x+\", \"x-\", \"y+\", \"y-\", \"z+\", \"z-\"]},\n"
         "  \"successScore\": 0.5, \"grasps\": 16, \"successes\": 6,\n"
         "  \"rows\": [\n" + rows + "\n  ],\n"
         "  \"samples\": [], \"complete\": true, \"warnings\": []\n}\n";
}

QByteArray csvFixture() {
  QByteArray out = "model,measure,grasps,missing,successes,auc,spearman\n";
  for (const Row& r : kRows)
    out += QByteArray(r.model) + "," + r.measure + ",16," + QByteArray::number(r.missing) + ",6," +
           optionalText(r.auc, "") + "," + optionalText(r.spearman, "") + "\n";
  return out;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QBarSeries* barsOf(QChart* chart) {
  const auto series = chart->series();
  return series.size() == 1 ? qobject_cast<QBarSeries*>(series.first()) : nullptr;
}

}  // namespace

class TstUiPhysicsPrediction : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
    QVERIFY(dir_.isValid());
  }
  void init() {
    QSettings("SoftGrasp", "softgrasp").clear();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1200, 800);
    window_->show();
  }
  void cleanup() {
    if (window_) window_->document()->undoStack()->setClean();
    window_.reset();
  }

  void graspMenuShowsOneWindow() {
    auto* action = window_->findChild<QAction*>("actionMeasuresVsPhysics");
    QVERIFY(action);
    QVERIFY(window_->graspMenu()->actions().contains(action));
    QVERIFY(action->isEnabled());
    QVERIFY(!window_->findChild<PhysicsPredictionWindow*>());
    action->trigger();
    auto* w = window_->findChild<PhysicsPredictionWindow*>();
    QVERIFY(w && w->isVisible());
    QVERIFY(w->isWindow());
    QVERIFY(!w->table());
    action->trigger();
    QCOMPARE(window_->findChildren<PhysicsPredictionWindow*>().size(), 1);
  }

  void barsAndTableAreTheDocument_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << jsonFixture() << "table.json";
    QTest::newRow("csv") << csvFixture() << "table.csv";
  }
  void barsAndTableAreTheDocument() {
    QFETCH(QByteArray, text);
    QFETCH(QString, name);
    const QString path = dir_.filePath(name);
    QVERIFY(writeFile(path, text));
    PhysicsPredictionWindow w;
    w.show();
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(w.table());
    QCOMPARE(w.path(), path);

    for (const Statistic which : {Statistic::Auc, Statistic::Spearman}) {
      QBarSeries* bars = barsOf(w.chart(which));
      QVERIFY(bars);
      // One bar set per model, one bar per measure, in the document's order.
      QCOMPARE(bars->count(), 2);
      QCOMPARE(bars->barSets()[0]->label(), QStringLiteral("soft-finger"));
      QCOMPARE(bars->barSets()[1]->label(), QStringLiteral("point"));
      const auto axes = w.chart(which)->axes(Qt::Horizontal);
      QCOMPARE(axes.size(), 1);
      auto* categories = qobject_cast<QBarCategoryAxis*>(axes.first());
      QVERIFY(categories);
      QCOMPARE(categories->categories(), (QStringList{"epsilon-l1", "volume-l1", "epsilon-exact"}));
      for (int i = 0; i < 6; ++i) {
        const Row& r = kRows[i];
        QBarSet* set = bars->barSets()[i / 3];
        const std::optional<double> expected = which == Statistic::Auc ? r.auc : r.spearman;
        QCOMPARE(set->at(i % 3), expected.value_or(0.0));  // undefined: an empty bar
      }
      auto* y = qobject_cast<QValueAxis*>(w.chart(which)->axes(Qt::Vertical).value(0));
      QVERIFY(y);
      QCOMPARE(y->min(), which == Statistic::Auc ? 0.0 : -1.0);
      QCOMPARE(y->max(), 1.0);
    }

    QTableWidget* table = w.tableWidget();
    QCOMPARE(table->rowCount(), 6);
    for (int i = 0; i < 6; ++i) {
      const Row& r = kRows[i];
      QCOMPARE(table->item(i, 0)->text(), QString(r.model));
      QCOMPARE(table->item(i, 1)->text(), QString(r.measure));
      QCOMPARE(table->item(i, 2)->text(), QStringLiteral("16"));
      QCOMPARE(table->item(i, 3)->text(), QString::number(r.missing));
      QCOMPARE(table->item(i, 4)->text(), QStringLiteral("6"));
      // Shown with 3 significant digits, as docs/physics-vs-measures.md's table.
      for (const auto& [column, value] : {std::pair{5, r.auc}, std::pair{6, r.spearman}}) {
        const QString cell = table->item(i, column)->text();
        if (value) QVERIFY2(std::abs(cell.toDouble() - *value) <= 0.5e-3 + 1e-12, qPrintable(cell));
        else QCOMPARE(cell, QStringLiteral("undefined"));
      }
    }
    // The JSON's totals reach the status line; the CSV has none.
    QCOMPARE(w.statusLabel()->text().contains("6 of 16 grasps"), name.endsWith(".json"));
  }

  // The CLI's own --json and --csv of a small run: the bars are the rows of the document read independently.
  void cliDocumentsOpen() {
    const QString world = test::qInSourceTree("worlds/paralleljaw_box.xml");
    const QStringList args = {"compare", world, "--against-physics", "--seeds", "1", "--iterations", "200",
                              "--keep", "4", "--duration", "0.05", "--threads", "1", "--no-progress",
                              "--contact-model", "soft-finger,point"};
    QJsonArray rows;
    for (const char* format : {"--json", "--csv"}) {
      QProcess cli;
      cli.start(test::qCliPath(), args + QStringList{format});
      QVERIFY(cli.waitForFinished(300000));
      QCOMPARE(cli.exitCode(), 0);
      const QByteArray out = cli.readAllStandardOutput();
      if (rows.isEmpty()) rows = QJsonDocument::fromJson(out).object()["rows"].toArray();
      QVERIFY(rows.size() >= 4);
      const QString path = dir_.filePath(QString("cli") + (format == QByteArray("--json") ? ".json" : ".csv"));
      QVERIFY(writeFile(path, out));
      PhysicsPredictionWindow w;
      QString error;
      QVERIFY2(w.openFile(path, &error), qPrintable(error));
      QCOMPARE(w.tableWidget()->rowCount(), static_cast<int>(rows.size()));
      for (const Statistic which : {Statistic::Auc, Statistic::Spearman}) {
        QBarSeries* bars = barsOf(w.chart(which));
        QVERIFY(bars);
        const QStringList measures = qobject_cast<QBarCategoryAxis*>(w.chart(which)->axes(Qt::Horizontal).value(0))
                                         ->categories();
        int checked = 0;
        for (const QJsonValue v : rows) {
          const QJsonObject r = v.toObject();
          const QJsonValue expected = r[which == Statistic::Auc ? "auc" : "spearman"];
          for (QBarSet* set : bars->barSets()) {
            if (set->label() != r["model"].toString()) continue;
            const qsizetype k = measures.indexOf(r["measure"].toString());
            QVERIFY(k >= 0);
            QCOMPARE(set->at(static_cast<int>(k)), expected.isNull() ? 0.0 : expected.toDouble());
            ++checked;
          }
        }
        QCOMPARE(checked, static_cast<int>(rows.size()));
      }
    }
  }

  void chartsExportAsPngAndSvg() {
    const QString path = dir_.filePath("export.json");
    QVERIFY(writeFile(path, jsonFixture()));
    PhysicsPredictionWindow w;
    w.resize(800, 700);
    w.show();
    QString error;
    QVERIFY(!w.exportPng(dir_.filePath("empty.png"), Statistic::Auc, &error));  // nothing open yet
    QVERIFY(!error.isEmpty());
    QVERIFY2(w.openFile(path, &error), qPrintable(error));

    for (const Statistic which : {Statistic::Auc, Statistic::Spearman}) {
      w.tabs()->setCurrentWidget(w.chartView(which));
      const QString stem = dir_.filePath(which == Statistic::Auc ? "auc" : "spearman");
      QVERIFY2(w.exportChart(stem + ".png", &error), qPrintable(error));
      const QImage png(stem + ".png");
      QVERIFY(!png.isNull());
      const QSize view = w.chartView(which)->size() * w.chartView(which)->devicePixelRatio();
      QCOMPARE(png.size(), view);
      QVERIFY(png.width() >= 400 && png.height() >= 200);

      QVERIFY2(w.exportChart(stem + ".SVG", &error), qPrintable(error));  // the suffix in any case
      QFile svg(stem + ".SVG");
      QVERIFY(svg.open(QIODevice::ReadOnly));
      QXmlStreamReader xml(&svg);
      QVERIFY(xml.readNextStartElement());
      QCOMPARE(xml.name().toString(), QStringLiteral("svg"));
      QCOMPARE(xml.namespaceUri().toString(), QStringLiteral("http://www.w3.org/2000/svg"));
      int paths = 0;
      while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && (xml.name() == QLatin1String("path") || xml.name() == QLatin1String("rect")))
          ++paths;
      }
      QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
      QVERIFY(paths >= 6);  // at least the six bars
    }
    QVERIFY(!w.exportChart(dir_.filePath("no-such-dir/chart.svg"), &error) && !error.isEmpty());
    QVERIFY(!w.exportChart(dir_.filePath("no-such-dir/chart.png"), &error) && !error.isEmpty());
  }

  void badFilesGiveAClearError_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << QByteArray("{\"format\": \"softgrasp.physics-prediction\",,}") << "line 1";
    QTest::newRow("other kind") << QByteArray("{\"format\": \"softgrasp.grasp-list\", \"version\": 1}")
                                << "expected a softgrasp.physics-prediction document";
    QTest::newRow("newer") << QByteArray(jsonFixture()).replace("\"version\": 1", "\"version\": 7") << "version 7";
    QTest::newRow("auc out of range") << QByteArray(jsonFixture()).replace("\"auc\": 0.8125", "\"auc\": 1.5")
                                      << "rows[0].auc";
    QTest::newRow("no rows field") << QByteArray(jsonFixture()).replace("\"rows\"", "\"rowz\"") << "rows";
    QTest::newRow("csv header") << QByteArray("model,measure,auc\nsoft-finger,epsilon-l1,0.5\n")
                                << "expected the header";
    QTest::newRow("csv fields") << QByteArray(csvFixture()).replace("point,volume-l1,16,2,6,", "point,volume-l1,")
                                << "line 6: expected 7 fields";
    QTest::newRow("csv number") << QByteArray(csvFixture()).replace(",0.6875,", ",0,6875,") << "line 5";
    QTest::newRow("empty") << QByteArray("") << "empty file";
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << "expected the header";
  }
  void badFilesGiveAClearError() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const QString good = dir_.filePath("good.json"), bad = dir_.filePath("bad-table.json");
    QVERIFY(writeFile(good, jsonFixture()));
    QVERIFY(writeFile(bad, text));
    PhysicsPredictionWindow w;
    w.show();
    QString error;
    QVERIFY2(w.openFile(good, &error), qPrintable(error));
    {
      test::MessageBoxCloser closer;
      QVERIFY(!w.openFileReporting(bad));
      QCOMPARE(closer.count(), 1);
      QVERIFY2(closer.text().contains(bad), qPrintable(closer.text()));
      QVERIFY2(closer.text().contains(expected), qPrintable(closer.text()));
      QCOMPARE(closer.icon(), QMessageBox::Warning);
    }
    // The window keeps the table it showed.
    QCOMPARE(w.path(), good);
    QCOMPARE(w.tableWidget()->rowCount(), 6);
    QCOMPARE(barsOf(w.chart(Statistic::Auc))->barSets()[0]->at(0), 0.8125);
  }

  void missingFileGivesAClearError() {
    PhysicsPredictionWindow w;
    const QString missing = dir_.filePath("nowhere.json");
    QString error;
    QVERIFY(!w.openFile(missing, &error));
    QVERIFY2(error.contains(missing) && error.contains("cannot be read"), qPrintable(error));
    QVERIFY(!w.table());
  }

 private:
  QTemporaryDir settingsDir_, dir_;
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstUiPhysicsPrediction)
#include "tst_ui_physics_prediction.moc"
