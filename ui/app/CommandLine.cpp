#include "CommandLine.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include "contact/ContactModel.h"
#include "core/NumberFormat.h"
#include "grasp/HandMotionPresets.h"
#include "io/DataDirectory.h"

namespace sg::app {

QString usageText() {
  return QStringLiteral(
      "Usage: softgrasp [WORLD] [--screenshot out.png [--size WxH] [--view iso|front|top|side]\n"
      "                 [--approach] [--autograsp] [--contact-model NAME] [--no-overlays] [--fit all|grasp]\n"
      "                 [--window [--dock NAME]]]\n"
      "  WORLD               a GraspIt!-format world XML to open (default: the bundled default world)\n"
      "  --screenshot FILE   render WORLD to a PNG and exit (no window), with the overlays the window draws:\n"
      "                      contact markers, friction cones, soft patches and the worst-case wrench\n"
      "  --size WxH          screenshot size in pixels (default 800x600)\n"
      "  --view NAME         iso, front, top or side (default: the world's camera, else iso)\n"
      "  --approach          first move robot 0's palm along its approach direction until contact, at most\n"
      "                      %3 mm (as softgrasp-cli --approach and the G key)\n"
      "  --autograsp         first close robot 0's hand as Grasp > Auto-Grasp (Ctrl+G); with --approach:\n"
      "                      Approach & Grasp (key G: %3 mm approach, then auto-grasp)\n"
      "  --contact-model M   contact model of the analysis drawn (default %2):\n"
      "                      %1\n"
      "  --no-overlays       draw the bodies only\n"
      "  --fit all|grasp     frame the whole world (default) or the robots and graspable bodies only, seen\n"
      "                      from --view (a closer look at the grasp; the world's camera is not used)\n"
      "  --window            picture the whole application window (menus, docks, the view) as a first start\n"
      "                      shows it (default layout and settings), the hand moved by the Grasp menu;\n"
      "                      --size is the window's size\n"
      "  --dock NAME         with --window: raise the dock of this title first (Quality, Comparison, Planner, ...)\n"
      "  -h, --help          show this help\n"
      "  --version           print the version and exit\n"
      "Without WORLD the window opens the bundled worlds/default.xml. A relative WORLD is looked up in the\n"
      "working directory first, then in the data directory (../share/softgrasp beside the installed binary,\n"
      "or $SOFTGRASP_DATA_DIR).\n"
      "The screenshot's analysis uses the default analysis settings (not the window's saved ones).\n"
      "Exit codes with --screenshot: 0 written, 1 rendering/writing failed, 2 bad usage, 3 bad world file.\n")
      .arg(QString::fromStdString(contactModelNames()), QString::fromStdString(defaultContactModel().name()),
           QString::fromStdString(formatDouble(kApproachBeforeGrasp_mm)));
}

HandMotionRequest screenshotMotion(const CommandLine& options) {
  return switchesMotion(options.approach, options.autoGrasp ? FingerMotion::Close : FingerMotion::Keep);
}

QString worldToOpen(const CommandLine& options) {
  if (options.world.isEmpty())
    return options.screenshot.isEmpty() ? QString::fromStdString(findDataFile(kDefaultWorld).value_or(std::string()))
                                        : QString();
  return QString::fromStdString(resolveUserFile(options.world.toStdString()));
}

std::optional<CommandLine> parseCommandLine(const QStringList& arguments, QString* error) {
  QCommandLineParser parser;
  parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
  const QCommandLineOption screenshot("screenshot", "Render WORLD to a PNG and exit.", "file");
  const QCommandLineOption size("size", "Screenshot size WxH.", "WxH");
  const QCommandLineOption view("view", "iso, front, top or side.", "name");
  const QCommandLineOption approach("approach", "Approach before the screenshot.");
  const QCommandLineOption autoGrasp("autograsp", "Auto-grasp before the screenshot.");
  const QCommandLineOption contactModel("contact-model", "Contact model of the analysis drawn.", "name");
  const QCommandLineOption noOverlays("no-overlays", "Draw the bodies only.");
  const QCommandLineOption fit("fit", "Frame all or the grasp.", "what");
  const QCommandLineOption window("window", "Picture the whole window.");
  const QCommandLineOption dock("dock", "Raise this dock (with --window).", "name");
  const QCommandLineOption help(QStringList{"h", "help"}, "Show this help.");
  const QCommandLineOption version("version", "Print the version.");
  parser.addOptions({screenshot, size, view, approach, autoGrasp, contactModel, noOverlays, fit, window, dock, help, version});
  parser.addPositionalArgument("world", "World XML to open.");
  const auto fail = [error](const QString& message) {
    if (error) *error = message;
    return std::nullopt;
  };
  if (!parser.parse(arguments)) return fail(parser.errorText());

  CommandLine cl;
  if (parser.isSet(help)) {
    cl.help = true;
    return cl;
  }
  if (parser.isSet(version)) {
    cl.version = true;
    return cl;
  }
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) return fail(QStringLiteral("more than one world given"));
  if (!positional.isEmpty()) cl.world = positional.first();
  cl.screenshot = parser.value(screenshot);
  if (parser.isSet(screenshot) && cl.screenshot.isEmpty()) return fail(QStringLiteral("--screenshot needs a file name"));
  if (parser.isSet(size)) {
    static const QRegularExpression re(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const auto m = re.match(parser.value(size));
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < 1 || h < 1 || w > 16384 || h > 16384)
      return fail(QStringLiteral("--size must be WxH with 1..16384 pixels each, got '%1'").arg(parser.value(size)));
    cl.size = QSize(w, h);
  }
  if (parser.isSet(view)) {
    cl.viewGiven = true;
    const QString v = parser.value(view).toLower();
    if (v == "iso") cl.view = StandardView::Iso;
    else if (v == "front") cl.view = StandardView::Front;
    else if (v == "top") cl.view = StandardView::Top;
    else if (v == "side") cl.view = StandardView::Side;
    else return fail(QStringLiteral("--view must be iso, front, top or side, got '%1'").arg(parser.value(view)));
  }
  cl.approach = parser.isSet(approach);
  cl.autoGrasp = parser.isSet(autoGrasp);
  cl.overlays = !parser.isSet(noOverlays);
  if (parser.isSet(fit)) {
    const QString f = parser.value(fit).toLower();
    if (f != "all" && f != "grasp") return fail(QStringLiteral("--fit must be all or grasp, got '%1'").arg(parser.value(fit)));
    cl.fitGrasp = f == "grasp";
  }
  cl.window = parser.isSet(window);
  cl.dock = parser.value(dock);
  if (parser.isSet(dock) && (cl.dock.isEmpty() || !cl.window)) return fail(QStringLiteral("--dock NAME: only with --window"));
  // The window draws what its own View menu says, framed as it frames a world.
  if (cl.window && (!cl.overlays || cl.fitGrasp)) return fail(QStringLiteral("--no-overlays, --fit grasp: only without --window"));
  if (parser.isSet(contactModel)) {
    const QString name = parser.value(contactModel);
    const ContactModel* model = findContactModel(name.toStdString());
    if (!model)
      return fail(QStringLiteral("--contact-model must be one of %1, got '%2'")
                      .arg(QString::fromStdString(contactModelNames()), name));
    cl.contactModel = model->name();
  }
  if (!cl.screenshot.isEmpty() && cl.world.isEmpty()) return fail(QStringLiteral("--screenshot needs a WORLD"));
  if (cl.screenshot.isEmpty()) {
    QStringList stray;
    for (const auto* o : {&size, &view, &approach, &autoGrasp, &contactModel, &noOverlays, &fit, &window, &dock})
      if (parser.isSet(*o)) stray << "--" + o->names().first();
    if (!stray.isEmpty()) return fail(QStringLiteral("%1: only with --screenshot").arg(stray.join(", ")));
  }
  return cl;
}

}  // namespace sg::app
