#include "ModelResultView.h"

#include <QHeaderView>

#include "core/Json.h"

namespace sg::app {

namespace {

struct UnitSuffix {
  const char* suffix;  // as the engine writes it, after the last word ("_Pa_per_mm")
  const char* unit;    // shown
  double scale;        // value × scale in the shown unit
};

// Longest suffixes first: "_Pa_per_mm" before "_per_mm" and "_Pa", "_mm2" before "_mm".
constexpr UnitSuffix kSuffixes[] = {
    {"_Pa_per_mm", "kPa/mm", 1e-3}, {"_mm_per_s", "mm/s", 1}, {"_N_per_mm", "N/mm", 1}, {"_per_mm", "1/mm", 1},
    {"_mm2", "mm²", 1},             {"_Nmm", "N mm", 1},       {"_mm", "mm", 1},         {"_Pa", "kPa", 1e-3},
    {"_N", "N", 1},                 {"_rad", "rad", 1},        {"_deg", "°", 1},         {"_s", "s", 1},
};

const UnitSuffix* suffixOf(const QString& key) {
  for (const UnitSuffix& s : kSuffixes)
    if (key.endsWith(QLatin1String(s.suffix)) && key.size() > static_cast<int>(qstrlen(s.suffix)))
      return &s;
  return nullptr;
}

// "peakPressure" → "peak pressure", "fit1" → "fit 1", "bodyM" → "body M".
QString words(const QString& name) {
  QString out;
  for (int i = 0; i < name.size(); ++i) {
    const QChar c = name[i];
    const QChar before = i ? name[i - 1] : QChar();
    const bool newWord = i > 0 && ((c.isUpper() && !before.isUpper()) || (c.isDigit() && !before.isDigit()));
    if (newWord) out += QLatin1Char(' ');
    out += (c.isUpper() && i + 1 < name.size() && name[i + 1].isLower()) ? c.toLower() : c;
  }
  return out;
}

QString resultNumber(double v) { return QString::number(v, 'g', 6); }

}  // namespace

QString quantityLabel(const QString& key) {
  const UnitSuffix* s = suffixOf(key);
  if (!s) return words(key);
  return QObject::tr("%1 (%2)").arg(words(key.left(key.size() - static_cast<int>(qstrlen(s->suffix)))),
                                    QString::fromUtf8(s->unit));
}

QString quantityValue(const QString& key, const Json& value) {
  const UnitSuffix* s = suffixOf(key);
  const double scale = s ? s->scale : 1.0;
  switch (value.type()) {
    case Json::Type::Null: return QObject::tr("–");
    case Json::Type::Bool: return value.boolean(key.toStdString()) ? QObject::tr("yes") : QObject::tr("no");
    case Json::Type::Number: return resultNumber(value.number(key.toStdString()) * scale);
    case Json::Type::String: return QString::fromStdString(value.string(key.toStdString()));
    case Json::Type::Array: {
      QStringList items;
      for (const Json& item : value.items(key.toStdString())) items << quantityValue(key, item);
      return QStringLiteral("(%1)").arg(items.join(QStringLiteral(", ")));
    }
    case Json::Type::Object: return {};
  }
  return {};
}

ModelResultView::ModelResultView(QWidget* parent) : QTreeWidget(parent) {
  setObjectName("modelResultView");
  setColumnCount(2);
  setHeaderLabels({tr("Quantity"), tr("Value")});
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  setUniformRowHeights(true);
}

void ModelResultView::clearDescription() { clear(); }

void ModelResultView::setDescription(const Json& contact, const Json& model) {
  clear();
  const std::pair<const char*, const Json*> groups[] = {{"contact", &contact}, {"model", &model}};
  for (const auto& [name, tree] : groups) {
    if (tree->type() != Json::Type::Object || tree->members(name).empty()) continue;
    auto* group = new QTreeWidgetItem(this, {name == std::string("contact") ? tr("Contact") : tr("Model")});
    group->setData(0, Qt::UserRole, QString::fromLatin1(name));
    addMembers(group, QString::fromLatin1(name), *tree);
    group->setExpanded(true);
  }
}

void ModelResultView::addMembers(QTreeWidgetItem* parent, const QString& path, const Json& object) {
  for (const auto& [key, value] : object.members(path.toStdString()))
    addValue(parent, path + QLatin1Char('/') + QString::fromStdString(key), QString::fromStdString(key), value);
}

void ModelResultView::addValue(QTreeWidgetItem* parent, const QString& path, const QString& key, const Json& value) {
  auto* item = new QTreeWidgetItem(parent, {quantityLabel(key)});
  item->setData(0, Qt::UserRole, path);
  if (value.type() == Json::Type::Object) {
    addMembers(item, path, value);
    return;
  }
  const bool ofTrees = value.type() == Json::Type::Array && !value.items(key.toStdString()).empty() &&
                       (value.items(key.toStdString()).front().type() == Json::Type::Object ||
                        value.items(key.toStdString()).front().type() == Json::Type::Array);
  if (!ofTrees) {
    item->setText(1, quantityValue(key, value));
    item->setToolTip(1, item->text(1));
    return;
  }
  // An array of objects (surfaces, polygons) or of vectors (vertices): numbered children, the count as value.
  const auto& items = value.items(key.toStdString());
  item->setText(1, QString::number(items.size()));
  const int shown = std::min(static_cast<int>(items.size()), kMaxArrayItems);
  for (int k = 0; k < shown; ++k) {
    const Json& element = items[static_cast<std::size_t>(k)];
    const QString elementPath = path + QLatin1Char('/') + QString::number(k);
    if (element.type() == Json::Type::Object) {
      auto* child = new QTreeWidgetItem(item, {QString::number(k + 1)});
      child->setData(0, Qt::UserRole, elementPath);
      addMembers(child, elementPath, element);
    } else {
      auto* child = new QTreeWidgetItem(item, {QString::number(k + 1), quantityValue(key, element)});
      child->setData(0, Qt::UserRole, elementPath);
    }
  }
  if (static_cast<int>(items.size()) > shown)
    new QTreeWidgetItem(item, {tr("… %1 more").arg(static_cast<int>(items.size()) - shown)});
}

QTreeWidgetItem* ModelResultView::itemAt(const QString& path) const {
  QTreeWidgetItemIterator it(const_cast<ModelResultView*>(this));
  for (; *it; ++it)
    if ((*it)->data(0, Qt::UserRole).toString() == path) return *it;
  return nullptr;
}

QString ModelResultView::valueText(const QString& path) const {
  const QTreeWidgetItem* item = itemAt(path);
  return item ? item->text(1) : QString();
}

QString ModelResultView::labelText(const QString& path) const {
  const QTreeWidgetItem* item = itemAt(path);
  return item ? item->text(0) : QString();
}

}  // namespace sg::app
