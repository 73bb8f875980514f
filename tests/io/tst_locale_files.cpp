// Every file kind the project writes or reads, written and read under de_DE.UTF-8 (decimal comma,
// '.' groups thousands) and compared byte for byte with what the C locale writes; values that need every digit
// (17.401967777578459, 1e-300, -0, the smallest subnormal) read back bit for bit. The process locale is set as
// QApplication sets it (setlocale(LC_ALL, "")) and as a C++ program may (std::locale::global), so printf,
// strtod and iostream formatting would all write or expect "17,4" here.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <locale>
#include <sstream>

#include "AnalysisSettingsIni.h"
#include "batch/JobList.h"
#include "batch/Merge.h"
#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "core/Parse.h"
#include "grasp/Analysis.h"
#include "grasp/ModelComparison.h"
#include "grasp/SensitivitySweep.h"
#include "grasp/planner/GraspList.h"
#include "core/Json.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

constexpr const char* kGerman = "de_DE.UTF-8";
const QString kSource = sg::test::qSourceDir();

// Values whose text needs every digit, a sign or an exponent: a decimal comma, a lost digit or a lost sign shows.
const std::vector<double> kValues = {17.401967777578459, 1e-300, -0.0, 0.1, 5e-324, 1.7976931348623157e308,
                                     -2.5e-7, 1234567.25};

// The process locale, C's and C++'s global one (restored to C by the guard).
void useLocale(const char* name) {
  std::setlocale(LC_ALL, name);
  std::locale::global(std::locale(name));
}
struct InLocale {
  explicit InLocale(const char* name) { useLocale(name); }
  ~InLocale() { useLocale("C"); }
  InLocale(const InLocale&) = delete;
  InLocale& operator=(const InLocale&) = delete;
};

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

QByteArray fileBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<cannot read " + path.toUtf8() + ">");
}

bool writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// Every line of a CSV text has as many fields as the header (a decimal comma would add fields).
bool rectangular(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  long fields = -1;
  while (std::getline(in, line)) {
    long n = 1;
    bool quoted = false;
    for (const char c : line) {
      if (c == '"') quoted = !quoted;
      n += c == ',' && !quoted;
    }
    if (fields >= 0 && n != fields) return false;
    fields = n;
  }
  return fields > 1;
}

// A grasp list with the awkward values in every kind of field (energy, variables, poses, DOFs, measures, contacts).
planner::GraspList awkwardList() {
  planner::GraspList list;
  list.world = "w.xml";
  list.robot = "hand";
  list.object = "box";
  list.planner = "simann";
  list.energy = "contacts";
  list.space = "axis-angle";
  list.params = "default";
  list.seed = "7";
  list.stopReason = "steps";
  list.maxSteps = 70000;
  list.variableNames = {"x", "y"};
  for (std::size_t i = 0; i < 3; ++i) {
    planner::PlannedGrasp g;
    g.energy = kValues[i];
    g.variables = {kValues[(i + 1) % kValues.size()], kValues[(i + 3) % kValues.size()]};
    const Quat q = Eigen::AngleAxisd(0.3 + static_cast<double>(i), Vec3(1, 2, 3).normalized()) * Quat::Identity();
    g.preGrasp.X_WP = Transform(q, Vec3(kValues[3], kValues[6], kValues[0]));
    g.preGrasp.dofValues = {0.785398, kValues[1]};
    g.grasp.X_WP = Transform(q.conjugate(), Vec3(kValues[7], -kValues[0], kValues[4]));
    g.grasp.dofValues = {kValues[2], 1.0 / 3.0};
    g.measures.push_back({"epsilon-l1", 0.0564038 * static_cast<double>(i + 1), true, "", std::nullopt});
    g.measures.push_back({"volume-l1", kValues[6], i != 1, "", std::nullopt});
    g.forceClosure = i == 0;
    planner::GraspContactRecord c;
    c.handBody = "hand/palm";
    c.otherBody = "box";
    c.position_mm = Vec3(kValues[0], kValues[3], -kValues[6]);
    c.normal = Vec3(1, 2, 2) / 3.0;
    g.contacts.push_back(c);
    list.grasps.push_back(g);
  }
  return list;
}

bool sameTransform(const Transform& a, const Transform& b) {
  for (int k = 0; k < 3; ++k)
    if (!sameBits(a.translation()[k], b.translation()[k])) return false;
  return sameBits(a.rotation().w(), b.rotation().w()) && sameBits(a.rotation().x(), b.rotation().x()) &&
         sameBits(a.rotation().y(), b.rotation().y()) && sameBits(a.rotation().z(), b.rotation().z());
}

bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!sameBits(a[i], b[i])) return false;
  return true;
}

bool sameLists(const planner::GraspList& a, const planner::GraspList& b) {
  if (a.grasps.size() != b.grasps.size() || a.variableNames != b.variableNames || a.maxSteps != b.maxSteps) return false;
  for (std::size_t i = 0; i < a.grasps.size(); ++i) {
    const auto& g = a.grasps[i];
    const auto& h = b.grasps[i];
    if (!sameBits(g.energy, h.energy) || !sameValues(g.variables, h.variables) ||
        !sameTransform(g.preGrasp.X_WP, h.preGrasp.X_WP) || !sameTransform(g.grasp.X_WP, h.grasp.X_WP) ||
        !sameValues(g.preGrasp.dofValues, h.preGrasp.dofValues) || !sameValues(g.grasp.dofValues, h.grasp.dofValues) ||
        g.contacts.size() != h.contacts.size() || g.forceClosure != h.forceClosure)
      return false;
    for (const auto& m : g.measures) {
      const MeasureValue* n = h.measure(m.measure);
      if (m.ok != (n && n->ok) || (m.ok && !sameBits(m.value, n->value))) return false;
    }
    for (std::size_t k = 0; k < g.contacts.size(); ++k)
      for (int j = 0; j < 3; ++j)
        if (!sameBits(g.contacts[k].position_mm[j], h.contacts[k].position_mm[j]) ||
            !sameBits(g.contacts[k].normal[j], h.contacts[k].normal[j]))
          return false;
  }
  return true;
}

// The bundled default world after approach and auto-grasp (soft fingertips on the mug): real contacts.
struct Grasped {
  World world;
  std::vector<Contact> contacts;
  int graspable = -1;
};
Grasped graspDefaultWorld() {
  Grasped out;
  out.world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  AnalysisRequest request;
  request.motion.approach = true;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels.clear();
  request.measures.clear();
  NullProgress progress;
  const AnalysisResult r = runAnalysis(out.world, request, progress);
  out.contacts = r.contacts;
  out.graspable = r.graspable;
  return out;
}

struct Cli {
  int exitCode = -1;
  QByteArray out, err;
};
// softgrasp-cli under the locale `locale` (LC_ALL and LANG, as a desktop session sets them).
Cli runCli(const char* locale, const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("LC_ALL", locale);
  env.insert("LANG", locale);
  p.setProcessEnvironment(env);
  p.start(sg::test::qCliPath(), args);
  Cli r;
  if (!p.waitForStarted() || !p.waitForFinished(240000) || p.exitStatus() != QProcess::NormalExit) return r;
  r.exitCode = p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

}  // namespace

class TstLocaleFiles : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void cleanup() { useLocale("C"); }
  void numbersIgnoreTheLocale();
  void jsonIgnoresTheLocale();
  void jsonRejectsWhatIsNotAJsonNumber();
  void graspList();
  void jobList();
  void shardsAndMergedDatasets();
  void comparisonAndSweepCsv();
  void worldsAndMeshes();
  void urdfRobotAndGraspItExport();
  void settingsFile();
  void settingsFileWithADecimalComma();
  void cliOutputAndFiles();
};

void TstLocaleFiles::initTestCase() {
  if (!std::setlocale(LC_ALL, kGerman))
    QSKIP("the de_DE.UTF-8 locale is not installed: scripts/install-deps.sh generates it (as root, locale-gen)");
  try {
    std::locale::global(std::locale(kGerman));
  } catch (const std::runtime_error&) {
    useLocale("C");
    QSKIP("the C++ library cannot make std::locale(\"de_DE.UTF-8\") although setlocale could");
  }
  // The locale really is a decimal-comma one for printf and for iostreams: the checks below would see a leak.
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", 1.5);
  std::ostringstream s;
  s << 1.5 << ' ' << 1234567;
  useLocale("C");
  QCOMPARE(QByteArray(buf), QByteArray("1,5"));
  QCOMPARE(QByteArray::fromStdString(s.str()), QByteArray("1,5 1.234.567"));
}

void TstLocaleFiles::numbersIgnoreTheLocale() {
  std::vector<std::string> c;
  for (double v : kValues) c.push_back(formatDouble(v));
  const InLocale german(kGerman);
  for (std::size_t i = 0; i < kValues.size(); ++i) {
    QCOMPARE(formatDouble(kValues[i]), c[i]);
    const auto back = parseDouble(formatDouble(kValues[i]));
    QVERIFY2(back && sameBits(*back, kValues[i]), c[i].c_str());
  }
  // Shortest forms (std::to_chars): no 17-digit noise, no comma, the sign of zero kept.
  QCOMPARE(formatDouble(0.1), std::string("0.1"));
  QCOMPARE(formatDouble(1e-300), std::string("1e-300"));
  QCOMPARE(formatDouble(-0.0), std::string("-0"));
  QCOMPARE(formatDouble(5e-324), std::string("5e-324"));
  QCOMPARE(formatSigned(-0.0), std::string("+0"));
  QCOMPARE(formatSigned(2.5), std::string("+2.5"));
  QVERIFY(formatDouble(17.401967777578459).size() <= 18);
  // The rounding forms print as printf does in the C locale, never "1,23e+06" or "1.234,5".
  QCOMPARE(formatGeneral(1234567.25, 3), std::string("1.23e+06"));
  QCOMPARE(formatGeneral(1234.5, 6), std::string("1234.5"));
  QCOMPARE(formatGeneral(0.000123456, 2), std::string("0.00012"));
  QCOMPARE(formatFixed(12.3456, 2), std::string("12.35"));
  QCOMPARE(formatFixed(-0.04, 1), std::string("-0.0"));
  QVERIFY(!parseDouble("1,5"));  // a German number is an error, not 1
}

void TstLocaleFiles::jsonIgnoresTheLocale() {
  Json doc = Json::object();
  Json& numbers = doc.set("numbers", Json::array());
  for (double v : kValues) numbers.push(v);
  doc.set("nan", std::nan(""));
  const std::string c = doc.dump(), cLine = doc.dumpLine();
  const InLocale german(kGerman);
  QCOMPARE(doc.dump(), c);
  QCOMPARE(doc.dumpLine(), cLine);
  const Json read = Json::parse(c);
  const auto& items = read.at("numbers", "doc").items("numbers");
  QCOMPARE(items.size(), kValues.size());
  for (std::size_t i = 0; i < kValues.size(); ++i) QVERIFY(sameBits(items[i].number("n"), kValues[i]));
  QVERIFY(read.at("nan", "doc").isNull());
}

void TstLocaleFiles::jsonRejectsWhatIsNotAJsonNumber() {
  const InLocale german(kGerman);
  for (const char* bad : {"[1.]", "[-inf]", "[-nan]", "[1e999]", "[0x10]", "[.5]", "[1e]", "[-]", "[1.5e+]"}) {
    try {
      Json::parse(bad);
      QFAIL(bad);
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("line 1") != std::string::npos, e.what());
    }
  }
  // A value too small for a double but in range of the grammar is an error too, not a silent 0.
  QVERIFY_THROWS_EXCEPTION(Error, Json::parse("[1e-999]"));
  QVERIFY(sameBits(Json::parse("[-0]").items("a")[0].number("n"), -0.0));
  QCOMPARE(Json::parse("[1E+2, 2e-1]").items("a")[1].number("n"), 0.2);
}

void TstLocaleFiles::graspList() {
  QTemporaryDir dir;
  const planner::GraspList list = awkwardList();
  const std::string c = dir.filePath("c.json").toStdString(), d = dir.filePath("d.json").toStdString();
  planner::saveGraspList(list, c);
  {
    const InLocale german(kGerman);
    planner::saveGraspList(list, d);
    QVERIFY(sameLists(planner::loadGraspList(d), list));
    QVERIFY(sameLists(planner::loadGraspList(c), list));  // a list the C locale wrote loads in a German GUI
  }
  QCOMPARE(fileBytes(dir.filePath("d.json")), fileBytes(dir.filePath("c.json")));
  QVERIFY(sameLists(planner::loadGraspList(d), list));
  QVERIFY(!fileBytes(dir.filePath("c.json")).contains("17,4"));
}

void TstLocaleFiles::jobList() {
  QTemporaryDir dir;
  const QByteArray text = "{ \"format\": \"softgrasp-batch-jobs\", \"version\": 1,\n"
                          "  \"defaults\": { \"steps\": 30150, \"contactModel\": \"point\", \"threshold_mm\": 0.15,\n"
                          "                \"force_N\": 2.5, \"torqueLength_mm\": 17.401967777578459 },\n"
                          "  \"jobs\": [ { \"hand\": \"" + kSource.toUtf8() +
                          "/models/robots/ParallelJaw/ParallelJaw.xml\", \"object\": \"" + kSource.toUtf8() +
                          "/models/objects/box.xml\",\n"
                          "    \"handPose\": { \"position_mm\": [0.1, -2.5e-7, 120.5], \"quaternion_wxyz\": [0, 1, 0, 0] },\n"
                          "    \"seeds\": [1, 2] } ] }\n";
  const QString path = dir.filePath("jobs.json");
  QVERIFY(writeText(path, text));
  const batch::JobList c = batch::loadJobList(path.toStdString());
  const InLocale german(kGerman);
  const batch::JobList d = batch::loadJobList(path.toStdString());
  QCOMPARE(d.digest, c.digest);
  QCOMPARE(d.rows.size(), std::size_t(2));
  QCOMPARE(d.rows[0].settings.threshold_mm, 0.15);
  QCOMPARE(d.rows[0].settings.force_N, 2.5);
  QCOMPARE(d.rows[0].settings.torqueLength_mm, 17.401967777578459);
  QVERIFY(d.rows[0].handPose && sameTransform(*d.rows[0].handPose, *c.rows[0].handPose));
  QCOMPARE(d.rows[0].handPose->translation().y(), -2.5e-7);
  for (std::size_t i = 0; i < c.rows.size(); ++i) QCOMPARE(d.rows[i].describe().dumpLine(), c.rows[i].describe().dumpLine());
}

void TstLocaleFiles::shardsAndMergedDatasets() {
  QTemporaryDir dir;
  QVERIFY(writeText(dir.filePath("jobs.json"), "{ \"format\": \"softgrasp-batch-jobs\", \"version\": 1, \"jobs\": [ { "
                                               "\"world\": \"" + kSource.toUtf8() + "/worlds/paralleljaw_box.xml\", "
                                               "\"seed\": 1 } ] }\n"));
  const batch::JobList jobs = batch::loadJobList(dir.filePath("jobs.json").toStdString());
  batch::ShardHeader header;
  header.rows = 1;
  header.jobList = jobs.digest;
  Json record = Json::object();
  record.set("row", 0);
  record.set("job", jobs.rows[0].describe());
  record.set("elapsed_s", 0.125);
  record.set("iterations", 30150.0);
  record.set("list", planner::graspListToJsonValue(awkwardList()));
  auto writeAndMerge = [&](const QString& sub) {
    const std::string shards = dir.filePath(sub).toStdString();
    {
      batch::ShardWriter writer(shards, header);
      writer.append(record);
    }
    const batch::ShardContent content = batch::readShard(shards + "/" + batch::shardFileName(0, 1));
    QVERIFY(content.header && *content.header == header);
    QCOMPARE(content.rows.size(), std::size_t(1));
    QVERIFY(content.problems.empty());
    QCOMPARE(batch::mergeShards(shards, shards + ".csv", "epsilon-l1").grasps, 3L);
    QCOMPARE(batch::mergeShards(shards, shards + ".json").grasps, 3L);
  };
  writeAndMerge("c");
  {
    const InLocale german(kGerman);
    writeAndMerge("d");
  }
  const QString shardFile = QString::fromStdString(batch::shardFileName(0, 1));
  QCOMPARE(fileBytes(dir.filePath("d/" + shardFile)), fileBytes(dir.filePath("c/" + shardFile)));
  QCOMPARE(fileBytes(dir.filePath("d.csv")), fileBytes(dir.filePath("c.csv")));
  QCOMPARE(fileBytes(dir.filePath("d.json")), fileBytes(dir.filePath("c.json")));
  QVERIFY(rectangular(fileBytes(dir.filePath("d.csv")).toStdString()));
  // The dataset's grasps read back exactly (the JSON dataset holds the records' lists).
  const Json dataset = Json::parse(fileBytes(dir.filePath("d.json")).toStdString());
  QVERIFY(fileBytes(dir.filePath("d.json")).contains(QByteArray::fromStdString(formatDouble(kValues[0]))));
  QVERIFY(dataset.type() == Json::Type::Object);
}

void TstLocaleFiles::comparisonAndSweepCsv() {
  const Grasped g = graspDefaultWorld();
  QVERIFY(!g.contacts.empty() && g.graspable >= 0);
  ComparisonRequest compare;
  compare.models = {"soft-finger", "hertz", "point"};
  SweepRequest sweep;
  sweep.parameter = SweepParameter::NormalForce;
  sweep.values = sweepValues(SweepParameter::NormalForce, 0.1, 17.401967777578459, 3);
  sweep.models = {"soft-finger", "hertz"};
  auto tables = [&] {
    NullProgress progress;
    const ModelComparison m = compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, compare, progress);
    const SweepTable t = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, sweep, progress);
    return std::pair{comparisonCsv(m), t.csv()};
  };
  const auto c = tables();
  QVERIFY(rectangular(c.first) && rectangular(c.second));
  const InLocale german(kGerman);
  const auto d = tables();  // computed and written under de_DE
  QCOMPARE(d.first, c.first);
  QCOMPARE(d.second, c.second);
  // The sweep's first column reads back as the values asked for.
  std::istringstream lines(d.second);
  std::string line;
  std::getline(lines, line);  // header
  std::getline(lines, line);
  const auto first = parseDouble(line.substr(0, line.find(',')));
  QVERIFY2(first && sameBits(*first, sweep.values[0]), line.c_str());
}

void TstLocaleFiles::worldsAndMeshes() {
  QTemporaryDir dir;
  QVERIFY(QDir(dir.path()).mkpath("c") && QDir(dir.path()).mkpath("d"));
  World c = loadWorld(sg::test::inSourceTree("worlds/default.xml"));  // the mug is an Inventor file (Coin reads it)
  World d = [] {
    const InLocale german(kGerman);
    return loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  }();
  const auto handles = c.bodyHandles();
  QCOMPARE(d.bodyHandles().size(), handles.size());
  for (const BodyHandle& h : handles) {
    const TriangleMesh& a = *c.body(h).mesh;
    const TriangleMesh& b = *d.body(h).mesh;
    QCOMPARE(b.vertices.size(), a.vertices.size());
    for (std::size_t i = 0; i < a.vertices.size(); ++i)
      for (int k = 0; k < 3; ++k) QVERIFY(sameBits(a.vertices[i][k], b.vertices[i][k]));
  }
  QVERIFY(sameTransform(d.state.robots[0].X_WP, c.state.robots[0].X_WP));
  const Transform moved(Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized())), Vec3(kValues[0], kValues[3], kValues[6]));
  c.state.X_WG[0] = moved;
  const TriangleMesh& mug = *c.body(handles[c.obstacles.size()]).mesh;
  auto save = [&](const QString& sub) {
    const std::string base = dir.filePath(sub).toStdString();
    saveWorld(c, base + "/world.xml");
    writeOffMesh(mug, base + "/mug.off");
    writeAsciiStlMesh(mug, base + "/mug.stl");
    writePlyMesh(mug, base + "/mug.ply", false);
  };
  save("c");
  {
    const InLocale german(kGerman);
    save("d");
    const World back = loadWorld(dir.filePath("d/world.xml").toStdString());
    QVERIFY(sameTransform(back.state.X_WG[0], moved));
    for (const char* name : {"mug.off", "mug.stl", "mug.ply"}) {
      const TriangleMesh m = readMesh(dir.filePath(QString("d/") + name).toStdString());
      QCOMPARE(m.vertices.size(), mug.vertices.size());
      QVERIFY(m.vertices.front().isApprox(mug.vertices.front(), 1e-12));
    }
  }
  const QStringList files = QDir(dir.filePath("c")).entryList(QDir::Files, QDir::Name);
  QCOMPARE(QDir(dir.filePath("d")).entryList(QDir::Files, QDir::Name), files);
  QVERIFY(files.contains("world.xml"));
  for (const QString& f : files) QVERIFY2(fileBytes(dir.filePath("d/" + f)) == fileBytes(dir.filePath("c/" + f)), qPrintable(f));
}

// A URDF hand (urdfdom's parser, the sidecar) read under de_DE as under C, and written back as a GraspIt! robot
// directory (robot XML with DH joints, body XML and OFF per link) with the C locale's bytes.
void TstLocaleFiles::urdfRobotAndGraspItExport() {
  const std::string urdf = sg::test::inSourceTree("models/robots/ThreeFingerURDF/urdf/three_finger.urdf");
  QTemporaryDir dir;
  const Robot c = loadRobot(urdf, MaterialTable());
  const std::string cXml = exportGraspItRobot(c, dir.filePath("c").toStdString());
  const InLocale german(kGerman);
  const Robot d = loadRobot(urdf, MaterialTable());
  QCOMPARE(d.dofCount(), c.dofCount());
  for (std::size_t k = 0; k < c.dofs.size(); ++k) {
    QVERIFY(sameBits(d.dofs[k].minValue, c.dofs[k].minValue));
    QVERIFY(sameBits(d.dofs[k].maxValue, c.dofs[k].maxValue));
  }
  QCOMPARE(d.chains.size(), c.chains.size());
  for (std::size_t i = 0; i < c.chains.size(); ++i) QVERIFY(sameTransform(d.chains[i].base, c.chains[i].base));
  const std::string dXml = exportGraspItRobot(d, dir.filePath("d").toStdString());
  QDirIterator files(QString::fromStdString(cXml).section('/', 0, -2), QDir::Files, QDirIterator::Subdirectories);
  int compared = 0;
  while (files.hasNext()) {
    const QString cFile = files.next();
    const QString dFile = QString(cFile).replace(dir.filePath("c"), dir.filePath("d"));
    QVERIFY2(fileBytes(dFile) == fileBytes(cFile), qPrintable(cFile));
    ++compared;
  }
  QVERIFY(compared > 2);
  QVERIFY(QFile::exists(QString::fromStdString(dXml)));
}

void TstLocaleFiles::settingsFile() {
  QTemporaryDir dir;
  CollisionSettings collision;
  collision.contacts.threshold_mm = 0.15;
  QualitySettings quality;
  quality.soft.patch.normalForce_N = 17.401967777578459;
  quality.torqueLength_mm = 12345.678;
  auto write = [&](const QString& name) {
    QSettings q(dir.filePath(name), QSettings::IniFormat);
    settings_ini::write(q, collision, "hertz", quality);
    q.sync();
    return q.status() == QSettings::NoError;
  };
  QVERIFY(write("c.ini"));
  const InLocale german(kGerman);
  QVERIFY(write("d.ini"));
  QCOMPARE(fileBytes(dir.filePath("d.ini")), fileBytes(dir.filePath("c.ini")));
  QSettings q(dir.filePath("c.ini"), QSettings::IniFormat);
  CollisionSettings readCollision;
  QualitySettings readQuality;
  std::string model;
  settings_ini::read(q, readCollision, model, readQuality);
  QCOMPARE(model, std::string("hertz"));
  QVERIFY(sameBits(readCollision.contacts.threshold_mm, 0.15));
  QVERIFY(sameBits(readQuality.soft.patch.normalForce_N, 17.401967777578459));
  QVERIFY(sameBits(readQuality.torqueLength_mm, 12345.678));
}

// A settings file edited by hand on a German desktop ("0,2", which INI reads as the list {0, 2}): the key keeps its
// value and the reader names it; softgrasp-cli --settings refuses the file naming it and the key.
void TstLocaleFiles::settingsFileWithADecimalComma() {
  QTemporaryDir dir;
  const QString path = dir.filePath("hand-written.ini");
  QVERIFY(writeText(path, "[analysis]\nthreshold_mm=0,2\nnormalForce_N=2.5\n"));
  const InLocale german(kGerman);
  QSettings q(path, QSettings::IniFormat);
  CollisionSettings collision;
  const double before = collision.contacts.threshold_mm;
  QualitySettings quality;
  std::string model = "point";
  std::vector<std::string> problems;
  settings_ini::read(q, collision, model, quality, &problems);
  QCOMPARE(problems.size(), std::size_t(1));
  QVERIFY2(problems[0].find("threshold_mm") != std::string::npos && problems[0].find("'0,2'") != std::string::npos,
           problems[0].c_str());
  QCOMPARE(collision.contacts.threshold_mm, before);
  QCOMPARE(quality.soft.patch.normalForce_N, 2.5);
  const Cli r = runCli(kGerman, {"quality", kSource + "/worlds/paralleljaw_box.xml", "--settings", path});
  QCOMPARE(r.exitCode, 3);
  QVERIFY2(r.err.contains("hand-written.ini") && r.err.contains("threshold_mm") && r.err.contains("0,2"),
           r.err.constData());
}

// The CLI run under LC_ALL=de_DE.UTF-8 prints the bytes it prints under C, reads a settings file and a grasp list
// written in a German process, and its own grasp list reads back in one.
void TstLocaleFiles::cliOutputAndFiles() {
  QTemporaryDir dir;
  const QString world = kSource + "/worlds/default.xml", jaw = kSource + "/worlds/paralleljaw_box.xml";
  {
    QSettings q(dir.filePath("s.ini"), QSettings::IniFormat);
    CollisionSettings collision;
    QualitySettings quality;
    quality.soft.patch.normalForce_N = 7.25;
    const InLocale german(kGerman);
    settings_ini::write(q, collision, "soft-finger", quality);
  }
  const QList<QStringList> commands = {
      {"info", world},
      {"info", world, "--json"},
      {"quality", world, "--approach", "--autograsp", "--settings", dir.filePath("s.ini"), "--json"},
      {"quality", world, "--approach", "--autograsp"},
      {"compare", world, "--approach", "--autograsp", "--contact-model", "soft-finger,hertz", "--csv"},
      {"compare", world, "--approach", "--autograsp", "--contact-model", "soft-finger,hertz", "--sweep",
       "force:0.5:7.5:3",
       "--csv"},
  };
  for (const QStringList& args : commands) {
    const Cli c = runCli("C", args), d = runCli(kGerman, args);
    QVERIFY2(c.exitCode == 0, qPrintable(args.join(' ') + ": " + c.err));
    QCOMPARE(d.exitCode, 0);
    QVERIFY2(d.out == c.out, qPrintable(args.join(' ')));
  }
  // A list the CLI writes under de_DE loads here under de_DE; a list saved here (the GUI's writer) under de_DE
  // evaluates in the CLI under de_DE as under C.
  const QString planned = dir.filePath("planned.json"), saved = dir.filePath("saved.json");
  const Cli plan = runCli(kGerman, {"plan", jaw, "--energy", "autograsp-quality", "--steps", "30200", "--seed", "7",
                                    "--contact-model", "point", "--no-progress", "--out", planned});
  QVERIFY2(plan.exitCode == 0, plan.err.constData());
  const InLocale german(kGerman);
  planner::GraspList list = planner::loadGraspList(planned.toStdString());
  QVERIFY(!list.grasps.empty());
  list.grasps[0].energy = kValues[0];
  planner::saveGraspList(list, saved.toStdString());
  const QStringList evaluate = {"evaluate", jaw, "--grasps", saved, "--contact-model", "point", "--no-progress", "--json"};
  const Cli c = runCli("C", evaluate), d = runCli(kGerman, evaluate);
  QVERIFY2(d.exitCode == 0, d.err.constData());
  QCOMPARE(c.exitCode, 0);
  const QJsonObject dj = QJsonDocument::fromJson(d.out).object(), cj = QJsonDocument::fromJson(c.out).object();
  QVERIFY(!dj.value("grasps").toArray().isEmpty());
  QCOMPARE(dj.value("grasps"), cj.value("grasps"));
}

QTEST_GUILESS_MAIN(TstLocaleFiles)
#include "tst_locale_files.moc"
