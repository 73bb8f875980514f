#include "AnalysisExport.h"

#include <QSaveFile>
#include <QTextStream>

#include "Document.h"
#include "GraspAnalysis.h"
#include "grasp/AnalysisJson.h"
#include "core/NumberFormat.h"

namespace sg::app {

namespace {

QString exportLabel(const World& world, const BodyHandle& h) {
  return world.isValid(h) ? QString::fromStdString(world.bodyLabel(h)) : QStringLiteral("?");
}

// What the contact model made of contact i ("" when it is not in the evaluated grasp).
QString kindOf(const GraspAnalysis& analysis, int i) {
  const auto e = analysis.evaluationOfContact(i);
  return e ? QString::fromUtf8(toString(analysis.evaluation()->contacts.at(static_cast<std::size_t>(*e)).kind)) : QString();
}

bool write(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

// Shortest round-trip text, C locale: the same numbers as the engine's CSV and JSON files.
QString csvNumber(double v) { return QString::fromStdString(formatDouble(v)); }

QString csvField(QString text) {
  if (text.contains(',') || text.contains('"')) text = '"' + text.replace('"', QStringLiteral("\"\"")) + '"';
  return text;
}

}  // namespace

bool exportAnalysisJson(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error) {
  const World& world = doc.world();
  std::vector<const GraspEvaluation*> evaluations;
  // The live evaluation's ε are warm-started; the file gets them solved cold, the CLI's values (src/grasp/QUALITY.md
  // §Live warm and export cold).
  const std::optional<GraspEvaluation> cold = analysis.exportEvaluation();
  if (cold) evaluations.push_back(&*cold);
  // The engine's one analysis document, the one `softgrasp-cli quality --json` prints (src/grasp/AnalysisJson.h);
  // the hand reported is robot 0, the CLI's default --robot.
  const Json out = analysisJson({.file = doc.filePath().toStdString(),
                                 .world = world,
                                 .contacts = analysis.contacts(),
                                 .graspable = analysis.graspableIndex(),
                                 .evaluations = evaluations,
                                 .settings = analysis.settings().quality,
                                 .robot = world.robots.empty() ? -1 : 0,
                                 .warnings = world.loadWarnings()});
  return write(path, QByteArray::fromStdString(out.dump() + "\n"), error);
}

bool exportContactsCsv(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error) {
  const World& world = doc.world();
  QString text = QStringLiteral("number,body1,body2,x_mm,y_mm,z_mm,nx,ny,nz,mu_static,mu_kinetic,type,separation_mm\n");
  const auto& contacts = analysis.contacts();
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[static_cast<std::size_t>(i)];
    QStringList row{QString::number(i + 1), csvField(exportLabel(world, c.side1.body)),
                    csvField(exportLabel(world, c.side2.body))};
    for (int k = 0; k < 3; ++k) row << csvNumber(c.side1.p_WC_mm[k]);
    for (int k = 0; k < 3; ++k) row << csvNumber(c.side1.n_W[k]);
    row << csvNumber(c.muStatic) << csvNumber(c.muKinetic) << kindOf(analysis, i) << csvNumber(c.separation_mm);
    text += row.join(',') + '\n';
  }
  return write(path, text.toUtf8(), error);
}

}  // namespace sg::app
