#include "batch/JobList.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "contact/ContactModel.h"
#include "core/Error.h"
#include "grasp/QualityMeasure.h"
#include "grasp/planner/Annealing.h"
#include "grasp/planner/HandSearch.h"

namespace sg::batch {

namespace fs = std::filesystem;

std::string fnv1a64Hex(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {

const std::set<std::string> kSettingKeys = {"energy", "space", "params", "steps", "chains", "qualityMeasure",
                                            "liveContacts", "robot", "graspable", "contactModel", "measures",
                                            "threshold_mm", "force_N", "edges", "torqueLength_mm", "validate",
                                            "trialDirections", "trialDuration_s"};
const std::set<std::string> kJobKeys = {"world", "hand", "object", "handPose", "seed", "seeds", "seedRange"};

double number(const Json& j, const std::string& what) { return j.number(what); }

long integer(const Json& j, const std::string& what, long minimum) {
  const double v = number(j, what);
  if (!(v >= static_cast<double>(minimum)) || v != std::floor(v) || v > 9.0e15)
    throw Error(what + ": expected an integer ≥ " + std::to_string(minimum));
  return static_cast<long>(v);
}

double positive(const Json& j, const std::string& what) {
  const double v = number(j, what);
  if (!(v > 0) || !std::isfinite(v)) throw Error(what + ": expected a positive number");
  return v;
}

std::vector<std::string> names(const Json& j, const std::string& what) {
  std::vector<std::string> out;
  if (j.type() == Json::Type::String) {
    out.push_back(j.string(what));
  } else {
    const auto& items = j.items(what);
    for (std::size_t i = 0; i < items.size(); ++i) out.push_back(items[i].string(what + "[" + std::to_string(i) + "]"));
  }
  if (out.empty()) throw Error(what + ": expected at least one name");
  return out;
}

std::uint64_t seedValue(const Json& j, const std::string& what) {
  if (j.type() == Json::Type::String) {
    const std::string& s = j.string(what);
    if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
      throw Error(what + ": expected a seed (a non-negative integer or its decimal string), got '" + s + "'");
    try {
      return std::stoull(s);
    } catch (const std::exception&) {
      throw Error(what + ": seed '" + s + "' does not fit 64 bits");
    }
  }
  return static_cast<std::uint64_t>(integer(j, what, 0));
}

// Applies the setting members of `o` (other keys are left to the caller) onto `s`.
void applySettings(const Json& o, const std::string& what, RowSettings& s) {
  for (const auto& [key, v] : o.members(what)) {
    const std::string w = what + "." + key;
    if (!kSettingKeys.count(key)) continue;
    if (key == "energy") {
      s.energy = v.string(w);
      try { (void)planner::energyFromString(s.energy); } catch (const Error& e) { throw Error(w + ": " + e.message()); }
    } else if (key == "space") {
      s.space = v.string(w);
      try { (void)planner::positionSpaceFromString(s.space); } catch (const Error& e) { throw Error(w + ": " + e.message()); }
    } else if (key == "params") {
      s.params = v.string(w);
      try { (void)planner::AnnealingParams::byName(s.params); } catch (const Error& e) { throw Error(w + ": " + e.message()); }
    } else if (key == "steps") {
      s.steps = integer(v, w, 0);
    } else if (key == "chains") {
      s.chains = static_cast<int>(integer(v, w, 1));
      if (s.chains > 1024) throw Error(w + ": at most 1024 chains");
    } else if (key == "qualityMeasure") {
      s.qualityMeasure = v.string(w);
      if (!findQualityMeasure(s.qualityMeasure)) throw Error(w + ": unknown measure '" + s.qualityMeasure + "'");
    } else if (key == "liveContacts") {
      s.liveContacts = v.boolean(w);
    } else if (key == "robot") {
      s.robot = static_cast<int>(integer(v, w, 0));
    } else if (key == "graspable") {
      s.graspable = static_cast<int>(integer(v, w, 0));
    } else if (key == "contactModel") {
      s.contactModels.clear();
      for (const std::string& n : names(v, w)) {
        const ContactModel* m = findContactModel(n);
        if (!m) throw Error(w + ": expected " + contactModelNames() + ", got '" + n + "'");
        s.contactModels.push_back(m->name());
      }
    } else if (key == "measures") {
      s.measures = names(v, w);
      for (const std::string& n : s.measures)
        if (!findQualityMeasure(n)) throw Error(w + ": unknown measure '" + n + "'");
    } else if (key == "threshold_mm") {
      s.threshold_mm = positive(v, w);
    } else if (key == "force_N") {
      s.force_N = positive(v, w);
    } else if (key == "edges") {
      s.edges = static_cast<int>(integer(v, w, 3));
    } else if (key == "torqueLength_mm") {
      const double t = number(v, w);
      if (!(t >= 0) || !std::isfinite(t)) throw Error(w + ": expected a number ≥ 0 (0 = the object's max radius)");
      s.torqueLength_mm = t;
    } else if (key == "validate") {
      s.validate = v.boolean(w);
    } else if (key == "trialDirections") {
      s.trialDirections = v.string(w);
    } else if (key == "trialDuration_s") {
      s.trialDuration_s = positive(v, w);
    }
  }
}

Transform poseValue(const Json& j, const std::string& what) {
  std::vector<double> p = {0, 0, 0}, q = {1, 0, 0, 0};
  for (const auto& [key, v] : j.members(what)) {
    std::vector<double>* dst = key == "position_mm" ? &p : key == "quaternion_wxyz" ? &q : nullptr;
    if (!dst) throw Error(what + ": unknown key \"" + key + "\" (expected position_mm, quaternion_wxyz)");
    const auto& items = v.items(what + "." + key);
    if (items.size() != dst->size())
      throw Error(what + "." + key + ": expected " + std::to_string(dst->size()) + " numbers");
    for (std::size_t i = 0; i < items.size(); ++i) {
      (*dst)[i] = items[i].number(what + "." + key);
      if (!std::isfinite((*dst)[i])) throw Error(what + "." + key + ": not a finite number");
    }
  }
  Quat quat(q[0], q[1], q[2], q[3]);
  if (!(quat.norm() > 1e-9)) throw Error(what + ".quaternion_wxyz: not a rotation (zero quaternion)");
  quat.normalize();
  return Transform(quat, Vec3(p[0], p[1], p[2]));
}

std::string resolve(const std::string& file, const fs::path& base, const std::string& what, const std::string& list) {
  if (file.empty()) throw Error(what + ": empty file name");
  fs::path p(file);
  if (p.is_relative()) p = base / p;
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    throw Error(what + ": no such file '" + file + "' (relative names are read from the job list's folder)", list);
  return p.lexically_normal().string();
}

Json numbersJson(const std::vector<double>& v) {
  Json a = Json::array();
  for (const double x : v) a.push(x);
  return a;
}

}  // namespace

Json BatchRow::describe() const {
  Json o = Json::object();
  o.set("row", index);
  o.set("job", job);
  if (!world.empty()) {
    o.set("world", world);
  } else {
    o.set("hand", hand);
    o.set("object", object);
    if (handPose) {
      Json pose = Json::object();
      pose.set("position_mm", numbersJson({handPose->translation().x(), handPose->translation().y(),
                                           handPose->translation().z()}));
      const Quat& q = handPose->rotation();
      pose.set("quaternion_wxyz", numbersJson({q.w(), q.x(), q.y(), q.z()}));
      o.set("handPose", pose);
    }
  }
  o.set("seed", std::to_string(seed));
  const RowSettings& s = settings;
  Json j = Json::object();
  j.set("energy", s.energy);
  j.set("space", s.space);
  j.set("params", s.params);
  j.set("steps", s.steps);
  j.set("chains", s.chains);
  j.set("qualityMeasure", s.qualityMeasure);
  j.set("liveContacts", s.liveContacts);
  j.set("robot", s.robot);
  j.set("graspable", s.graspable);
  Json models = Json::array();
  for (const std::string& m : s.contactModels) models.push(m);
  j.set("contactModel", models);
  Json measures = Json::array();
  for (const std::string& m : s.measures) measures.push(m);
  j.set("measures", measures);
  j.set("threshold_mm", s.threshold_mm);
  j.set("force_N", s.force_N);
  j.set("edges", s.edges);
  j.set("torqueLength_mm", s.torqueLength_mm);
  // Only rows with trials name them, so a job list without them keeps its digest (BATCH.md §Job list).
  if (s.validate) {
    j.set("validate", true);
    j.set("trialDirections", s.trialDirections);
    j.set("trialDuration_s", s.trialDuration_s);
  }
  o.set("settings", j);
  return o;
}

JobList jobListFromJson(const std::string& text, const std::string& path) {
  JobList list;
  list.path = path;
  const fs::path base = fs::path(path).parent_path();
  try {
    const Json doc = Json::parse(text);
    (void)checkFormat(doc, kJobListFormat, {});  // the catch below names the file
    for (const auto& [key, v] : doc.members("job list"))
      if (key != "format" && key != "version" && key != "defaults" && key != "jobs" && key != "comment")
        throw Error("unknown key \"" + key + "\" (expected format, version, defaults, jobs, comment)");
    RowSettings defaults;
    if (const Json* d = doc.find("defaults")) {
      for (const auto& [key, v] : d->members("defaults"))
        if (!kSettingKeys.count(key)) throw Error("defaults: unknown setting \"" + key + "\"");
      applySettings(*d, "defaults", defaults);
    }
    const auto& jobs = doc.at("jobs", "job list").items("jobs");
    if (jobs.empty()) throw Error("jobs: the list is empty");
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const std::string what = "jobs[" + std::to_string(j) + "]";
      const Json& job = jobs[j];
      for (const auto& [key, v] : job.members(what))
        if (!kSettingKeys.count(key) && !kJobKeys.count(key) && key != "comment")
          throw Error(what + ": unknown key \"" + key + "\"");
      BatchRow row;
      row.job = static_cast<long>(j);
      row.settings = defaults;
      applySettings(job, what, row.settings);
      try {  // steps and params may come from the defaults and the job: checked together
        planner::requireStepsBeyondStart(row.settings.steps, planner::AnnealingParams::byName(row.settings.params));
      } catch (const Error& e) {
        throw Error(what + ".steps: " + e.message());
      }
      const Json* world = job.find("world");
      const Json* hand = job.find("hand");
      const Json* object = job.find("object");
      if (world && (hand || object)) throw Error(what + ": give either \"world\" or \"hand\" and \"object\", not both");
      if (world) {
        row.world = world->string(what + ".world");
        row.worldPath = resolve(row.world, base, what + ".world", path);
        if (job.find("handPose")) throw Error(what + ".handPose: only for hand + object jobs");
      } else if (hand && object) {
        row.hand = hand->string(what + ".hand");
        row.object = object->string(what + ".object");
        row.handPath = resolve(row.hand, base, what + ".hand", path);
        row.objectPath = resolve(row.object, base, what + ".object", path);
        row.handPose = Transform(Quat::Identity(), Vec3(0, 0, 300));
        if (const Json* pose = job.find("handPose")) row.handPose = poseValue(*pose, what + ".handPose");
      } else {
        throw Error(what + ": needs \"world\", or \"hand\" and \"object\"");
      }
      std::vector<std::uint64_t> seeds;
      const int seedKeys = (job.find("seed") ? 1 : 0) + (job.find("seeds") ? 1 : 0) + (job.find("seedRange") ? 1 : 0);
      if (seedKeys > 1) throw Error(what + ": give one of \"seed\", \"seeds\", \"seedRange\"");
      if (const Json* s = job.find("seed")) {
        seeds.push_back(seedValue(*s, what + ".seed"));
      } else if (const Json* ss = job.find("seeds")) {
        const auto& items = ss->items(what + ".seeds");
        if (items.empty()) throw Error(what + ".seeds: the list is empty");
        for (std::size_t i = 0; i < items.size(); ++i)
          seeds.push_back(seedValue(items[i], what + ".seeds[" + std::to_string(i) + "]"));
      } else if (const Json* r = job.find("seedRange")) {
        const std::uint64_t first = seedValue(r->at("first", what + ".seedRange"), what + ".seedRange.first");
        const long count = integer(r->at("count", what + ".seedRange"), what + ".seedRange.count", 1);
        if (count > 10000000) throw Error(what + ".seedRange.count: at most 10 000 000 rows per job");
        for (const auto& [key, v] : r->members(what + ".seedRange"))
          if (key != "first" && key != "count") throw Error(what + ".seedRange: unknown key \"" + key + "\"");
        for (long i = 0; i < count; ++i) seeds.push_back(first + static_cast<std::uint64_t>(i));
      } else {
        seeds.push_back(1);
      }
      for (const std::uint64_t seed : seeds) {
        row.index = static_cast<long>(list.rows.size());
        row.seed = seed;
        list.rows.push_back(row);
      }
    }
  } catch (const Error& e) {
    if (!e.file().empty()) throw;
    throw e.withFile(path);
  }
  std::string all;
  for (const BatchRow& row : list.rows) all += row.describe().dumpLine() + "\n";
  list.digest = fnv1a64Hex(all);
  return list;
}

JobList loadJobList(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error("no such file", path);
  if (!fs::is_regular_file(path, ec)) throw Error("is not a regular file", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot be read", path);
  std::stringstream text;
  text << in.rdbuf();
  return jobListFromJson(text.str(), fs::absolute(path).lexically_normal().string());
}

}  // namespace sg::batch
