#pragma once
// File > Export Contacts and Quality: the live analysis written as JSON (the field names of
// `softgrasp-cli grasp --json` for the contacts and of `quality --json` for the evaluated contacts and the
// measures, ui/cli/README.md) or as CSV (one row per contact, the Contacts table's columns).
#include <QString>

namespace sg::app {

class Document;
class GraspAnalysis;

// Both return false (and leave `error` set) when the file cannot be written.
bool exportAnalysisJson(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error = nullptr);
bool exportContactsCsv(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error = nullptr);

}  // namespace sg::app
