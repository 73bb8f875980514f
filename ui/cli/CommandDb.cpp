// softgrasp-cli db init|import|query|export|info URL [FILE...] [filters] [--json | --csv] [--out FILE]
// The grasp database (src/store/README.md): create or upgrade it, import grasp lists and batch shards, query
// grasps by robot, object, contact model, measure threshold, force closure and run, export them, count them.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "CommandRegistry.h"
#include "DbSupport.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "TextPrinter.h"
#include "batch/Merge.h"
#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "batch/Provenance.h"
#include "core/Parse.h"
#include "core/Version.h"
#include "io/ContentHash.h"
#include "io/ModelIO.h"
#include "grasp/planner/GraspList.h"
#include "store/GraspStore.h"
#include "store/Import.h"
#include "store/Schema.h"

namespace sg::cli {

namespace {

namespace fs = std::filesystem;
using store::GraspQuery;
using store::GraspRow;

inline const JsonFormat kDbQueryFormat{"db-query", 1};
inline const JsonFormat kDbInfoFormat{"db-info", 1};
inline const JsonFormat kDbImportFormat{"db-import", 1};

// --- query filters (shared by query and export) ---

GraspQuery queryFrom(const ParsedArgs& args) {
  GraspQuery q;
  q.robot = args.value("--robot").value_or("");
  q.object = args.value("--object").value_or("");
  if (const auto m = args.value("--contact-model")) {
    if (m->find(',') != std::string::npos) throw UsageError("--contact-model: one model in a query, got '" + *m + "'");
    q.contactModel = *m;
  }
  q.measure = args.value("--measure").value_or("");
  const std::string rankBy = args.value("--rank-by").value_or("row");
  if (rankBy == "row") {
    q.order = GraspQuery::Order::Row;
  } else if (rankBy == "energy") {
    q.order = GraspQuery::Order::Energy;
  } else if (rankBy == "trial-score") {
    q.order = GraspQuery::Order::TrialScore;
  } else {
    if (!q.measure.empty() && q.measure != rankBy)
      throw UsageError("--rank-by " + rankBy + " and --measure " + q.measure + ": a query reads one measure");
    q.measure = rankBy;
    q.order = GraspQuery::Order::Measure;
  }
  if (const auto v = args.value("--min")) {
    const std::optional<double> x = parseDouble(*v);
    if (!x) throw UsageError("--min: expected a number, got '" + *v + "'");
    if (q.measure.empty()) throw UsageError("--min needs --measure (or --rank-by MEASURE)");
    q.minValue = *x;
  }
  if (const auto v = args.value("--min-trial-score")) {
    const std::optional<double> x = parseDouble(*v);
    if (!x) throw UsageError("--min-trial-score: expected a number, got '" + *v + "'");
    q.minTrialScore = *x;
  }
  if (args.has("--force-closure")) q.forceClosure = true;
  q.run = args.value("--run").value_or("");
  if (const auto l = args.value("--limit")) {
    const std::optional<double> n = parseDouble(*l);
    if (!n || *n < 0 || *n != std::floor(*n)) throw UsageError("--limit: expected an integer ≥ 0, got '" + *l + "'");
    q.limit = static_cast<std::int64_t>(*n);
  }
  return q;
}

Json optionalNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

Json poseJson(const Transform& X, const std::vector<double>& dofs) {
  Json o = Json::object();
  o.set("position_mm", jsonVec(X.translation()));
  o.set("quaternion_wxyz", jsonQuatWxyz(X.rotation()));
  o.set("dofs", jsonNumbers(dofs));
  return o;
}

Json graspJson(const GraspRow& r, bool withValue) {
  const store::GraspRecord& g = r.grasp;
  Json o = Json::object();
  o.set("id", static_cast<double>(r.id));
  o.set("run", r.run);
  o.set("row", static_cast<double>(r.row));
  o.set("job", static_cast<double>(r.job));
  o.set("seed", r.seed);
  o.set("robot", r.robot);
  o.set("robotSha256", r.robotHash);
  o.set("object", r.object);
  o.set("objectSha256", r.objectHash);
  o.set("world", r.world);
  o.set("contactModel", r.primaryModel);
  o.set("rank", g.rank);
  o.set("energy", optionalNumber(g.energy));
  o.set("forceClosure", g.forceClosure);
  if (withValue) o.set("value", optionalNumber(r.value));
  Json grasp = poseJson(g.X_OP, g.dofs);
  if (planner::anyBreakAway(g.breakAway)) grasp.set("breakAway", planner::breakAwayToJson(g.breakAway));
  o.set("grasp", grasp);
  Json preGrasp = poseJson(g.preGrasp_X_OP, g.preGraspDofs);
  if (planner::anyBreakAway(g.preGraspBreakAway))
    preGrasp.set("breakAway", planner::breakAwayToJson(g.preGraspBreakAway));
  o.set("preGrasp", preGrasp);
  Json measures = Json::array();
  for (const store::MeasureRecord& m : g.measures) {
    Json mj = Json::object();
    mj.set("contactModel", m.contactModel);
    mj.set("measure", m.measure);
    mj.set("value", optionalNumber(m.value));
    mj.set("lower", optionalNumber(m.lower));
    mj.set("upper", optionalNumber(m.upper));
    measures.push(mj);
  }
  o.set("measures", measures);
  Json contacts = Json::array();
  for (const store::ContactRecord& c : g.contacts) {
    Json cj = Json::object();
    cj.set("handBody", c.handBody);
    cj.set("otherBody", c.otherBody);
    cj.set("position_mm", jsonVec(c.p_OC_mm));
    cj.set("normal", jsonVec(c.n_O));
    contacts.push(cj);
  }
  o.set("contacts", contacts);
  return o;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
std::string csvNumber(const std::optional<double>& v) { return v && std::isfinite(*v) ? formatDouble(*v) : ""; }
std::string csvNumbers(const std::vector<double>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + formatDouble(v[i]);
  return s;
}
std::string csvPose(const Transform& X, const std::vector<double>& dofs) {
  const Vec3& t = X.translation();
  const Quat& q = X.rotation();
  std::string s;
  for (const double v : {t.x(), t.y(), t.z(), q.w(), q.x(), q.y(), q.z()}) s += formatDouble(v) + ",";
  return s + csvNumbers(dofs);
}

// Joints in break-away as the dataset CSV writes them (src/batch/BATCH.md §Merge and the dataset): the same
// formatter, so the shared columns grasp_break_away and pregrasp_break_away read the same in both files.
std::string csvBreakAway(const BreakAwayState& breakAway) {
  if (!planner::anyBreakAway(breakAway)) return "";
  const Json joints = planner::breakAwayToJson(breakAway);
  return batch::breakAwayCsvField(&joints);
}

constexpr const char* kCsvHeader =
    "id,run,row,job,seed,robot,object,contactModel,rank,energy,forceClosure,value,"
    "grasp_x_mm,grasp_y_mm,grasp_z_mm,grasp_qw,grasp_qx,grasp_qy,grasp_qz,grasp_dofs,"
    "pregrasp_x_mm,pregrasp_y_mm,pregrasp_z_mm,pregrasp_qw,pregrasp_qx,pregrasp_qy,pregrasp_qz,pregrasp_dofs,"
    "grasp_break_away,pregrasp_break_away\n";

std::string csvLine(const GraspRow& r) {
  const store::GraspRecord& g = r.grasp;
  return std::to_string(r.id) + "," + csvField(r.run) + "," + std::to_string(r.row) + "," + std::to_string(r.job) +
         "," + r.seed + "," + csvField(r.robot) + "," + csvField(r.object) + "," + csvField(r.primaryModel) + "," +
         std::to_string(g.rank) + "," + csvNumber(g.energy) + "," + (g.forceClosure ? "1" : "0") + "," +
         csvNumber(r.value) + "," + csvPose(g.X_OP, g.dofs) + "," + csvPose(g.preGrasp_X_OP, g.preGraspDofs) + "," +
         csvBreakAway(g.breakAway) + "," + csvBreakAway(g.preGraspBreakAway) + "\n";
}

Json filtersJson(const GraspQuery& q) {
  Json f = Json::object();
  f.set("robot", q.robot);
  f.set("object", q.object);
  f.set("contactModel", q.contactModel);
  f.set("measure", q.measure);
  f.set("min", optionalNumber(q.minValue));
  f.set("forceClosure", q.forceClosure ? Json(*q.forceClosure) : Json());
  f.set("run", q.run);
  f.set("minTrialScore", optionalNumber(q.minTrialScore));
  f.set("rankBy", q.order == GraspQuery::Order::Row          ? std::string("row")
                  : q.order == GraspQuery::Order::Energy     ? std::string("energy")
                  : q.order == GraspQuery::Order::TrialScore ? std::string("trial-score")
                                                             : q.measure);
  f.set("limit", static_cast<double>(q.limit));
  return f;
}

enum class Output { Text, Json, Csv };

// Streams the query's grasps to `out`: JSON (a softgrasp.db-query document, one grasp per line), CSV or text.
std::int64_t writeQuery(std::ostream& out, store::GraspStore& db, const GraspQuery& q, Output format) {
  std::int64_t n = 0;
  if (format == Output::Json) {
    out << "{\n  \"format\": " << Json(kDbQueryFormat.name()).dumpLine() << ",\n  \"version\": "
        << kDbQueryFormat.version << ",\n  \"database\": " << Json(db.url()).dumpLine()
        << ",\n  \"filters\": " << filtersJson(q).dumpLine() << ",\n  \"grasps\": [";
    db.query(q, [&](const GraspRow& r) { out << (n++ ? ",\n    " : "\n    ") << graspJson(r, !q.measure.empty()).dumpLine(); });
    out << (n ? "\n  ]" : "]") << ",\n  \"count\": " << n << "\n}\n";
  } else if (format == Output::Csv) {
    out << kCsvHeader;
    db.query(q, [&](const GraspRow& r) {
      out << csvLine(r);
      ++n;
    });
  } else {
    db.query(q, [&](const GraspRow& r) {
      const store::GraspRecord& g = r.grasp;
      out << "grasp " << r.id << ": " << r.robot << " on " << r.object << ", run " << r.run << " row " << r.row
          << " rank " << g.rank << ", energy " << csvNumber(g.energy) << (g.forceClosure ? ", force closure" : "")
          << (q.measure.empty() ? "" : ", " + q.measure + " " + (r.value ? formatDouble(*r.value) : "-"));
      if (const std::string b = csvBreakAway(g.breakAway); !b.empty()) out << ", break-away " << b;
      if (const std::string b = csvBreakAway(g.preGraspBreakAway); !b.empty()) out << ", pre-grasp break-away " << b;
      out << "\n";
      ++n;
    });
    out << n << " grasp(s)\n";
  }
  return n;
}

Output outputOf(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv contradict each other");
  return args.has("--json") ? Output::Json : args.has("--csv") ? Output::Csv : Output::Text;
}

// --- actions ---

int dbInit(const std::string& url) {
  auto db = store::GraspStore::open(url, store::OpenMode::ReadWrite);
  std::cout << "db " << db->url() << ": schema version " << store::kSchemaVersion << "\n";
  return kExitOk;
}

// A grasp list file: its world (as the list names it, from the working directory or the list's folder) gives
// the object's pose and the files' hashes. Importing the same file again inserts nothing (run key = its hash).
store::ImportSummary importGraspList(store::GraspStore& db, const std::string& path, const std::string& model,
                                     bool withContacts) {
  const planner::GraspList list = planner::loadGraspList(path);
  std::string worldPath = list.world;
  std::error_code ec;
  if (worldPath.empty()) throw Error("the grasp list names no world, so its object's pose is unknown", path);
  if (!fs::exists(worldPath, ec)) worldPath = (fs::path(path).parent_path() / list.world).string();
  World world;
  try {
    world = loadWorld(worldPath);
  } catch (const Error& e) {
    throw Error("its world " + list.world + " cannot be loaded: " + e.message(), path);
  }
  batch::ProvenanceCache cache;
  const Json provenance = cache.provenance(world, list.robotIndex, list.graspableIndex);
  Json header = planner::graspListToJsonValue(list);
  header.set("grasps", Json::array());
  header.set("contactModel", model);
  store::RunRecord run;
  run.key = "import:" + sha256File(path).sha256;
  run.kind = "import";
  run.softgraspVersion = versionString();
  run.command = commandLine();
  run.settings = header.dumpLine();
  run.seed = list.seed;
  run.host = store::hostName();
  run.startedAt = run.endedAt = store::utcNow();
  run.stopReason = list.stopReason;
  run.rowsTotal = 1;
  run.withContacts = withContacts;
  const std::int64_t id = db.beginRun(run);
  store::ImportSummary s;
  s.files = 1;
  store::RowRecord row = store::rowFromGraspList(list, provenance, model, 0, 0, header.dumpLine());
  // A list of plan --validate carries its grasps' trials (src/store/README.md §Trials).
  std::size_t trials = 0;
  try {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    trials = store::attachListTrials(row, Json::parse(text));
  } catch (const Error& e) {
    throw Error(e.message(), path);
  }
  if (db.insertRow(id, row)) {
    s.inserted = 1;
    s.grasps = static_cast<std::int64_t>(row.grasps.size());
    s.trials = static_cast<std::int64_t>(trials);
  } else {
    s.skipped = 1;
  }
  return s;
}

int dbImport(const ParsedArgs& args, const std::string& url) {
  std::vector<std::string> files(args.positionals().begin() + 2, args.positionals().end());
  if (files.empty()) throw UsageError("db import: name the grasp lists, shard files or shard folders to import");
  const std::string model = args.value("--contact-model").value_or("soft-finger");
  const bool withContacts = !args.has("--db-no-contacts");
  auto db = store::GraspStore::open(url, store::OpenMode::ReadWrite);
  store::ImportSummary total;
  for (const std::string& f : files) {
    std::error_code ec;
    store::ImportSummary s;
    if (fs::is_directory(f, ec)) s = store::importShardFolder(*db, f, commandLine(), withContacts);
    else if (batch::parseShardFileName(fs::path(f).filename().string()))
      s = store::importShardFile(*db, f, commandLine(), withContacts);
    else s = importGraspList(*db, f, model, withContacts);
    total.files += s.files;
    total.inserted += s.inserted;
    total.skipped += s.skipped;
    total.grasps += s.grasps;
    total.trials += s.trials;
    total.problems.insert(total.problems.end(), s.problems.begin(), s.problems.end());
  }
  for (const std::string& p : total.problems) std::cerr << "softgrasp-cli: warning: " << p << "\n";
  if (args.has("--json")) {
    Json o = Json::object();
    o.set("database", db->url());
    o.set("files", total.files);
    o.set("inserted", static_cast<double>(total.inserted));
    o.set("skipped", static_cast<double>(total.skipped));
    o.set("grasps", static_cast<double>(total.grasps));
    o.set("trials", static_cast<double>(total.trials));
    o.set("problems", jsonStrings(total.problems));
    writeJson(std::cout, kDbImportFormat, o);
  } else {
    TextPrinter text(std::cout);
    text.line("db import " + db->url());
    TextPrinter::Indent indent(text);
    text.field("files", std::to_string(total.files));
    text.field("rows", std::to_string(total.inserted) + " written, " + std::to_string(total.skipped) +
                           " already there");
    text.field("grasps", std::to_string(total.grasps));
    if (total.trials) text.field("trials", std::to_string(total.trials));
  }
  return total.problems.empty() ? kExitOk : kExitBadInput;
}

int dbQuery(const ParsedArgs& args, const std::string& url) {
  const GraspQuery q = queryFrom(args);
  auto db = store::GraspStore::open(url, store::OpenMode::ReadOnly);
  writeQuery(std::cout, *db, q, outputOf(args));
  return kExitOk;
}

int dbExport(const ParsedArgs& args, const std::string& url) {
  const auto out = args.value("--out");
  if (!out) throw UsageError("db export: --out FILE (.json or .csv) is required");
  const std::string ext = fs::path(*out).extension().string();
  if (ext != ".json" && ext != ".csv") throw UsageError("--out: expected a .json or .csv file, got '" + *out + "'");
  const GraspQuery q = queryFrom(args);
  auto db = store::GraspStore::open(url, store::OpenMode::ReadOnly);
  // Streamed into a temporary file beside the target, then renamed: an export of millions of grasps never
  // sits in memory, and a failed one leaves no half file.
  const std::string tmp = *out + ".part";
  std::int64_t n = 0;
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) throw Error("cannot be written", tmp);
    n = writeQuery(file, *db, q, ext == ".json" ? Output::Json : Output::Csv);
    file.flush();
    if (!file) throw Error("write error (disk full?)", tmp);
  }
  std::error_code ec;
  fs::rename(tmp, *out, ec);
  if (ec) throw Error("cannot be renamed to " + *out + ": " + ec.message(), tmp);
  std::cout << "db export " << db->url() << ": " << n << " grasp(s) -> " << *out << "\n";
  return kExitOk;
}

int dbInfo(const ParsedArgs& args, const std::string& url) {
  auto db = store::GraspStore::open(url, store::OpenMode::ReadOnly);
  const store::StoreInfo i = db->info();
  if (args.has("--json")) {
    Json o = Json::object();
    o.set("database", i.url);
    o.set("backend", i.backend);
    o.set("schemaVersion", i.schemaVersion);
    o.set("sizeBytes", static_cast<double>(i.sizeBytes));
    const std::pair<const char*, std::int64_t> counts[] = {
        {"robots", i.robots}, {"objects", i.objects}, {"worlds", i.worlds}, {"runs", i.runs},
        {"rows", i.rows}, {"failedRows", i.failedRows}, {"grasps", i.grasps}, {"measures", i.measures},
        {"contacts", i.contacts}, {"trials", i.trials}};
    Json c = Json::object();
    for (const auto& [k, v] : counts) c.set(k, static_cast<double>(v));
    o.set("counts", c);
    writeJson(std::cout, kDbInfoFormat, o);
    return kExitOk;
  }
  TextPrinter text(std::cout);
  text.line("db " + i.url);
  TextPrinter::Indent indent(text);
  text.field("backend", i.backend + ", schema version " + std::to_string(i.schemaVersion) + ", " +
                            std::to_string(i.sizeBytes) + " bytes");
  text.field("robots", std::to_string(i.robots) + ", objects " + std::to_string(i.objects) + ", worlds " +
                           std::to_string(i.worlds));
  text.field("runs", std::to_string(i.runs) + ", rows " + std::to_string(i.rows) + " (" +
                         std::to_string(i.failedRows) + " failed)");
  text.field("grasps", std::to_string(i.grasps) + ", measures " + std::to_string(i.measures) + ", contacts " +
                           std::to_string(i.contacts) + ", trials " + std::to_string(i.trials));
  return kExitOk;
}

int runDb(const ParsedArgs& args) {
  const std::string& action = args.positional(0);
  const std::string& url = args.positional(1);
  const bool takesFiles = action == "import";
  if (!takesFiles && args.positionals().size() > 2)
    throw UsageError("db " + action + ": unexpected argument '" + args.positionals()[2] + "'");
  if (action == "init") return dbInit(url);
  if (action == "import") return dbImport(args, url);
  if (action == "query") return dbQuery(args, url);
  if (action == "export") return dbExport(args, url);
  if (action == "info") return dbInfo(args, url);
  throw UsageError("unknown db action '" + action + "' (init, import, query, export or info)");
}

CommandSyntax dbSyntax() {
  CommandSyntax s{{{"ACTION", "init (create or upgrade), import, query, export or info"},
                   {"URL", "the database: a SQLite file, sqlite:///path or postgresql://... (src/store/README.md)"}},
                  {{"--robot", "NAME", "query/export: grasps of this robot"},
                   {"--object", "NAME", "query/export: grasps of this object (its label, as in the grasp list)"},
                   {"--contact-model", "M", "query/export: read the measure under this model (default: each "
                                            "grasp's primary model); import: the grasp lists' model "
                                            "(default soft-finger)"},
                   {"--measure", "Q", "query/export: report (and with --min filter by) this measure"},
                   {"--min", "X", "query/export: only grasps whose measure is ≥ X"},
                   {"--force-closure", "", "query/export: only force-closure grasps"},
                   {"--run", "KEY", "query/export: grasps of this run (e.g. batch:<job-list digest>)"},
                   {"--min-trial-score", "X", "query/export: only grasps with a stored physics trial (validate --db) "
                                              "scoring ≥ X"},
                   {"--rank-by", "KEY", "query/export order: row (default: run, row, rank), energy (lowest first), "
                                        "trial-score (best stored trial first) or a measure (highest first)"},
                   {"--limit", "N", "query/export: at most N grasps (default 0: all)"},
                   {"--out", "FILE", "export: the file (.json or .csv), written whole or not at all"},
                   {"--db-no-contacts", "", "import: store the grasps without their contacts (a run keeps the "
                                            "choice it was created with)"},
                   common_options::json(),
                   common_options::csv("query: the grasps as CSV on stdout")}};
  s.rest = {"FILE", "import: grasp lists (plan --out), shard files or batch --out folders"};
  return s;
}

const RegisterCommand registerDb{Command{
    "db",
    "the grasp database: init, import grasp lists and batch shards, query, export, info",
    "init creates the database (SQLite: the file) or upgrades its schema; a database of a newer SoftGrasp is\n"
    "refused. import FILE... stores grasp lists, shard files and batch folders (a row already stored is\n"
    "skipped, so importing twice inserts nothing twice). query prints the grasps that match the filters\n"
    "(--json: softgrasp.db-query, --csv), e.g. the force-closure grasps of a hand on an object with ε L1 > 0.1\n"
    "under Hertz: db query grasps.db --robot ThreeFinger --object mug --contact-model hertz --measure\n"
    "epsilon-l1 --min 0.1 --force-closure --rank-by epsilon-l1. export writes the same to --out, streamed.\n"
    "info counts robots, objects, runs, rows and grasps. plan, evaluate, batch and batch-merge write into a\n"
    "database with --db URL.",
    dbSyntax(), runDb}};

}  // namespace

}  // namespace sg::cli
