// Per-model settings in the settings file and the dialog (src/contact/README.md §Model parameters): every
// built-in model's declared parameters round trip through the INI file in a [model] group, files of older
// versions (only [analysis]) still load, malformed values are named with their group, and a model registered
// only by this test (tests/support/TestOnlyContactModel.h) gets a group in the file and a field in the dialog.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

#include "../support/AppTestSetup.h"
#include "../support/TestOnlyContactModel.h"
#include "AnalysisSettingsDialog.h"
#include "AnalysisSettingsIni.h"
#include "Document.h"
#include "core/NumberFormat.h"
#include "GraspAnalysis.h"

using namespace sg;
using namespace sg::app;

namespace {

// A value of `p` other than its default, inside its range.
double otherValue(const ModelParameter& p) {
  switch (p.kind) {
    case ParameterKind::Bool: return p.defaultValue != 0 ? 0 : 1;
    case ParameterKind::Choice: return std::fmod(p.defaultValue + 1, static_cast<double>(p.choices.size()));
    case ParameterKind::Integer: return p.defaultValue + 1 <= p.max ? p.defaultValue + 1 : p.min;
    case ParameterKind::Number: break;
  }
  // 0.3 of the way, so the value is no round number (checks the text round trip) and fits the dialog's decimals.
  return std::round((p.min + 0.3 * (std::min(p.max, 1000.0) - p.min)) * 1000) / 1000;
}

void writeText(const QString& path, const char* text) {
  std::ofstream out(path.toStdString());
  out << text;
}

}  // namespace

class TestUiModelSettings : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    sg::test::useTemporarySettings(dir_);
    sgtest::registerTestOnlyContactModel();
  }

  // Every parameter of every registered model, set to a value other than its default, written and read back
  // onto defaults: the same value, from the [model] group.
  void everyModelRoundTrips() {
    AnalysisSettings written;
    int count = 0;
    for (const ContactModel* m : contactModels())
      for (const ModelParameter& p : m->parameters()) {
        setParameterValue(written.quality, m->name(), p, otherValue(p));
        ++count;
      }
    QVERIFY(count >= 13);  // soft-finger 1, hertz 1, patch 4, penalty 6, test-only 1
    const QString path = dir_.filePath("roundtrip.ini");
    QVERIFY(exportAnalysisSettings(written, path));
    QSettings file(path, QSettings::IniFormat);
    QCOMPARE(file.value("patch/tolerance_mm").toString(),
             QString::fromStdString(formatDouble(written.quality.patch.tolerance_mm)));
    QCOMPARE(file.value("penalty/clampNormalForce").toString(), QString("false"));
    QVERIFY(file.contains("test-only/gain"));
    QVERIFY(!file.childGroups().contains("point"));  // a model without parameters gets no group

    std::vector<std::string> problems;
    AnalysisSettings read;
    settings_ini::read(file, read.collision, read.contactModel, read.quality, &problems);
    QVERIFY(problems.empty());
    for (const ContactModel* m : contactModels())
      for (const ModelParameter& p : m->parameters())
        QVERIFY2(parameterValue(read.quality, m->name(), p) == parameterValue(written.quality, m->name(), p),
                 qPrintable(QString::fromStdString(m->name() + "." + p.key)));
    QVERIFY(!sameAsDefaults(read));
  }

  // A file of an older version: only [analysis], the Hertz choice as patchModel. It loads as before; the models'
  // own settings stay at their defaults.
  void oldFileLoads() {
    const QString path = dir_.filePath("old.ini");
    writeText(path,
              "[analysis]\nthreshold_mm=0.3\npatchModel=hertz\nnormalForce_N=7.5\npointContactEdges=6\n"
              "softEquatorDirections=16\ntorqueLength_mm=50\nmaxLInfinityPoints=20000\n");
    QSettings file(path, QSettings::IniFormat);
    AnalysisSettings s;
    std::vector<std::string> problems;
    settings_ini::read(file, s.collision, s.contactModel, s.quality, &problems);
    QVERIFY(problems.empty());
    QCOMPARE(readAnalysisSettings(file, AnalysisSettings{}).quality.soft.patch.normalForce_N, 7.5);
    QCOMPARE(s.contactModel, std::string("hertz"));
    QCOMPARE(s.collision.contacts.threshold_mm, 0.3);
    QCOMPARE(s.quality.soft.patch.normalForce_N, 7.5);
    QCOMPARE(s.quality.edges.pointContactEdges, 6);
    QCOMPARE(equatorDirectionsOf(s.quality.edges.softRings), 16);
    QCOMPARE(s.quality.torqueLength_mm, 50.0);
    QVERIFY(modelParametersAtDefaults(s.quality));
  }

  // Malformed values keep the current value and are named with their group; out-of-range numbers are clamped
  // (as the [analysis] numbers are).
  void badValuesNamed() {
    const QString path = dir_.filePath("bad.ini");
    writeText(path,
              "[analysis]\nthreshold_mm=0,2\n[patch]\ntolerance_mm=abc\nmaxVertices=2.5\ncurvedSamples=1000\n"
              "[penalty]\nclampNormalForce=perhaps\n[test-only]\ngain=-3\n");
    QSettings file(path, QSettings::IniFormat);
    AnalysisSettings s;
    std::vector<std::string> problems;
    settings_ini::read(file, s.collision, s.contactModel, s.quality, &problems);
    QCOMPARE(problems.size(), std::size_t(4));
    QVERIFY2(problems[0].find("[analysis] threshold_mm = '0,2'") == 0, problems[0].c_str());
    QVERIFY2(problems[1].find("[patch] tolerance_mm = 'abc' is not a number") == 0, problems[1].c_str());
    QVERIFY2(problems[2].find("[patch] maxVertices = '2.5' is not an integer") == 0, problems[2].c_str());
    QVERIFY2(problems[3].find("[penalty] clampNormalForce = 'perhaps' is not true or false") == 0,
             problems[3].c_str());
    const AnalysisSettings d;
    QCOMPARE(s.quality.patch.tolerance_mm, d.quality.patch.tolerance_mm);
    QCOMPARE(s.quality.patch.maxVertices, d.quality.patch.maxVertices);
    QCOMPARE(s.quality.patch.curvedSamples, 256);  // clamped to the declared maximum
    QCOMPARE(s.quality.penalty.clampNormalForce, true);
    QCOMPARE(s.quality.modelValues.at("test-only").at("gain"), 0.0);  // clamped to the minimum
  }

  // The dialog has a page per registered model with a field per declared parameter; the test-only model's gain
  // is shown, edited and applied, and persisted in its group.
  void dialogShowsEveryModel() {
    Document doc;
    GraspAnalysis analysis(&doc);
    AnalysisSettingsDialog dialog(&analysis);
    QCOMPARE(dialog.modelPages()->count(), static_cast<int>(contactModels().size()));
    for (const ContactModel* m : contactModels())
      for (const ModelParameter& p : m->parameters())
        QVERIFY2(dialog.findChild<QWidget*>(QString::fromStdString("param." + m->name() + "." + p.key)),
                 qPrintable(QString::fromStdString(m->name() + "." + p.key)));
    QVERIFY(qobject_cast<QSpinBox*>(dialog.parameterWidget("patch", "maxVertices")));
    QVERIFY(qobject_cast<QCheckBox*>(dialog.parameterWidget("penalty", "clampNormalForce")));
    QVERIFY(!dialog.parameterWidget("patch", "nope"));

    auto* gain = qobject_cast<QDoubleSpinBox*>(dialog.parameterWidget("test-only", "gain"));
    QVERIFY(gain);
    QCOMPARE(gain->minimum(), 0.0);
    QCOMPARE(gain->maximum(), 10.0);
    QCOMPARE(gain->value(), 1.0);  // the default
    QVERIFY(gain->suffix().contains("N"));

    // Choosing the model shows its page.
    dialog.contactModelCombo()->setCurrentIndex(dialog.contactModelCombo()->findData(QString("test-only")));
    QVERIFY(dialog.modelPages()->currentWidget()->isAncestorOf(gain));
    gain->setValue(3.25);
    qobject_cast<QSpinBox*>(dialog.parameterWidget("patch", "maxVertices"))->setValue(30);
    dialog.apply();
    const AnalysisSettings& s = analysis.settings();
    QCOMPARE(s.contactModel, std::string("test-only"));
    QCOMPARE(modelParameter(s.quality, *findContactModel("test-only"), "gain"), 3.25);
    QCOMPARE(s.quality.patch.maxVertices, 30);
    // Untouched fields keep their values exactly (no rounding through the spin boxes).
    QCOMPARE(s.quality.penalty.criticalVelocity_mm_per_s, AnalysisSettings{}.quality.penalty.criticalVelocity_mm_per_s);
    QVERIFY(s.quality.modelValues.size() == 1);

    QSettings stored(QStringLiteral("SoftGrasp"), QStringLiteral("softgrasp"));
    QCOMPARE(stored.value("test-only/gain").toString(), QString("3.25"));
    QCOMPARE(readAnalysisSettings(AnalysisSettings{}).quality.patch.maxVertices, 30);

    // Restore Defaults puts the declared defaults back in the fields.
    dialog.showSettings(AnalysisSettings{});
    QCOMPARE(gain->value(), 1.0);
    dialog.apply();
    QVERIFY(modelParametersAtDefaults(analysis.settings().quality));
  }
};

QTEST_MAIN(TestUiModelSettings)
#include "tst_ui_model_settings.moc"
