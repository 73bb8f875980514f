// The generic model-result view (ui/app/ModelResultView.h) and its dock (ModelResultInspector.h): labels and
// values from the unit suffixes (Pa shown in kPa), a result type the application has never heard of — a
// contact model registered by this test alone — shown row by row, and the live hydroelastic surfaces.
// Offscreen platform, no GL.
#include <QtTest>

#include <QLabel>

#include "../support/AppTestSetup.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "ModelResultInspector.h"
#include "ModelResultView.h"
#include "contact/ContactModel.h"
#include "render/CoinInit.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

// A result type no view knows: one made-up quantity per contact and a list of made-up records.
struct UnheardOfResult : ContactModelResult {
  Json describeContact(std::size_t i) const override {
    Json o = Json::object();
    o.set("squishDepth_mm", 0.25 + static_cast<double>(i));
    o.set("squishy", true);
    return o;
  }
  Json describe() const override {
    Json records = Json::array();
    for (int k = 0; k < 3; ++k) {
      Json r = Json::object();
      r.set("stiffness_N_per_mm", 100.0 * (k + 1));
      r.set("contactPressure_Pa", 2500.0 * (k + 1));
      records.push(std::move(r));
    }
    Json o = Json::object();
    o.set("records", std::move(records));
    return o;
  }
};

class UnheardOfModel final : public ContactModel {
 public:
  std::string name() const override { return "unheard-of"; }
  std::string label() const override { return "Unheard-of test model"; }
  std::string description() const override { return "point contacts with made-up data (tst_ui_model_result only)"; }
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink&) const override {
    auto out = std::make_unique<UnheardOfResult>();
    for (std::size_t i = 0; i < in.contacts.size(); ++i)
      out->contacts.push_back(pointModelContact(in.contacts[i], in.graspable, in.sourceIndices[i], false, settings.edges));
    return out;
  }
};

}  // namespace

class TstUiModelResult : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
    registerContactModel(std::make_unique<UnheardOfModel>());
  }

  void labelsAndValuesFromUnitSuffixes() {
    QCOMPARE(quantityLabel("peakPressure_Pa"), QString("peak pressure (kPa)"));
    QCOMPARE(quantityLabel("area_mm2"), QString("area (mm²)"));
    QCOMPARE(quantityLabel("kappaMax_per_mm"), QString("kappa max (1/mm)"));
    QCOMPARE(quantityLabel("pressureGradient_Pa_per_mm"), QString("pressure gradient (kPa/mm)"));
    QCOMPARE(quantityLabel("maxTorsionalFriction_Nmm"), QString("max torsional friction (N mm)"));
    QCOMPARE(quantityLabel("fit1"), QString("fit 1"));
    QCOMPARE(quantityLabel("relativeResidual"), QString("relative residual"));
    QCOMPARE(quantityLabel("_mm"), QString("_mm"));  // a bare suffix is no unit
    QCOMPARE(quantityValue("peakPressure_Pa", Json(80e3)), QString("80"));  // kPa
    QCOMPARE(quantityValue("area_mm2", Json(12.5)), QString("12.5"));
    Json v = Json::array();
    v.push(1.0);
    v.push(-2.0);
    v.push(0.5);
    QCOMPARE(quantityValue("force_N", v), QString("(1, -2, 0.5)"));
    QCOMPARE(quantityValue("conforming", Json(false)), QString("no"));
    QCOMPARE(quantityValue("source", Json("from overlap")), QString("from overlap"));
  }

  void viewShowsAResultTypeItHasNeverHeardOf() {
    UnheardOfResult result;
    ModelResultView view;
    view.setDescription(result.describeContact(1), result.describe());
    QCOMPARE(view.topLevelItemCount(), 2);  // Contact, Model
    QCOMPARE(view.labelText("contact/squishDepth_mm"), QString("squish depth (mm)"));
    QCOMPARE(view.valueText("contact/squishDepth_mm"), QString("1.25"));
    QCOMPARE(view.valueText("contact/squishy"), QString("yes"));
    QCOMPARE(view.valueText("model/records"), QString("3"));  // an array of records: its count, numbered children
    QCOMPARE(view.labelText("model/records/2/contactPressure_Pa"), QString("contact pressure (kPa)"));
    QCOMPARE(view.valueText("model/records/2/contactPressure_Pa"), QString("7.5"));
    QCOMPARE(view.labelText("model/records/0/stiffness_N_per_mm"), QString("stiffness (N/mm)"));
    QVERIFY(view.valueText("contact/unknown").isEmpty());
    // Nothing described: no groups.
    view.setDescription(Json::object(), Json::object());
    QCOMPARE(view.topLevelItemCount(), 0);
  }

  void longArraysAreCut() {
    Json list = Json::array();
    for (int k = 0; k < ModelResultView::kMaxArrayItems + 7; ++k) {
      Json o = Json::object();
      o.set("area_mm2", k);
      list.push(std::move(o));
    }
    Json model = Json::object();
    model.set("polygons", std::move(list));
    ModelResultView view;
    view.setDescription(Json::object(), model);
    QCOMPARE(view.valueText("model/polygons"), QString::number(ModelResultView::kMaxArrayItems + 7));
    QVERIFY(!view.valueText(QString("model/polygons/%1/area_mm2").arg(ModelResultView::kMaxArrayItems - 1)).isEmpty());
    QVERIFY(view.valueText(QString("model/polygons/%1/area_mm2").arg(ModelResultView::kMaxArrayItems)).isEmpty());
    QCOMPARE(view.topLevelItem(0)->child(0)->childCount(), ModelResultView::kMaxArrayItems + 1);  // + "… 7 more"
  }

  void dockFollowsTheLiveAnalysis() {
    MainWindow window;
    auto* dock = window.findChild<ModelResultInspector*>();
    QVERIFY(dock);
    QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/hydro_fingertips.xml")));
    GraspAnalysis* analysis = window.analysis();
    // The test's model, unknown to every view: its rows appear for the selected contact.
    AnalysisSettings s = analysis->settings();
    s.contactModel = "unheard-of";
    analysis->setSettings(s);
    QVERIFY(analysis->evaluation());
    QCOMPARE(analysis->evaluation()->contactModel, std::string("unheard-of"));
    // Its model-wide rows, whatever is selected; the note names the model by its label.
    QCOMPARE(dock->view()->valueText("model/records"), QString("3"));
    QCOMPARE(dock->view()->valueText("model/records/1/contactPressure_Pa"), QString("5"));
    QVERIFY(dock->noteLabel()->text().contains("Unheard-of test model"));
    QVERIFY(dock->view()->valueText("contact/squishDepth_mm").isEmpty());  // no contact selected
    // Another model: the rows follow it (the point model describes nothing of its own).
    s.contactModel = "point";
    analysis->setSettings(s);
    QVERIFY(dock->view()->valueText("model/records").isEmpty());
    QCOMPARE(dock->view()->topLevelItemCount(), 0);
    window.document()->undoStack()->setClean();
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TstUiModelResult)
#include "tst_ui_model_result.moc"
