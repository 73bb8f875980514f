// softgrasp-cli sensing WORLD [--robot N] [--approach [MM]] [--autograsp] [--squeeze-torque | --squeeze-motion DEG]
//                            [--stiffness N/MM] [--transition MM] [--json | --csv] [--model-root DIR]...
// Penalty-contact sensing outputs (src/contact/README.md §Penalty contact) of every pair of a hand body with
// another body: separation, contact signal, normal and friction force vectors, contact points and frames on
// both bodies; optionally after squeezing the hand past first contact by its DOF efforts or by a set extra
// DOF motion.
#include <cmath>
#include <iostream>

#include "AnalysisOptions.h"
#include "CommandRegistry.h"
#include "grasp/AnalysisJson.h"  // approachOutcome, fingersOutcome
#include "ExitCodes.h"
#include "HandOptions.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "contact/penalty/HandSensing.h"
#include "core/Parse.h"

namespace sg::cli {

namespace {

double positiveOption(const ParsedArgs& args, const std::string& name, double fallback, bool allowZero) {
  const auto text = args.value(name);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(name, *text);
  if (v.size() != 1 || !std::isfinite(v[0]) || v[0] < 0 || (!allowZero && v[0] == 0))
    throw UsageError(name + ": expected one " + (allowZero ? "non-negative" : "positive") + " number, got '" +
                     *text + "'");
  return v[0];
}

std::string sensingCsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

Json rowJson(const World& world, const HandSensingRow& row) {
  const PenaltySensing& s = row.sensing;
  const Contact& c = s.contact;
  return jsonObject({{"body1", Json(world.bodyLabel(row.hand))},
                     {"body2", Json(world.bodyLabel(row.other))},
                     {"separation_mm", Json(c.separation_mm)},
                     {"penetrating", c.penetrating},
                     {"contact", s.signal},
                     {"penetration_mm", Json(s.penetration_mm)},
                     {"normalForce_N", Json(s.normalForce_N)},
                     {"frictionForce_N", Json(s.frictionForce_N)},
                     {"normalForceOnBody1_N", jsonVec(s.normalForce_W_N)},
                     {"frictionForceOnBody1_N", jsonVec(s.frictionForce_W_N)},
                     {"slip_mm_per_s", jsonVec(s.slip_W_mm_per_s)},
                     {"muEffective", Json(s.muEffective)},
                     {"muStatic", Json(c.muStatic)},
                     {"muKinetic", Json(c.muKinetic)},
                     {"point1_mm", jsonVec(c.side1.p_WC_mm)},
                     {"point2_mm", jsonVec(c.side2.p_WC_mm)},
                     {"frame1", jsonPose(c.side1.X_WC)},
                     {"frame2", jsonPose(c.side2.X_WC)}});
}

// ~130 lines kept whole: one command's option checks, run and text/JSON/CSV output, read top to bottom.
int runSensing(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv contradict each other");
  if (args.has("--squeeze-torque") && args.has("--squeeze-motion"))
    throw UsageError("--squeeze-torque and --squeeze-motion contradict each other");
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  World& world = input.world;
  int robot = 0;
  if (const auto text = args.value("--robot")) {
    const std::vector<double> v = parseNumberList("--robot", *text);
    if (v.size() != 1 || v[0] < 0 || v[0] != std::floor(v[0])) throw UsageError("--robot: expected an index, got '" + *text + "'");
    robot = static_cast<int>(v[0]);
  }
  if (robot >= static_cast<int>(world.robots.size()))
    throw UsageError("--robot: " + input.path + " has " + std::to_string(world.robots.size()) + " robot(s)");
  const HandMotionRequest motion = handMotionRequest(args, /*closeByDefault=*/false);
  // --settings FILE: the threshold and the penalty model's group ([penalty]) as the application stores them;
  // --threshold, --stiffness and --transition override them.
  const AnalysisRequest analysis = analysisRequest(args, input, /*closeByDefault=*/false);
  PenaltySettings penalty = analysis.quality.penalty;
  penalty.stiffness_N_per_mm = positiveOption(args, "--stiffness", penalty.stiffness_N_per_mm, false);
  penalty.transitionWidth_mm = positiveOption(args, "--transition", penalty.transitionWidth_mm, true);
  penalty.contactThreshold_mm =
      args.has("--settings") ? analysis.collision.contacts.threshold_mm : contactThreshold(args);
  std::optional<SqueezeSettings> squeeze;
  if (args.has("--squeeze-torque") || args.has("--squeeze-motion")) {
    squeeze = SqueezeSettings{};
    squeeze->penalty = penalty;
    if (args.has("--squeeze-motion")) squeeze = motionSqueeze(positiveOption(args, "--squeeze-motion", 0, true), penalty);
  }
  Warnings warnings;
  warnings.addLoadWarnings(world);

  HandMotionReport report;
  if (motion.movesHand()) report = moveHand(world, robot, motion);
  const HandSensing sensed = senseHand(world, world.state, robot, penalty, squeeze);
  const Robot& hand = world.robots[robot];

  if (args.has("--csv")) {
    std::cout << "body1,body2,separation_mm,contact,penetration_mm,normal_force_N,friction_force_N,"
                 "fn1_x,fn1_y,fn1_z,ff1_x,ff1_y,ff1_z,p1_x,p1_y,p1_z,p2_x,p2_y,p2_z,"
                 "q1_w,q1_x,q1_y,q1_z,q2_w,q2_x,q2_y,q2_z,mu_effective\n";
    for (const HandSensingRow& row : sensed.rows) {
      const PenaltySensing& s = row.sensing;
      const Contact& c = s.contact;
      std::string line = sensingCsvField(world.bodyLabel(row.hand)) + "," +
                         sensingCsvField(world.bodyLabel(row.other)) + "," + formatDouble(c.separation_mm) + "," +
                         (s.signal ? "1" : "0") + "," + formatDouble(s.penetration_mm) + "," +
                         formatDouble(s.normalForce_N) + "," + formatDouble(s.frictionForce_N);
      for (const Vec3& v : {s.normalForce_W_N, s.frictionForce_W_N, c.side1.p_WC_mm, c.side2.p_WC_mm})
        for (int k = 0; k < 3; ++k) line += "," + formatDouble(v[k]);
      for (const Transform* f : {&c.side1.X_WC, &c.side2.X_WC}) {
        const Quat& q = f->rotation();
        for (double x : {q.w(), q.x(), q.y(), q.z()}) line += "," + formatDouble(x);
      }
      std::cout << line << "," << formatDouble(s.muEffective) << "\n";
    }
    return kExitOk;
  }
  if (args.has("--json")) {
    Json pairs = Json::array();
    for (const HandSensingRow& row : sensed.rows) pairs.push(rowJson(world, row));
    Json doc = jsonObject({{"file", Json(input.path)},
                           {"robot", Json(hand.name)},
                           {"stiffness_N_per_mm", Json(penalty.stiffness_N_per_mm)},
                           {"transitionWidth_mm", Json(penalty.transitionWidth_mm)},
                           {"pairs", pairs},
                           {"warnings", warnings.json()}});
    if (report.fingers.run) doc.set("grasp", Json(fingersOutcome(report)));
    if (report.approach.run) doc.set("approach", Json(approachOutcome(report)));
    if (sensed.squeeze) {
      const SqueezeResult& q = *sensed.squeeze;
      const Json before = jsonNumbers(q.dofBefore), after = jsonNumbers(q.dofAfter), effort = jsonNumbers(q.effort),
                 load = jsonNumbers(q.contactLoad), notes = jsonStrings(q.notes);
      doc.set("squeeze", jsonObject({{"mode", Json(toString(squeeze->mode))},
                                     {"dofsBefore", before},
                                     {"dofsAfter", after},
                                     {"effort", effort},
                                     {"contactLoad", load},
                                     {"converged", q.converged},
                                     {"iterations", q.iterations},
                                     {"notes", notes}}));
    }
    writeJson(std::cout, formats::sensing, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("robot " + hand.name);
  TextPrinter::Indent indent(out);
  if (report.approach.run) out.field("approach", approachOutcome(report));
  if (report.fingers.run) out.field("grasp", fingersOutcome(report));
  if (sensed.squeeze) {
    const SqueezeResult& q = *sensed.squeeze;
    std::string before, after, effort, load;
    for (std::size_t j = 0; j < q.dofAfter.size(); ++j) {
      before += (j ? ", " : "") + TextPrinter::number(q.dofBefore[j]);
      after += (j ? ", " : "") + TextPrinter::number(q.dofAfter[j]);
      effort += (j ? ", " : "") + TextPrinter::number(q.effort[j]);
      load += (j ? ", " : "") + TextPrinter::number(q.contactLoad[j]);
    }
    out.field("squeeze", std::string(toString(squeeze->mode)) + (q.converged ? "" : " (did not converge)"));
    TextPrinter::Indent inner(out);
    out.field("dof values before", before);
    out.field("dof values after", after);
    if (squeeze->mode == SqueezeMode::Torque) {
      out.field("effort (N·mm or N)", effort);
      out.field("contact load (N·mm or N)", load);
    }
    for (const std::string& n : q.notes) out.line(n);
  }
  out.field("pairs", std::to_string(sensed.rows.size()));
  TextPrinter::Indent inner(out);
  for (const HandSensingRow& row : sensed.rows) {
    const PenaltySensing& s = row.sensing;
    const Contact& c = s.contact;
    out.line(world.bodyLabel(row.hand) + " – " + world.bodyLabel(row.other) + ": contact " + (s.signal ? "1" : "0") +
             ", separation " + TextPrinter::number(c.separation_mm) + " mm" + (c.penetrating ? " (penetrating)" : "") +
             ", normal force " +
             TextPrinter::number(s.normalForce_N) + " N, friction " + TextPrinter::number(s.frictionForce_N) + " N");
    TextPrinter::Indent more(out);
    out.field("normal force on 1", TextPrinter::vec(s.normalForce_W_N) + " N");
    out.field("friction on 1", TextPrinter::vec(s.frictionForce_W_N) + " N");
    out.field("frame 1", TextPrinter::pose(c.side1.X_WC));
    out.field("frame 2", TextPrinter::pose(c.side2.X_WC));
  }
  return kExitOk;
}

const RegisterCommand registerSensing{Command{
    "sensing",
    "penalty-contact sensing outputs of a hand's pairs, optionally after a squeeze",
    "Loads a world, optionally moves the hand (--approach, --autograsp), optionally squeezes it past first\n"
    "contact (--squeeze-torque: each closing DOF pushes with its effort from the robot file until the penalty\n"
    "forces balance it; --squeeze-motion DEG: each closing DOF moves DEG degrees further, prismatic DOFs DEG\n"
    "mm), then prints for every pair of a hand body with another body the outputs of a spatial contact-force\n"
    "block: separation (negative: penetration), contact signal, normal and friction force vectors on body 1,\n"
    "the contact points and contact frames (z = inward normal) on both bodies. Normal force = s(d/w)(k d + c\n"
    "rate), s the smooth transition over the width w (--transition MM, default 0.1), k = --stiffness N/MM\n"
    "(default 1000); friction: smooth stick-slip. --csv writes one row per pair.",
    CommandSyntax{{{"WORLD", "world XML"}},
                  {analysis_options::robot(),
                   hand_options::approach(),
                   hand_options::autograsp(false),
                   hand_options::noClose(true),
                   hand_options::threshold(),
                   analysis_options::settings(),
                   {"--squeeze-torque", "", "squeeze by each DOF's effort (quasi-static equilibrium)"},
                   {"--squeeze-motion", "DEG", "squeeze by moving each closing DOF DEG degrees further (prismatic DOFs: mm)"},
                   {"--stiffness", "N/MM", "contact stiffness k (default 1000 N/mm = 1e6 N/m)"},
                   {"--transition", "MM", "transition region width w (default 0.1 mm)"},
                   common_options::json(),
                   common_options::csv("one CSV row per pair on stdout"),
                   common_options::modelRoot(), common_options::packagePath()}},
    runSensing}};

}  // namespace

}  // namespace sg::cli
