// `rigscope-cli check`: exit codes, text / JSON / SARIF output, folders, aggregation.
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString fx(const char* name)
{
    return test::fixturesDir() + QStringLiteral("/checks/") + QString::fromUtf8(name);
}

QStringList outLines(const test::ProcessResult& r)
{
    return QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TstCheckCli : public QObject {
    Q_OBJECT

private slots:
    void exitCodes();
    void textFormat();
    void werror();
    void aggregation();
    void folderAndReference();
    void json();
    void sarif();
};

void TstCheckCli::exitCodes()
{
    QCOMPARE(test::runCli({QStringLiteral("check"), fx("clean.smd")}).exitCode, 0);
    QCOMPARE(test::runCli({QStringLiteral("check"), fx("weights.negative.smd")}).exitCode, 1);
    // warnings only: 0
    QCOMPARE(test::runCli({QStringLiteral("check"), fx("weights.sum-not-one.smd")}).exitCode, 0);
    QCOMPARE(test::runCli({QStringLiteral("check"), fx("does-not-exist.smd")}).exitCode, 2);
    QCOMPARE(test::runCli({QStringLiteral("check"), QStringLiteral("--bogus"), fx("clean.smd")})
                 .exitCode,
             2);
    QCOMPARE(
        test::runCli({QStringLiteral("check"), QStringLiteral("--profile=hl3"), fx("clean.smd")})
            .exitCode,
        2);
    QCOMPARE(
        test::runCli({QStringLiteral("check"), QStringLiteral("--format=xml"), fx("clean.smd")})
            .exitCode,
        2);
    QCOMPARE(test::runCli({QStringLiteral("check")}).exitCode, 2);
    // I/O failure wins over errors
    QCOMPARE(test::runCli({QStringLiteral("check"), fx("weights.negative.smd"), fx("nope.smd")})
                 .exitCode,
             2);
}

void TstCheckCli::textFormat()
{
    const auto r = test::runCli({QStringLiteral("check"), fx("weights.negative.smd")});
    const QStringList lines = outLines(r);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].endsWith(QLatin1String("weights.negative.smd:13:1: error: weight -0.5 on bone "
                                            "'root' is negative [weights.negative]")));
    QCOMPARE(QString::fromUtf8(r.err).trimmed(),
             QStringLiteral("3 errors, 0 warnings, 0 notes in 1 file (profile source)"));
    const auto g = test::runCli(
        {QStringLiteral("check"), QStringLiteral("--profile=goldsrc"), fx("clean.smd")});
    QCOMPARE(QString::fromUtf8(g.err).trimmed(),
             QStringLiteral("0 errors, 0 warnings, 0 notes in 1 file (profile goldsrc)"));
}

void TstCheckCli::werror()
{
    const auto r = test::runCli(
        {QStringLiteral("check"), QStringLiteral("--werror"), fx("weights.sum-not-one.smd")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(outLines(r).first().contains(QLatin1String(": error: weights sum to 0.8")));
    QVERIFY(outLines(r).first().endsWith(QLatin1String("[weights.sum-not-one]")));
    QVERIFY(QString::fromUtf8(r.err).contains(QLatin1String("(3 warnings treated as errors)")));
    // notes never count
    QCOMPARE(test::runCli({QStringLiteral("check"), QStringLiteral("--werror"),
                           fx("mesh.null-material.smd")})
                 .exitCode,
             0);
}

void TstCheckCli::aggregation()
{
    const auto r = test::runCli(
        {QStringLiteral("check"), QStringLiteral("--max-per-check=1"), fx("weights.negative.smd")});
    const QStringList lines = outLines(r);
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[1].endsWith(
        QStringLiteral("weights.negative.smd:14:1: note: … and 2 more [weights.negative]")));
    QVERIFY(
        QString::fromUtf8(r.err).startsWith(QLatin1String("3 errors"))); // the summary counts all
    const auto all = test::runCli(
        {QStringLiteral("check"), QStringLiteral("--max-per-check=0"), fx("weights.negative.smd")});
    QCOMPARE(outLines(all).size(), 3);
    const auto off = test::runCli({QStringLiteral("check"), QStringLiteral("--disable=weights.*"),
                                   fx("weights.negative.smd")});
    QCOMPARE(off.exitCode, 0);
}

void TstCheckCli::folderAndReference()
{
    // A folder is checked recursively; the reference is found by its bones.
    const auto r = test::runCli({QStringLiteral("check"), fx("xref.anim-bone-missing")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(
        QString::fromUtf8(r.out).contains(QLatin1String("'extra' is not in reference 'ref.smd'")));
    QVERIFY(QString::fromUtf8(r.err).contains(QLatin1String("in 2 files")));
    // explicit reference; goldsrc makes a parent mismatch an error
    const auto g = test::runCli({QStringLiteral("check"), QStringLiteral("--profile=goldsrc"),
                                 QStringLiteral("--reference"), fx("xref.parent-mismatch/ref.smd"),
                                 fx("xref.parent-mismatch/anim.smd")});
    QCOMPARE(g.exitCode, 1);
    QVERIFY(QString::fromUtf8(g.out).contains(
        QLatin1String("error: 'b' has parent 'a' here, 'root' in ref.smd")));
    QVERIFY(QString::fromUtf8(g.out).contains(
        QLatin1String("note: reference declares parent here [xref.parent-mismatch]")));
    QCOMPARE(test::runCli({QStringLiteral("check"), QStringLiteral("--reference"),
                           fx("missing.smd"), fx("clean.smd")})
                 .exitCode,
             2);
}

void TstCheckCli::json()
{
    const auto r = test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"),
                                 fx("skeleton.duplicate-name.smd")});
    QCOMPARE(r.exitCode, 0);
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    const QJsonObject root = doc.object();
    QCOMPARE(
        root.value(QLatin1String("summary")).toObject().value(QLatin1String("warnings")).toInt(),
        1);
    const QJsonObject file = root.value(QLatin1String("files")).toArray().at(0).toObject();
    QCOMPARE(file.value(QLatin1String("profile")).toString(), QStringLiteral("source"));
    QCOMPARE(file.value(QLatin1String("budget")).toArray().size(), 4);
    // Going over the source vertex budget stops studiomdl: `over` says so.
    const QJsonObject vertices = file.value(QLatin1String("budget")).toArray().at(2).toObject();
    QCOMPARE(vertices.value(QLatin1String("name")).toString(), QStringLiteral("vertices"));
    QCOMPARE(vertices.value(QLatin1String("over")).toString(), QStringLiteral("error"));
    const QJsonObject d = file.value(QLatin1String("diagnostics")).toArray().at(0).toObject();
    for (const char* key : {"file", "line", "col", "offset", "severity", "id", "message", "profile",
                            "object", "related"}) {
        QVERIFY2(d.contains(QLatin1String(key)), key);
    }
    QCOMPARE(d.value(QLatin1String("id")).toString(), QStringLiteral("skeleton.duplicate-name"));
    QCOMPARE(d.value(QLatin1String("line")).toInt(), 5);
    const QJsonObject obj = d.value(QLatin1String("object")).toObject();
    QCOMPARE(obj.value(QLatin1String("kind")).toString(), QStringLiteral("bone"));
    QCOMPARE(obj.value(QLatin1String("index")).toInt(), 2);
    QCOMPARE(obj.value(QLatin1String("name")).toString(), QStringLiteral("child"));
    QCOMPARE(d.value(QLatin1String("related")).toArray().size(), 1);
}

void TstCheckCli::sarif()
{
    const auto r = test::runCli({QStringLiteral("check"), QStringLiteral("--format=sarif"),
                                 fx("weights.negative.smd"), fx("skeleton.duplicate-name.smd"),
                                 fx("hlu_headcrabbed#1.smd")});
    QCOMPARE(r.exitCode, 2); // the last one does not exist: still a valid log
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    const QJsonObject root = doc.object();
    // Required by the SARIF 2.1.0 schema: version, runs[].tool.driver.name; results need
    // message; what CI annotators read: ruleId, level, locations with uri and region.
    QCOMPARE(root.value(QLatin1String("version")).toString(), QStringLiteral("2.1.0"));
    QVERIFY(root.value(QLatin1String("$schema")).toString().contains(QLatin1String("sarif-2.1.0")));
    const QJsonArray runs = root.value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 1);
    const QJsonObject run = runs.at(0).toObject();
    const QJsonObject driver =
        run.value(QLatin1String("tool")).toObject().value(QLatin1String("driver")).toObject();
    QCOMPARE(driver.value(QLatin1String("name")).toString(), QStringLiteral("rigscope"));
    const QJsonArray rules = driver.value(QLatin1String("rules")).toArray();
    QVERIFY(rules.size() >= 2);
    QStringList ruleIds;
    for (const QJsonValue& v : rules) {
        const QJsonObject rule = v.toObject();
        ruleIds << rule.value(QLatin1String("id")).toString();
        QVERIFY(!rule.value(QLatin1String("shortDescription"))
                     .toObject()
                     .value(QLatin1String("text"))
                     .toString()
                     .isEmpty());
    }
    QVERIFY(ruleIds.contains(QStringLiteral("weights.negative")));
    const QJsonArray results = run.value(QLatin1String("results")).toArray();
    QCOMPARE(results.size(), 4);
    for (const QJsonValue& v : results) {
        const QJsonObject res = v.toObject();
        const QString id = res.value(QLatin1String("ruleId")).toString();
        QVERIFY(ruleIds.contains(id));
        QCOMPARE(ruleIds.at(res.value(QLatin1String("ruleIndex")).toInt()), id);
        QVERIFY(QStringList(
                    {QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("note")})
                    .contains(res.value(QLatin1String("level")).toString()));
        QVERIFY(!res.value(QLatin1String("message"))
                     .toObject()
                     .value(QLatin1String("text"))
                     .toString()
                     .isEmpty());
        const QJsonArray locs = res.value(QLatin1String("locations")).toArray();
        QCOMPARE(locs.size(), 1);
        const QJsonObject phys =
            locs.at(0).toObject().value(QLatin1String("physicalLocation")).toObject();
        const QString uri = phys.value(QLatin1String("artifactLocation"))
                                .toObject()
                                .value(QLatin1String("uri"))
                                .toString();
        QVERIFY(uri.endsWith(QLatin1String(".smd")));
        QVERIFY(!uri.contains(QLatin1Char(' ')));
        const QJsonObject region = phys.value(QLatin1String("region")).toObject();
        QVERIFY(region.value(QLatin1String("startLine")).toInt() >= 1);
        QVERIFY(region.value(QLatin1String("startColumn")).toInt() >= 1);
    }
    QCOMPARE(results.at(0).toObject().value(QLatin1String("level")).toString(),
             QStringLiteral("error"));
}

QTEST_APPLESS_MAIN(TstCheckCli)
#include "tst_check_cli.moc"
