// Issue 28: one JSON shape for a diagnostic. `check --format=json`, `info --json` and
// `info X.qc --json` write each diagnostic with core/ops/diagnostic_json.h: the same keys, and
// for the same file the same objects.
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

const QStringList kKeys{
    QStringLiteral("col"),     QStringLiteral("file"),    QStringLiteral("fix"),
    QStringLiteral("id"),      QStringLiteral("line"),    QStringLiteral("message"),
    QStringLiteral("object"),  QStringLiteral("offset"),  QStringLiteral("profile"),
    QStringLiteral("related"), QStringLiteral("severity")};

QJsonArray diagnosticsOf(const QJsonObject& file)
{
    return file.value(QStringLiteral("diagnostics")).toArray();
}

} // namespace

class TstDiagnosticJson : public QObject {
    Q_OBJECT

private slots:
    void checkAndInfoWriteTheSameObjects()
    {
        const QString file = test::fixturesDir() + QStringLiteral("/app/problems_mix.smd");
        const auto check =
            test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"), file});
        const auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), file});
        const QJsonArray fromCheck = diagnosticsOf(QJsonDocument::fromJson(check.out)
                                                       .object()
                                                       .value(QStringLiteral("files"))
                                                       .toArray()
                                                       .at(0)
                                                       .toObject());
        const QJsonArray fromInfo =
            diagnosticsOf(QJsonDocument::fromJson(info.out).array().at(0).toObject());
        QVERIFY(fromCheck.size() > 5);
        QCOMPARE(fromInfo.size(), fromCheck.size());
        for (qsizetype i = 0; i < fromCheck.size(); ++i) {
            const QJsonObject c = fromCheck.at(i).toObject();
            QCOMPARE(c.keys(), kKeys);
            QCOMPARE(fromInfo.at(i).toObject(), c);
        }
    }

    void qcReportsUseTheShapeToo()
    {
        const QString qc = test::fixturesDir() + QStringLiteral("/qc/checks/duplicate-name.qc");
        const auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), qc});
        const QJsonDocument doc = QJsonDocument::fromJson(info.out);
        const QJsonObject o = doc.isArray() ? doc.array().at(0).toObject() : doc.object();
        const QJsonArray diags = diagnosticsOf(o);
        QVERIFY(!diags.isEmpty());
        for (const QJsonValue& d : diags) {
            QCOMPARE(d.toObject().keys(), kKeys);
        }
    }
};

QTEST_GUILESS_MAIN(TstDiagnosticJson)
#include "tst_diagnostic_json.moc"
