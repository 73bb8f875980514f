// The comparison overlay's builder (render/PatchOutlineNodes.h) on a hand-made comparison: only the shown
// models, each in its model's colour, one closed line loop per outline with the outline's points, the legend's
// lines; nothing for models without patches. Checked on the graph, without a GL context.
#include <QtTest>

#include <algorithm>

#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoBaseColor.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoSeparator.h>

#include "render/CoinInit.h"
#include "render/PatchOutlineNodes.h"

using namespace sg;

namespace {

std::vector<Vec3> square(double x) {
  return {Vec3(x, 0, 0), Vec3(x + 1, 0, 0), Vec3(x + 1, 1, 0), Vec3(x, 1, 0)};
}

ModelComparison comparison() {
  ModelComparison c;
  c.graspable = 0;
  c.rows = {{0, "a"}, {1, "b"}};
  for (const char* name : {"soft-finger", "hertz", "point"}) {
    ModelColumn column;
    column.model = name;
    column.label = std::string(name) + " label";
    column.ok = true;
    column.contacts.resize(2);
    for (std::size_t r = 0; r < 2; ++r) {
      column.contacts[r].present = true;
      if (column.model != "point") column.contacts[r].patchOutline_W_mm = square(static_cast<double>(r) * 10);
    }
    c.columns.push_back(column);
  }
  c.columns[1].contacts[1].patchOutline_W_mm.clear();  // Hertz: one patch only
  return c;
}

template <class T>
std::vector<T*> all(SoNode* root) {
  SoSearchAction search;
  search.setType(T::getClassTypeId());
  search.setInterest(SoSearchAction::ALL);
  search.apply(root);
  std::vector<T*> out;
  for (int i = 0; i < search.getPaths().getLength(); ++i) out.push_back(static_cast<T*>(search.getPaths()[i]->getTail()));
  return out;
}

}  // namespace

class TstRenderPatchOutlines : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { initCoin(); }
  void shownModelsOnlyInTheirColumnColours();
  void everyRegisteredModelItsOwnColour();
  void loopsAreClosedOutlines();
  void legendNamesModelsWithPatches();
};

void TstRenderPatchOutlines::shownModelsOnlyInTheirColumnColours() {
  const ModelComparison c = comparison();
  const auto outlines = comparisonPatchOutlines(c, {"hertz", "point"});
  QCOMPARE(outlines.size(), std::size_t(2));
  QCOMPARE(outlines[0].model, std::string("hertz"));
  QVERIFY(outlines[0].colour == comparisonColour("hertz"));  // its own colour, whoever else is shown
  QCOMPARE(outlines[0].outlines_W_mm.size(), std::size_t(1));
  QVERIFY(outlines[1].outlines_W_mm.empty());
  for (std::size_t i = 0; i < comparisonPaletteSize(); ++i)
    for (std::size_t j = i + 1; j < comparisonPaletteSize(); ++j) QVERIFY(comparisonColour(i) != comparisonColour(j));
}

// Every registered model has a colour of its own (soft finger and penalty, first and seventh, shared one
// when the palette had six), the same whatever the order models are listed in.
void TstRenderPatchOutlines::everyRegisteredModelItsOwnColour() {
  const auto& models = contactModels();
  QVERIFY(models.size() >= 7);
  QVERIFY(comparisonPaletteSize() >= models.size());
  for (std::size_t i = 0; i < models.size(); ++i)
    for (std::size_t j = i + 1; j < models.size(); ++j)
      QVERIFY2(comparisonColour(models[i]->name()) != comparisonColour(models[j]->name()),
               (models[i]->name() + " and " + models[j]->name()).c_str());
  QVERIFY(comparisonColour("soft-finger") != comparisonColour("penalty"));
  // A comparison listing the models in another order colours them the same.
  ModelComparison reversed = comparison();
  std::reverse(reversed.columns.begin(), reversed.columns.end());
  const auto a = comparisonPatchOutlines(comparison(), {"soft-finger", "hertz"});
  const auto b = comparisonPatchOutlines(reversed, {"soft-finger", "hertz"});
  QCOMPARE(b.size(), std::size_t(2));
  QCOMPARE(b[0].model, std::string("hertz"));
  QVERIFY(b[0].colour == a[1].colour && b[1].colour == a[0].colour);
  // A name the registry does not know still gets a palette colour, always the same one.
  QVERIFY(comparisonColour("not-registered") == comparisonColour("not-registered"));
}

void TstRenderPatchOutlines::loopsAreClosedOutlines() {
  const ModelComparison c = comparison();
  SoSeparator* root = makePatchOutlinesNode(comparisonPatchOutlines(c, {"soft-finger", "hertz", "point"}));
  root->ref();
  QCOMPARE(QString(root->getName().getString()), QStringLiteral("comparisonOverlay"));
  const auto colours = all<SoBaseColor>(root);
  QCOMPARE(colours.size(), std::size_t(2));  // the point model draws nothing
  QCOMPARE(colours[0]->rgb[0], SbColor(comparisonColour("soft-finger").data()));
  const auto lines = all<SoLineSet>(root);
  const auto coords = all<SoCoordinate3>(root);
  QCOMPARE(lines.size(), std::size_t(2));
  QCOMPARE(lines[0]->numVertices.getNum(), 2);  // soft finger: two loops of 4 + 1 points
  QCOMPARE(lines[0]->numVertices[0], 5);
  QCOMPARE(coords[0]->point.getNum(), 10);
  QCOMPARE(coords[0]->point[0], coords[0]->point[4]);  // closed
  QCOMPARE(coords[0]->point[5], SbVec3f(10, 0, 0));
  QCOMPARE(lines[1]->numVertices.getNum(), 1);
  root->unref();
}

void TstRenderPatchOutlines::legendNamesModelsWithPatches() {
  const ModelComparison c = comparison();
  const auto legend = patchOutlinesLegend(comparisonPatchOutlines(c, {"soft-finger", "hertz", "point"}));
  QCOMPARE(legend.size(), std::size_t(2));
  QCOMPARE(legend[0].key, std::string("patches:soft-finger"));
  QCOMPARE(legend[0].text, std::string("soft-finger label: 2 patches"));
  QCOMPARE(legend[1].text, std::string("hertz label: 1 patch"));
  QVERIFY(legend[1].colour == comparisonColour("hertz"));
  QCOMPARE(legend[1].compactText, std::string("hertz: 1"));  // the small view's form
}

QTEST_GUILESS_MAIN(TstRenderPatchOutlines)
#include "tst_render_patch_outlines.moc"
