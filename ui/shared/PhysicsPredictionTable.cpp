#include "PhysicsPredictionTable.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/Json.h"
#include "core/JsonFormat.h"
#include "core/Parse.h"
#include "sim/PhysicsComparison.h"

namespace sg::shared {

namespace {

long count(const Json& j, const std::string& what) {
  const double v = j.number(what);
  if (!(v >= 0) || v != std::floor(v) || v > 1e15) throw Error(what + ": expected a count (an integer ≥ 0)");
  return static_cast<long>(v);
}

// AUC in [0, 1], rho in [-1, 1], or null (undefined).
std::optional<double> statistic(const Json& j, const std::string& what, double low) {
  if (j.isNull()) return std::nullopt;
  const double v = j.number(what);
  if (!(v >= low && v <= 1)) throw Error(what + ": expected null or a number in [" + (low < 0 ? "-1" : "0") + ", 1]");
  return v;
}

PredictionTable fromJson(const std::string& text) {
  const Json doc = Json::parse(text);
  (void)checkFormat(doc, sim::kPhysicsPredictionFormat, {});  // versions 1 and 2 alike
  PredictionTable t;
  t.fromJson = true;
  t.grasps = count(doc.at("grasps", "document"), "grasps");
  t.successes = count(doc.at("successes", "document"), "successes");
  t.successScore = doc.at("successScore", "document").number("successScore");
  const auto& rows = doc.at("rows", "document").items("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string w = "rows[" + std::to_string(i) + "]";
    const Json& r = rows[i];
    PredictionRow row;
    row.model = r.at("model", w).string(w + ".model");
    row.measure = r.at("measure", w).string(w + ".measure");
    row.grasps = count(r.at("grasps", w), w + ".grasps");
    row.missing = count(r.at("missing", w), w + ".missing");
    row.successes = count(r.at("successes", w), w + ".successes");
    row.auc = statistic(r.at("auc", w), w + ".auc", 0);
    row.spearman = statistic(r.at("spearman", w), w + ".spearman", -1);
    t.rows.push_back(row);
  }
  return t;
}

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char c : line) {
    if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

long csvCount(const std::string& field, const std::string& what) {
  const std::optional<double> v = parseDouble(field);
  if (!v || *v < 0 || *v != std::floor(*v)) throw Error(what + ": expected a count, found '" + field + "'");
  return static_cast<long>(*v);
}

std::optional<double> csvStatistic(const std::string& field, const std::string& what, double low) {
  if (field.empty()) return std::nullopt;  // the CLI writes an undefined value as an empty field
  const std::optional<double> v = parseDouble(field);
  if (!v || !(*v >= low && *v <= 1))
    throw Error(what + ": expected an empty field or a number in [" + (low < 0 ? "-1" : "0") + ", 1], found '" +
                field + "'");
  return v;
}

PredictionTable fromCsv(const std::string& text) {
  // Version 1's seven columns, or version 2's with the static check's agreement (src/sim/README.md §Static check
  // against the trial): its per-direction lines (a direction other than "all") are not predictor rows.
  static const std::string kHeader = "model,measure,grasps,missing,successes,auc,spearman";
  static const std::string kAgreementColumns = ",direction,both_held,static_only,physics_only,neither";
  std::istringstream in(text);
  std::string line;
  PredictionTable t;
  int number = 0;
  bool header = false;
  bool header7 = true;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (!header) {
      if (line != kHeader && line != kHeader + kAgreementColumns)
        throw Error("line " + std::to_string(number) + ": expected the header '" + kHeader +
                    "' of compare --against-physics --csv (or its --json document)");
      header = true;
      header7 = line == kHeader;
      continue;
    }
    const std::vector<std::string> f = splitCsv(line);
    const std::string w = "line " + std::to_string(number);
    const std::size_t fields = header7 ? 7 : 12;
    if (f.size() != fields)
      throw Error(w + ": expected " + std::to_string(fields) + " fields, found " + std::to_string(f.size()));
    if (!header7 && !f[7].empty() && f[7] != "all") continue;  // one direction's agreement, not a predictor
    if (f[0].empty() || f[1].empty()) throw Error(w + ": empty model or measure name");
    PredictionRow row;
    row.model = f[0];
    row.measure = f[1];
    row.grasps = csvCount(f[2], w + " grasps");
    row.missing = csvCount(f[3], w + " missing");
    row.successes = csvCount(f[4], w + " successes");
    row.auc = csvStatistic(f[5], w + " auc", 0);
    row.spearman = csvStatistic(f[6], w + " spearman", -1);
    t.rows.push_back(row);
  }
  if (!header) throw Error("empty file: expected the CSV or JSON of compare --against-physics");
  return t;
}

}  // namespace

std::vector<std::string> PredictionTable::models() const {
  std::vector<std::string> out;
  for (const PredictionRow& r : rows)
    if (std::find(out.begin(), out.end(), r.model) == out.end()) out.push_back(r.model);
  return out;
}

std::vector<std::string> PredictionTable::measures() const {
  std::vector<std::string> out;
  for (const PredictionRow& r : rows)
    if (std::find(out.begin(), out.end(), r.measure) == out.end()) out.push_back(r.measure);
  return out;
}

const PredictionRow* PredictionTable::find(const std::string& model, const std::string& measure) const {
  for (const PredictionRow& r : rows)
    if (r.model == model && r.measure == measure) return &r;
  return nullptr;
}

PredictionTable physicsPredictionFromText(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  PredictionTable t = first != std::string::npos && text[first] == '{' ? fromJson(text) : fromCsv(text);
  if (t.rows.empty()) throw Error("the table has no rows");
  return t;
}

PredictionTable loadPhysicsPrediction(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot be read", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error("cannot be read", path);
  try {
    return physicsPredictionFromText(text.str());
  } catch (const Error& e) {
    throw e.withFile(path);
  }
}

}  // namespace sg::shared
