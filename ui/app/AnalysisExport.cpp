#include "AnalysisExport.h"

#include <cmath>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>

#include "Document.h"
#include "GraspAnalysis.h"
#include "grasp/QualityMeasure.h"
#include "core/NumberFormat.h"

namespace sg::app {

namespace {

QJsonArray vec(const Vec3& v) { return QJsonArray{v.x(), v.y(), v.z()}; }

QString label(const World& world, const BodyHandle& h) {
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
  const auto& contacts = analysis.contacts();
  QJsonArray list;
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[static_cast<std::size_t>(i)];
    list.append(QJsonObject{{"index", i},
                            {"body1", label(world, c.side1.body)},
                            {"body2", label(world, c.side2.body)},
                            {"position1", vec(c.side1.p_WC_mm)},
                            {"normal1", vec(c.side1.n_W)},
                            {"position2", vec(c.side2.p_WC_mm)},
                            {"normal2", vec(c.side2.n_W)},
                            {"separation", c.separation_mm},
                            {"muStatic", c.muStatic},
                            {"muKinetic", c.muKinetic},
                            {"friction", kindOf(analysis, i)}});
  }
  QJsonObject out{{"file", doc.filePath()}, {"contactsFound", static_cast<int>(contacts.size())}, {"found", list}};
  const int g = analysis.graspableIndex();
  if (g >= 0 && g < static_cast<int>(world.graspables.size()))
    out.insert("graspable", QString::fromStdString(world.graspables[static_cast<std::size_t>(g)].name));
  if (const auto& e = analysis.evaluation()) {
    out.insert("contactModel", QString::fromStdString(e->contactModel));
    QJsonArray evaluated;
    for (const ContactEvaluation& c : e->contacts) {
      QJsonArray sources;
      for (int s : c.sourceContacts) sources.append(s);
      evaluated.append(QJsonObject{{"contacts", sources},
                                   {"merged", sources.size() > 1},
                                   {"body1", label(world, c.contact.side1.body)},
                                   {"body2", label(world, c.contact.side2.body)},
                                   {"position_mm", vec(c.onObject().p_WC_mm)},
                                   {"normal", vec(c.onObject().n_W)},
                                   {"model", QString::fromUtf8(toString(c.kind))},
                                   {"mu", c.mu}});
    }
    out.insert("contacts", evaluated);
    QJsonObject measures;
    // One value per measure, as softgrasp-cli quality's "measures" (ui/cli/QualityReport.h): null when there is
    // none, each ε with its certified bounds.
    for (const MeasureValue& m : e->measures) {
      const QualityMeasure* q = findQualityMeasure(m.measure);
      QJsonObject v{{"label", QString::fromStdString(q ? q->label() : m.measure)},
                    {"value", m.ok && std::isfinite(m.value) ? QJsonValue(m.value) : QJsonValue(QJsonValue::Null)},
                    {"ok", m.ok}};
      if (m.bounds) {
        v.insert("lowerBound", m.bounds->lower);
        v.insert("upperBound", m.bounds->upper);
        v.insert("gap", m.bounds->gap());
        v.insert("iterations", m.bounds->iterations);
        v.insert("converged", m.bounds->converged);
        v.insert("status", QString::fromStdString(m.bounds->status));
      }
      if (!m.message.empty()) v.insert("message", QString::fromStdString(m.message));
      measures.insert(QString::fromStdString(m.measure), v);
    }
    out.insert("measures", measures);
    out.insert("forceClosure", e->forceClosure());
  }
  return write(path, QJsonDocument(out).toJson(QJsonDocument::Indented), error);
}

bool exportContactsCsv(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error) {
  const World& world = doc.world();
  QString text = QStringLiteral("number,body1,body2,x_mm,y_mm,z_mm,nx,ny,nz,mu_static,mu_kinetic,type,separation_mm\n");
  const auto& contacts = analysis.contacts();
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[static_cast<std::size_t>(i)];
    QStringList row{QString::number(i + 1), csvField(label(world, c.side1.body)), csvField(label(world, c.side2.body))};
    for (int k = 0; k < 3; ++k) row << csvNumber(c.side1.p_WC_mm[k]);
    for (int k = 0; k < 3; ++k) row << csvNumber(c.side1.n_W[k]);
    row << csvNumber(c.muStatic) << csvNumber(c.muKinetic) << kindOf(analysis, i) << csvNumber(c.separation_mm);
    text += row.join(',') + '\n';
  }
  return write(path, text.toUtf8(), error);
}

}  // namespace sg::app
