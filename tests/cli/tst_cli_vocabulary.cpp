// One CLI vocabulary (ui/cli/README.md §One spelling per concept): every flag the docs show for a command is
// accepted by it, every flag a command accepts is in ui/cli/README.md's usage block (both read from the files
// and from each command's --help, which is generated from its option table), former spellings still work
// with a deprecation note, and the new flags (--iterations, --csv, --settings, grasp --contact-model) work.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

namespace {

using Run = sg::test::CliRun;

Run cli(const QStringList& args) { return sg::test::runCli(args, sg::test::qSourceDir()); }

QString readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

QSet<QString> flagsIn(const QString& text) {
  QSet<QString> flags;
  static const QRegularExpression flag(QStringLiteral("(?<![\\w-])--[a-z][a-z0-9-]*"));
  for (auto it = flag.globalMatch(text); it.hasNext();) flags.insert(it.next().captured(0));
  flags.remove(QStringLiteral("--help"));
  return flags;
}

QString sorted(const QSet<QString>& set) {
  QStringList list(set.begin(), set.end());
  list.sort();
  return list.join(QLatin1Char(' '));
}

// The commands `softgrasp-cli --help` lists.
QStringList commands() {
  const Run r = cli({"--help"});
  QStringList names;
  bool inList = false;
  for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
    if (line.startsWith(QLatin1String("commands:"))) inList = true;
    else if (inList && line.startsWith(QLatin1String("  "))) names << line.trimmed().section(QLatin1Char(' '), 0, 0);
    else if (inList) break;
  }
  return names;
}

struct HelpFlags {
  QSet<QString> current, former;
};

// `COMMAND --help` (run once per command: starting the program is the slow part).
QString helpText(const QString& command) {
  static QMap<QString, QString> cache;
  if (!cache.contains(command)) cache[command] = QString::fromUtf8(cli({command, "--help"}).out);
  return cache[command];
}

// `COMMAND --help`: one line per option ("  --name VALUE  help"), a former spelling in its help text.
HelpFlags helpFlags(const QString& command) {
  HelpFlags h;
  static const QRegularExpression option(QStringLiteral("^  (--[a-z][a-z0-9-]*)"));
  static const QRegularExpression former(QStringLiteral("deprecated former spelling: ([^)]*)\\)"));
  for (const QString& line : helpText(command).split(QLatin1Char('\n'))) {
    const auto m = option.match(line);
    if (!m.hasMatch() || m.captured(1) == QLatin1String("--help")) continue;
    h.current.insert(m.captured(1));
    const auto f = former.match(line);
    if (f.hasMatch()) h.former.unite(flagsIn(f.captured(1)));
  }
  return h;
}

// Command → the text of its entry in a usage block: a line "softgrasp-cli COMMAND ..." and the indented
// lines continuing it. `text` is a whole Markdown file; only indented code lines count.
QMap<QString, QString> usageEntries(const QString& text, const QStringList& known, bool examples) {
  QMap<QString, QString> entries;
  QString current;
  for (const QString& raw : text.split(QLatin1Char('\n'))) {
    if (!raw.startsWith(QLatin1String("    "))) {
      current.clear();
      continue;
    }
    QString line = raw.trimmed();
    if (examples) line = line.section(QLatin1String("  #"), 0, 0);  // the README's examples end in comments
    if (line.startsWith(QLatin1String("softgrasp-cli "))) {
      const QString command = line.section(QLatin1Char(' '), 1, 1);
      current = known.contains(command) ? command : QString();
      if (!current.isEmpty()) entries[current] += line + QLatin1Char(' ');
    } else if (!current.isEmpty() && !examples) {
      entries[current] += line + QLatin1Char(' ');
    } else {
      current.clear();
    }
  }
  return entries;
}

}  // namespace

class TestCliVocabulary : public QObject {
  Q_OBJECT
  QStringList commands_;

 private slots:
  void initTestCase() {
    commands_ = commands();
    QVERIFY2(commands_.size() >= 12, qPrintable(commands_.join(' ')));
    QVERIFY(commands_.contains("plan") && commands_.contains("batch") && commands_.contains("compare"));
  }

  // ui/cli/README.md §Usage lists exactly the flags of each command's option table (its --help).
  void usageBlockMatchesEveryOptionTable() {
    const QString readme = readText(sg::test::qInSourceTree("ui/cli/README.md"));
    const QString usage = readme.section(QStringLiteral("## Usage"), 1).section(QStringLiteral("\n## "), 0, 0);
    QVERIFY(!usage.isEmpty());
    const QMap<QString, QString> entries = usageEntries(usage, commands_, false);
    for (const QString& command : commands_) {
      QVERIFY2(entries.contains(command), qPrintable("ui/cli/README.md §Usage lacks " + command));
      const QSet<QString> documented = flagsIn(entries[command]);
      const HelpFlags accepted = helpFlags(command);
      QVERIFY2(!accepted.current.isEmpty(), qPrintable(command));
      const QSet<QString> undocumented = QSet<QString>(accepted.current).subtract(documented);
      const QSet<QString> unknown = QSet<QString>(documented).subtract(accepted.current);
      QVERIFY2(undocumented.isEmpty(),
               qPrintable(command + ": accepted but not in ui/cli/README.md §Usage: " + sorted(undocumented)));
      QVERIFY2(unknown.isEmpty(),
               qPrintable(command + ": in ui/cli/README.md §Usage but not accepted: " + sorted(unknown)));
    }
  }

  // Every flag in the README's examples is the current spelling of an option the command has.
  void readmeExamplesUseAcceptedFlags() {
    const QString readme = readText(sg::test::qInSourceTree("README.md"));
    const QMap<QString, QString> examples = usageEntries(readme, commands_, true);
    QVERIFY2(examples.size() >= 8, qPrintable(QStringList(examples.keys()).join(' ')));
    for (auto it = examples.begin(); it != examples.end(); ++it) {
      const QSet<QString> unknown = flagsIn(it.value()).subtract(helpFlags(it.key()).current);
      QVERIFY2(unknown.isEmpty(), qPrintable("README.md: " + it.key() + " does not take " + sorted(unknown)));
    }
  }

  // The concepts the vocabulary unifies are spelled one way wherever they apply.
  void oneSpellingPerConcept() {
    for (const QString& command : commands_) {
      const HelpFlags h = helpFlags(command);
      for (const char* gone : {"--models", "--model", "--quiet", "--from-pregrasp"})
        QVERIFY2(!h.current.contains(gone), qPrintable(command + " still offers " + gone + " as current"));
    }
    for (const char* command : {"grasp", "quality", "contact", "sensing", "compare", "plan", "evaluate"}) {
      const HelpFlags h = helpFlags(command);
      QVERIFY2(h.current.contains("--settings"), command);
    }
    for (const char* command : {"grasp", "quality", "contact", "compare", "plan", "evaluate"})
      QVERIFY2(helpFlags(command).current.contains("--contact-model"), command);
    for (const char* command : {"plan", "evaluate", "batch", "quality", "compare"}) {
      const HelpFlags h = helpFlags(command);
      QVERIFY2(h.current.contains("--no-progress") && h.current.contains("--progress"), command);
    }
    for (const char* command : {"sensing", "compare", "plan", "evaluate"})
      QVERIFY2(helpFlags(command).current.contains("--csv"), command);
    // The hand's closing: every command that moves the hand takes --autograsp and --no-close, and --help says
    // which is the default (grasp closes: its purpose; the others evaluate the hand as it is).
    for (const char* command : {"grasp", "quality", "contact", "sensing", "compare"}) {
      const QString text = helpText(command);
      QVERIFY2(text.contains("--autograsp") && text.contains("--no-close"), command);
      const bool closes = QString(command) == "grasp";
      const QRegularExpression defaultLine(QString("\\n  %1 [^\\n]*\\(the default\\)")
                                               .arg(closes ? "--autograsp" : "--no-close"));
      QVERIFY2(defaultLine.match(text).hasMatch(), command);
    }
    QCOMPARE(helpFlags("compare").former, (QSet<QString>{"--models"}));
    QCOMPARE(helpFlags("contact").former, (QSet<QString>{"--model"}));
    QCOMPARE(helpFlags("batch").former, (QSet<QString>{"--quiet"}));
    QCOMPARE(helpFlags("evaluate").former, (QSet<QString>{"--from-pregrasp"}));
  }

  // A former spelling gives the same stdout as the current one and a note on stderr.
  void formerSpellingsStillWork() {
    const QStringList world = {"worlds/default.xml", "--approach", "--autograsp", "--json"};
    for (const auto& [command, now, before, value] :
         std::vector<std::array<QString, 4>>{{"compare", "--contact-model", "--models", "point,soft-finger"},
                                             {"contact", "--contact-model", "--model", "point"}}) {
      const Run current = cli(QStringList{command} + world + QStringList{now, value});
      const Run former = cli(QStringList{command} + world + QStringList{before, value});
      QVERIFY2(current.exitCode == 0, current.err.constData());
      QVERIFY2(former.exitCode == 0, former.err.constData());
      QCOMPARE(former.out, current.out);
      QVERIFY2(former.err.contains(QString("note: %1 is deprecated, use %2").arg(before, now).toUtf8()),
               former.err.constData());
      QVERIFY(!current.err.contains("deprecated"));
    }
  }

  // --iterations N runs N iterations (GraspIt!'s --steps counts from the parameter set's start); both work,
  // together they are a usage error. Also plan --csv and evaluate's --from-pre-grasp (and its former spelling).
  void iterationsStepsAndCsv() {
    QTemporaryDir tmp;
    const QString list = tmp.filePath("grasps.json");
    const QStringList base = {"plan", "worlds/paralleljaw_box.xml", "--seed", "4", "--chains", "2", "--no-progress"};
    const Run iterations = cli(base + QStringList{"--iterations", "2000", "--json", "--out", list});
    QVERIFY2(iterations.exitCode == 0, iterations.err.constData());
    const QJsonObject run = iterations.json().value("run").toObject();
    QCOMPARE(run.value("iterations").toInteger(), 2000);
    const Run steps = cli(base + QStringList{"--steps", "32000", "--json"});
    QVERIFY2(steps.exitCode == 0, steps.err.constData());
    QCOMPARE(steps.json().value("grasps"), iterations.json().value("grasps"));
    const Run both = cli(base + QStringList{"--steps", "32000", "--iterations", "2000"});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--steps and --iterations"), both.err.constData());
    const Run zero = cli(base + QStringList{"--iterations", "0"});
    QCOMPARE(zero.exitCode, 2);

    const Run csv = cli(base + QStringList{"--iterations", "2000", "--csv"});
    QVERIFY2(csv.exitCode == 0, csv.err.constData());
    const QStringList lines = QString::fromUtf8(csv.out).trimmed().split('\n');
    QCOMPARE(lines.first(), QString("rank,energy,epsilon-l1,volume-l1,force_closure,contacts"));
    const QJsonArray grasps = iterations.json().value("grasps").toArray();
    QCOMPARE(lines.size(), grasps.size() + 1);
    for (int i = 0; i < grasps.size(); ++i) {
      const QStringList cells = lines[i + 1].split(',');
      QCOMPARE(cells.size(), 6);
      QCOMPARE(cells[0].toInt(), i + 1);
      QCOMPARE(cells[1].toDouble(), grasps[i].toObject().value("energy").toDouble());
      QCOMPARE(cells[4] == "1", grasps[i].toObject().value("forceClosure").toBool());
    }
    QCOMPARE(cli(base + QStringList{"--iterations", "2000", "--csv", "--json"}).exitCode, 2);

    const QStringList evaluate = {"evaluate", "worlds/paralleljaw_box.xml", "--grasps", list, "--json"};
    const Run current = cli(evaluate + QStringList{"--from-pre-grasp"});
    const Run former = cli(evaluate + QStringList{"--from-pregrasp"});
    QVERIFY2(current.exitCode == 0, current.err.constData());
    QCOMPARE(former.out, current.out);
    QVERIFY(former.err.contains("note: --from-pregrasp is deprecated, use --from-pre-grasp"));
  }

  // grasp takes --contact-model (the README's example): the model decides what the contacts become.
  void graspTakesTheContactModel() {
    const QStringList args = {"grasp", "worlds/default.xml", "--json"};
    const Run point = cli(args + QStringList{"--contact-model", "point"});
    const Run soft = cli(args + QStringList{"--contact-model", "soft-finger"});
    QVERIFY2(point.exitCode == 0, point.err.constData());
    QVERIFY2(soft.exitCode == 0, soft.err.constData());
    QVERIFY(point.out != soft.out);
    QCOMPARE(cli(args + QStringList{"--contact-model", "nonsense"}).exitCode, 2);
  }

  // --settings in sensing and contact: the file's threshold and penalty group apply, explicit options override
  // them (sensing: the penalty stiffness of the squeezed hand; contact: the threshold finds other contacts).
  void settingsInSensingAndContact() {
    QTemporaryDir tmp;
    const QString ini = tmp.filePath("analysis.ini");
    QFile f(ini);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[analysis]\nthreshold_mm=5\n[penalty]\nstiffness_N_per_mm=10\n");
    f.close();
    const std::vector<std::pair<QStringList, QStringList>> cases = {
        {{"sensing", "worlds/default.xml", "--autograsp", "--json"}, {"--stiffness", "1000", "--threshold", "0.2"}},
        {{"contact", "worlds/default.xml", "--json"}, {"--threshold", "0.2"}}};
    for (const auto& [base, overrides] : cases) {
      const Run plain = cli(base);
      const Run file = cli(base + QStringList{"--settings", ini});
      const Run overridden = cli(base + QStringList{"--settings", ini} + overrides);
      QVERIFY2(plain.exitCode == 0 && file.exitCode == 0 && overridden.exitCode == 0,
               (plain.err + file.err + overridden.err).constData());
      QVERIFY2(file.out != plain.out, qPrintable(base.first()));
      QCOMPARE(overridden.out, plain.out);
      QCOMPARE(cli(base + QStringList{"--settings", tmp.filePath("missing.ini")}).exitCode, 2);
    }
    QCOMPARE(cli({"sensing", "worlds/default.xml", "--autograsp", "--json", "--settings", ini})
                 .json().value("stiffness_N_per_mm").toDouble(), 10.0);
  }
};

QTEST_GUILESS_MAIN(TestCliVocabulary)
#include "tst_cli_vocabulary.moc"
