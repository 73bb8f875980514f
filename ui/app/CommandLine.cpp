#include "CommandLine.h"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace sg::app {

QString usageText() {
  return QStringLiteral(
      "Usage: softgrasp [WORLD] [--screenshot out.png] [--size WxH] [--view iso|front|top|side]\n"
      "  WORLD               a GraspIt!-format world XML to open\n"
      "  --screenshot FILE   render WORLD to a PNG and exit (no window)\n"
      "  --size WxH          screenshot size in pixels (default 800x600)\n"
      "  --view NAME         iso, front, top or side (default: the world's camera, else iso)\n"
      "  -h, --help          show this help\n"
      "Exit codes with --screenshot: 0 written, 1 rendering/writing failed, 2 bad usage, 3 bad world file.\n");
}

std::optional<CommandLine> parseCommandLine(const QStringList& arguments, QString* error) {
  QCommandLineParser parser;
  parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
  const QCommandLineOption screenshot("screenshot", "Render WORLD to a PNG and exit.", "file");
  const QCommandLineOption size("size", "Screenshot size WxH.", "WxH");
  const QCommandLineOption view("view", "iso, front, top or side.", "name");
  const QCommandLineOption help(QStringList{"h", "help"}, "Show this help.");
  parser.addOptions({screenshot, size, view, help});
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
  if (!cl.screenshot.isEmpty() && cl.world.isEmpty()) return fail(QStringLiteral("--screenshot needs a WORLD"));
  if (cl.screenshot.isEmpty() && (parser.isSet(size) || parser.isSet(view)))
    return fail(QStringLiteral("--size and --view only apply with --screenshot"));
  return cl;
}

}  // namespace sg::app
