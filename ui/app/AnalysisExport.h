#pragma once
// File > Export Contacts and Quality: the live analysis written as JSON (the engine's analysis document,
// src/grasp/AnalysisJson.h: the document `softgrasp-cli quality --json` prints for the same world and
// settings, without its hand-motion keys) or as CSV (one row per contact, the Contacts table's columns).
#include <QString>

namespace sg::app {

class Document;
class GraspAnalysis;

// Both return false (and leave `error` set) when the file cannot be written.
bool exportAnalysisJson(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error = nullptr);
bool exportContactsCsv(const Document& doc, const GraspAnalysis& analysis, const QString& path, QString* error = nullptr);

}  // namespace sg::app
