// The format tag of every JSON document (src/core/JsonFormat.h, docs/schemas/README.md): written first, read back,
// and refused with a message naming the file, the kind and version expected and what was found.
#include <QtTest>

#include <string>

#include "core/Error.h"
#include "core/Json.h"
#include "core/JsonFormat.h"

using namespace sg;

namespace {

const JsonFormat kThing{"thing", 2, {"softgrasp-thing"}};

// The message of the sg::Error checkFormat throws for `text`, or "" when it accepts it.
std::string refusal(const std::string& text) {
  try {
    (void)checkFormat(Json::parse(text), kThing, "/data/thing.json");
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestJsonFormat : public QObject {
  Q_OBJECT
 private slots:
  void nameIsPrefixed() { QCOMPARE(kThing.name(), std::string("softgrasp.thing")); }

  void tagComesFirstAndReplacesTheBodysOwn() {
    Json body = Json::object();
    body.set("a", 1);
    body.set("version", 99);
    body.set("format", "other");
    body.set("b", "x");
    const Json doc = withFormat(kThing, body);
    const auto& m = doc.members("doc");
    QCOMPARE(m.size(), std::size_t(4));
    QCOMPARE(m[0].first, std::string("format"));
    QCOMPARE(m[0].second.string("format"), std::string("softgrasp.thing"));
    QCOMPARE(m[1].first, std::string("version"));
    QCOMPARE(m[1].second.number("version"), 2.0);
    QCOMPARE(m[2].first, std::string("a"));
    QCOMPARE(m[3].first, std::string("b"));
    // Round trip through the writer and the parser.
    QCOMPARE(checkFormat(Json::parse(doc.dump()), kThing, "f.json"), 2);
    QCOMPARE(checkFormat(Json::parse(doc.dumpLine()), kThing, "f.json"), 2);
  }

  void acceptsEveryVersionUpToTheCurrentAndFormerNames() {
    QCOMPARE(checkFormat(Json::parse(R"({"format": "softgrasp.thing", "version": 1})"), kThing, "f"), 1);
    QCOMPARE(checkFormat(Json::parse(R"({"format": "softgrasp.thing", "version": 2, "x": 0})"), kThing, "f"), 2);
    QCOMPARE(checkFormat(Json::parse(R"({"format": "softgrasp-thing", "version": 1})"), kThing, "f"), 1);
  }

  void refusesWithFileExpectedAndFound_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("found");
    QTest::newRow("other kind") << R"({"format": "softgrasp.other", "version": 1})"
                                << R"(found format "softgrasp.other", version 1)";
    QTest::newRow("newer") << R"({"format": "softgrasp.thing", "version": 3})"
                           << R"(found format "softgrasp.thing", version 3 (newer than this program reads))";
    QTest::newRow("version 0") << R"({"format": "softgrasp.thing", "version": 0})" << "version 0";
    QTest::newRow("fractional") << R"({"format": "softgrasp.thing", "version": 1.5})" << "version 1.5";
    QTest::newRow("string version") << R"({"format": "softgrasp.thing", "version": "1"})" << R"(version "1")";
    QTest::newRow("null version") << R"({"format": "softgrasp.thing", "version": null})"
                                  << R"(a non-integer "version")";
    QTest::newRow("no format") << R"({"version": 1})" << R"(found no "format", version 1)";
    QTest::newRow("no version") << R"({"format": "softgrasp.thing"})" << R"(no "version")";
    QTest::newRow("format not a string") << R"({"format": 7, "version": 1})" << R"(found format 7)";
    QTest::newRow("not an object") << R"([1, 2])" << "not an object";
    // A former name is only an alias of this kind, not a licence for newer versions.
    QTest::newRow("former name, newer") << R"({"format": "softgrasp-thing", "version": 3})" << "version 3";
  }
  void refusesWithFileExpectedAndFound() {
    QFETCH(QString, text);
    QFETCH(QString, found);
    const std::string message = refusal(text.toStdString());
    QVERIFY2(!message.empty(), qPrintable(text));
    QVERIFY2(message.find("/data/thing.json") != std::string::npos, message.c_str());
    QVERIFY2(message.find("expected a softgrasp.thing document version 1 to 2") != std::string::npos, message.c_str());
    QVERIFY2(message.find(found.toStdString()) != std::string::npos, message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestJsonFormat)
#include "tst_json_format.moc"
