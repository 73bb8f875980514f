// <linkProperties> in a world's <robot>: robot link material, mass and Young's modulus edited after loading
// survive save → load, round trips stay byte-identical, unedited robots write nothing, bad overrides are
// errors naming the world file and line.
#include <QtTest>

#include "io/ModelIO.h"
#include "RobotTestFiles.h"
#include "../support/PlacedBody.h"

using namespace sg;
using sgtest::Tree;

namespace {

// Two copies of the planar arm; link2's body file is soft (1500 Pa) so the test can make it rigid.
std::string writeTree(const Tree& tree) {
  sgtest::writePlanarRobot(tree);
  tree.write("models/robots/Planar/iv/link2.xml",
             "<?xml version=\"1.0\" ?>\n<root>\n  <material>rubber</material>\n  <youngs>1500</youngs>\n"
             "  <mass>100</mass>\n  <geometryFile type=\"off\">box.off</geometryFile>\n</root>\n");
  return tree.write("worlds/w.xml",
                    "<?xml version=\"1.0\" ?>\n<world>\n"
                    "  <robot><filename>models/robots/Planar/Planar.xml</filename></robot>\n"
                    "  <robot><filename>models/robots/Planar/Planar.xml</filename>\n"
                    "    <transform><translation>0 300 0</translation></transform></robot>\n"
                    "</world>\n");
}

// A world whose first robot carries `overrides` inside <robot>; returns its path. The override starts on line 4.
std::string writeWorldWith(const Tree& tree, const std::string& overrides) {
  writeTree(tree);
  return tree.write("worlds/bad.xml",
                    "<?xml version=\"1.0\" ?>\n<world>\n  <robot><filename>models/robots/Planar/Planar.xml</filename>\n" +
                        overrides + "  </robot>\n</world>\n");
}

void verifySameProperties(const Robot& a, const Robot& b) {
  QCOMPARE(a.bodyRefs().size(), b.bodyRefs().size());
  for (const auto& ref : a.bodyRefs()) {
    QCOMPARE(b.body(ref).material, a.body(ref).material);
    QCOMPARE(b.body(ref).mass_g, a.body(ref).mass_g);
    QCOMPARE(b.body(ref).youngs_Pa, a.body(ref).youngs_Pa);
  }
}

}  // namespace

class TestLinkPropertiesXml : public QObject {
  Q_OBJECT

 private slots:
  void editsSurviveSaveAndLoad() {
    Tree tree;
    World w = loadWorld(writeTree(tree));
    Robot& arm = w.robots[0];
    QCOMPARE(arm.chains[0].links[1].body.youngs_Pa, std::optional<double>(1500));
    arm.palm.material = "rubber";
    arm.chains[0].links[0].body.mass_g = 12.25;
    arm.chains[0].links[0].body.youngs_Pa = 1.5e6;
    arm.chains[0].links[1].body.youngs_Pa.reset();  // soft in its file, made rigid
    const std::string out = tree.path("worlds/saved.xml");
    saveWorld(w, out);

    const World back = loadWorld(out);
    verifySameProperties(w.robots[0], back.robots[0]);
    verifySameProperties(w.robots[1], back.robots[1]);
    QCOMPARE(back.robots[0].palm.material, std::string("rubber"));
    QCOMPARE(back.robots[0].chains[0].links[0].body.mass_g, 12.25);
    QCOMPARE(back.robots[0].chains[0].links[0].body.youngs_Pa, std::optional<double>(1.5e6));
    QVERIFY(!back.robots[0].chains[0].links[1].body.youngs_Pa);
    // The second copy of the same robot file was not edited and keeps the file's values.
    QCOMPARE(back.robots[1].palm.material, std::string("metal"));
    QCOMPARE(back.robots[1].chains[0].links[1].body.youngs_Pa, std::optional<double>(1500));

    // Only what differs is written, in the GraspIt!-ignored <linkProperties> element.
    const std::string text = sgtest::readText(out);
    QVERIFY2(sgtest::contains(text, "    <linkProperties link=\"palm\">\n      <material>rubber</material>\n"
                                    "    </linkProperties>\n"),
             text.c_str());
    QVERIFY2(sgtest::contains(text, "    <linkProperties link=\"chain0/link0\">\n      <mass>12.25</mass>\n"
                                    "      <youngs>1500000</youngs>\n    </linkProperties>\n"),
             text.c_str());
    QVERIFY2(sgtest::contains(text, "    <linkProperties link=\"chain0/link1\">\n      <rigid/>\n    </linkProperties>\n"),
             text.c_str());
    QCOMPARE(static_cast<int>(QString::fromStdString(text).count("<linkProperties ")), 3);
    // The body files themselves are untouched.
    QVERIFY(!sgtest::contains(sgtest::readText(tree.path("models/robots/Planar/iv/palm.xml")), "rubber"));
  }

  void roundTripIsByteIdentical() {
    Tree tree;
    World w = loadWorld(writeTree(tree));
    w.robots[1].chains[0].links[1].body.material = "wood";
    w.robots[1].chains[0].links[1].body.mass_g = 0.1;  // not exactly representable: must still read back exactly
    w.robots[0].palm.youngs_Pa = 2.5e7;
    const std::string a = tree.path("worlds/a.xml"), b = tree.path("worlds/b.xml");
    saveWorld(w, a);
    const World back = loadWorld(a);
    saveWorld(back, b);
    QCOMPARE(sgtest::readText(b), sgtest::readText(a));
    verifySameProperties(w.robots[1], back.robots[1]);
    verifySameProperties(w.robots[0], back.robots[0]);
  }

  void uneditedRobotsWriteNoOverride() {
    Tree tree;
    World w = loadWorld(writeTree(tree));
    const std::string out = tree.path("worlds/plain.xml");
    saveWorld(w, out);
    QVERIFY(!sgtest::contains(sgtest::readText(out), "linkProperties"));
    // An edit set back to the file's value writes nothing either.
    w.robots[0].chains[0].links[0].body.mass_g = 50;
    w.robots[0].chains[0].links[0].body.mass_g = 100;
    w.robots[0].chains[0].links[1].body.youngs_Pa = 1500;
    saveWorld(w, out);
    QVERIFY(!sgtest::contains(sgtest::readText(out), "linkProperties"));
    // A robot loaded on its own (not from a world) is compared with its files the same way.
    World single;
    sgtest::addRobot(single, loadRobot(tree.path("models/robots/Planar/Planar.xml"), single.materials));
    saveWorld(single, out);
    QVERIFY(!sgtest::contains(sgtest::readText(out), "linkProperties"));
    single.robots[0].chains[0].links[0].body.material = "glass";
    saveWorld(single, out);
    const std::string text = sgtest::readText(out);
    QVERIFY2(sgtest::contains(text, "<linkProperties link=\"chain0/link0\">"), text.c_str());
    QCOMPARE(loadWorld(out).robots[0].chains[0].links[0].body.material, std::string("glass"));
  }

  void badOverridesNameFileAndLine() {
    const struct {
      const char* overrides;
      const char* what;
    } cases[] = {
        {"    <linkProperties link=\"chain3/link0\"><mass>5</mass></linkProperties>\n", "names no body of robot Planar"},
        {"    <linkProperties link=\"chain0/link2\"><mass>5</mass></linkProperties>\n", "names no body"},
        {"    <linkProperties link=\"link1\"><mass>5</mass></linkProperties>\n", "names no body"},
        {"    <linkProperties link=\"chain0/link1x\"><mass>5</mass></linkProperties>\n", "names no body"},
        {"    <linkProperties><mass>5</mass></linkProperties>\n", "needs a link attribute"},
        {"    <linkProperties link=\"palm\"><material>cheese</material></linkProperties>\n", "unknown material 'cheese'"},
        {"    <linkProperties link=\"palm\"><mass>-3</mass></linkProperties>\n", "<mass> must be > 0 g"},
        {"    <linkProperties link=\"palm\"><mass>abc</mass></linkProperties>\n", "<mass> is not a finite number"},
        {"    <linkProperties link=\"palm\"><youngs>0</youngs></linkProperties>\n", "<youngs> must be > 0 Pa"},
        {"    <linkProperties link=\"palm\"><youngs>inf</youngs></linkProperties>\n", "not a finite number"},
        {"    <linkProperties link=\"palm\"><Mass>5</Mass></linkProperties>\n", "unknown element <Mass>"},
        {"    <linkProperties link=\"palm\"></linkProperties>\n", "sets nothing"},
        {"    <linkProperties link=\"palm\"><mass>5</mass><mass>6</mass></linkProperties>\n", "given twice"},
        {"    <linkProperties link=\"palm\"><youngs>5</youngs><rigid/></linkProperties>\n", "both <youngs> and <rigid/>"},
        {"    <linkProperties link=\"palm\"><mass>5</mass></linkProperties>\n"
         "    <linkProperties link=\"palm\"><mass>6</mass></linkProperties>\n",
         "is given twice"},
    };
    for (const auto& c : cases) {
      Tree tree;
      const std::string world = writeWorldWith(tree, c.overrides);
      const std::string text = sgtest::readText(world);
      // The line of the element at fault: the last <linkProperties> for a repeated link, else the first.
      const bool repeated = std::string(c.what) == "is given twice";
      const int line = repeated ? sgtest::lineOf(text, "<mass>6") : 4;
      SG_VERIFY_ERROR_AT(loadWorld(world), world, line, c.what);
    }
  }

  void overridesAreReadBeforeDofValuesAndTransform() {
    // Element order inside <robot> does not matter (GraspIt! looks children up by name).
    Tree tree;
    const std::string world = writeWorldWith(
        tree, "    <linkProperties link=\"chain0/link1\"><material>glass</material><rigid/></linkProperties>\n"
              "    <dofValues>0.1 0.2</dofValues>\n    <transform><translation>1 2 3</translation></transform>\n");
    const World w = loadWorld(world);
    QCOMPARE(w.robots[0].chains[0].links[1].body.material, std::string("glass"));
    QVERIFY(!w.robots[0].chains[0].links[1].body.youngs_Pa);
    QCOMPARE(w.robots[0].chains[0].links[1].body.mass_g, 100.0);  // not overridden: the file's value
    QCOMPARE(w.state.robots[0].dofValues[1], 0.2);
    QVERIFY(w.state.robots[0].X_WP.translation().isApprox(Vec3(1, 2, 3)));
  }
};

QTEST_GUILESS_MAIN(TestLinkPropertiesXml)
#include "tst_link_properties_xml.moc"
