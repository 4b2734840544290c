// The check catalog explains itself: every id of diagnostic_ids.h has a catalog row and an
// explanation, docs/checks.md is what the code generates, `--list-checks` / `--explain`, the
// closest-id suggestions and the SARIF rule help.
#include <set>
#include <string>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtTest/QtTest>

#include "core/diag/check_explanations.h"
#include "core/diag/diagnostic_ids.h"
#include "core/ops/explain.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString repoRoot()
{
    return QDir::cleanPath(test::samplesDir() + QStringLiteral("/../.."));
}

QString checksMdPath()
{
    return repoRoot() + QStringLiteral("/docs/checks.md");
}

// Every id string of core/diag/diagnostic_ids.h, in file order.
QStringList headerIds()
{
    QFile f(repoRoot() + QStringLiteral("/core/diag/diagnostic_ids.h"));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QString text = QString::fromUtf8(f.readAll());
    static const QRegularExpression re(
        QStringLiteral(R"(std::string_view\s+k\w+\s*=\s*"([a-z0-9]+\.[a-z0-9-]+)\")"));
    QStringList ids;
    for (auto it = re.globalMatch(text); it.hasNext();) {
        ids << it.next().captured(1);
    }
    return ids;
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

class TstCheckCatalog : public QObject {
    Q_OBJECT

private slots:
    void everyIdIsExplained();
    void explanationsAreWellFormed();
    void checksMdIsCurrent();
    void explainText();
    void listChecks();
    void closestIds();
    void cliExplain();
    void sarifRulesCarryHelp();
};

void TstCheckCatalog::everyIdIsExplained()
{
    const QStringList ids = headerIds();
    QVERIFY2(ids.size() >= 100, qPrintable(QStringLiteral("%1 ids read").arg(ids.size())));
    QStringList missing;
    for (const QString& id : ids) {
        const std::string s = id.toStdString();
        QVERIFY2(core::findCatalogEntry(s), qPrintable(id + QStringLiteral(": no catalog row")));
        if (!core::findExplanation(s)) {
            missing << id;
        }
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("no explanation in core/diag/check_explanations.cpp: ") +
                        missing.join(QStringLiteral(", "))));
    // Every catalog row is an id of the header, and every explanation names a catalog id.
    for (const core::CatalogEntry& e : core::diagnosticCatalog()) {
        QVERIFY2(ids.contains(q(e.id)),
                 qPrintable(q(e.id) + QStringLiteral(": not in the header")));
    }
    std::set<std::string_view> seen;
    for (const core::CheckExplanation& x : core::checkExplanations()) {
        QVERIFY2(core::findCatalogEntry(x.id),
                 qPrintable(q(x.id) + QStringLiteral(": explained but not in the catalog")));
        QVERIFY2(seen.insert(x.id).second,
                 qPrintable(q(x.id) + QStringLiteral(": explained twice")));
    }
}

void TstCheckCatalog::explanationsAreWellFormed()
{
    // The format of check_explanations.h.
    for (const core::CheckExplanation& x : core::checkExplanations()) {
        const QString id = q(x.id);
        const std::pair<const char*, std::string_view> fields[] = {
            {"summary", x.summary}, {"meaning", x.meaning}, {"why", x.why},
            {"limits", x.limits},   {"example", x.example}, {"fix", x.fix}};
        for (const auto& [name, text] : fields) {
            QVERIFY2(!text.empty(),
                     qPrintable(id + QStringLiteral(": empty ") + QLatin1String(name)));
            QVERIFY2(
                text.back() != '\n' && text.front() != ' ',
                qPrintable(id + QStringLiteral(": blank at an end of ") + QLatin1String(name)));
        }
        const QString summary = q(x.summary);
        QVERIFY2(!summary.contains(QLatin1Char('\n')) && summary.size() <= 90,
                 qPrintable(id + QStringLiteral(": summary must be one line of <= 90 chars")));
        QVERIFY2(!summary.endsWith(QLatin1Char('.')),
                 qPrintable(id + QStringLiteral(": summary ends with a period")));
        // Lower-case start, like the messages; a name (GoldSrc, DMX, QC) may lead.
        const QString firstWord = summary.section(QLatin1Char(' '), 0, 0);
        QVERIFY2(!(firstWord.at(0).isUpper() && firstWord.mid(1) == firstWord.mid(1).toLower()),
                 qPrintable(id + QStringLiteral(": summary starts upper-case")));
    }
}

void TstCheckCatalog::checksMdIsCurrent()
{
    const std::string generated = core::checksMarkdown();
    QFile f(checksMdPath());
    const bool bless = test::blessing();
    const QByteArray committed = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    f.close();
    if (committed == QByteArray::fromStdString(generated)) {
        return;
    }
    if (bless) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::fromStdString(generated));
        return;
    }
    QFAIL("docs/checks.md is stale (the catalog or an explanation changed). Regenerate it "
          "with:\n    cmake --build build -t checks_md\nand commit docs/checks.md.");
}

void TstCheckCatalog::explainText()
{
    for (const core::CatalogEntry& e : core::diagnosticCatalog()) {
        const std::string text = core::explainText(e.id);
        const QString t = QString::fromStdString(text);
        QVERIFY2(t.startsWith(q(e.id)), qPrintable(q(e.id)));
        QVERIFY(t.contains(QStringLiteral("See ") + q(core::kChecksDocUrl) + QLatin1Char('#') +
                           q(e.id)));
        if (const core::CheckExplanation* x = core::findExplanation(e.id)) {
            QVERIFY(t.contains(QStringLiteral("Why the compiler cares")));
            QVERIFY(t.contains(q(x->summary)));
            for (const QString& line : t.split(QLatin1Char('\n'))) {
                // Wrapped at 80 columns, except a single long word or an example line.
                QVERIFY2(line.size() <= 80 || !line.trimmed().contains(QLatin1Char(' ')) ||
                             line.startsWith(QStringLiteral("    ")) || line.startsWith(q(e.id)) ||
                             line.startsWith(QStringLiteral("See ")),
                         qPrintable(q(e.id) + QStringLiteral(": ") + line));
            }
        }
    }
    const QString sample = QString::fromStdString(core::explainText("weights.too-many-links"));
    QVERIFY(sample.contains(
        QStringLiteral("goldsrc warning, source warning, source256 warning, cod off")));
    QVERIFY(core::explainText("weights.too-many-link").empty());
}

void TstCheckCatalog::listChecks()
{
    const QStringList lines =
        QString::fromStdString(core::listChecksText()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), qsizetype(core::diagnosticCatalog().size()) + 1); // + legend
    QVERIFY(lines.at(0).startsWith(QLatin1Char('#')));
    const QStringList ids = headerIds();
    for (const QString& id : ids) {
        QCOMPARE(
            lines
                .filter(QRegularExpression(QStringLiteral("^") + QRegularExpression::escape(id) +
                                           QStringLiteral(" ")))
                .size(),
            1);
    }
    // id, family, severities G/S/2/C, summary
    const QStringList neg =
        lines.filter(QRegularExpression(QStringLiteral("^weights\\.negative ")));
    QCOMPARE(neg.size(), 1);
    const QStringList cols = neg.at(0).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QCOMPARE(cols.at(1), QStringLiteral("weights"));
    QCOMPARE(cols.at(2), QStringLiteral("-/E/E/E"));

    QJsonParseError err;
    const QJsonArray arr =
        QJsonDocument::fromJson(QByteArray::fromStdString(core::listChecksJson()), &err).array();
    QCOMPARE(err.error, QJsonParseError::NoError);
    QCOMPARE(arr.size(), qsizetype(core::diagnosticCatalog().size()));
    const QJsonObject first = arr.at(0).toObject();
    QCOMPARE(first.value(QLatin1String("id")).toString(), QStringLiteral("syntax.empty-file"));
    QCOMPARE(
        first.value(QLatin1String("severity")).toObject().value(QLatin1String("cod")).toString(),
        QStringLiteral("error"));
}

void TstCheckCatalog::closestIds()
{
    auto first = [](std::string_view s) {
        const auto v = core::closestCheckIds(s);
        return v.empty() ? QString() : q(v.front());
    };
    QCOMPARE(first("weights.too-many-link"), QStringLiteral("weights.too-many-links"));
    QCOMPARE(first("mesh.vertex-limt"), QStringLiteral("mesh.vertex-limit"));
    QCOMPARE(first("too-many-links"), QStringLiteral("weights.too-many-links"));
    QCOMPARE(first("weight.nan"), QStringLiteral("weights.nan"));
    QCOMPARE(first("skeleton.bones-limit"), QStringLiteral("skeleton.bone-limit"));
    QVERIFY(core::closestCheckIds("weights.nan", 3).size() <= 3);
    QVERIFY(core::closestCheckIds("zzzzzzzzzzzzzzzzzzzzzzzzzz").empty());
}

void TstCheckCatalog::cliExplain()
{
    const auto ok = test::runCli({QStringLiteral("check"), QStringLiteral("--explain"),
                                  QStringLiteral("skeleton.bone-limit")});
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.out, QByteArray::fromStdString(core::explainText("skeleton.bone-limit")));

    const auto bad =
        test::runCli({QStringLiteral("check"), QStringLiteral("--explain=skeleton.bone-limits")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.out.isEmpty());
    QVERIFY2(bad.err.contains("unknown check id 'skeleton.bone-limits'; did you mean "
                              "skeleton.bone-limit"),
             bad.err.constData());

    const auto list = test::runCli({QStringLiteral("check"), QStringLiteral("--list-checks")});
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.out, QByteArray::fromStdString(core::listChecksText()));
    const auto md = test::runCli({QStringLiteral("check"), QStringLiteral("--list-checks"),
                                  QStringLiteral("--format=markdown")});
    QCOMPARE(md.exitCode, 0);
    QCOMPARE(md.out, QByteArray::fromStdString(core::checksMarkdown()));
    const auto badFormat = test::runCli({QStringLiteral("check"), QStringLiteral("--list-checks"),
                                         QStringLiteral("--format=sarif")});
    QCOMPARE(badFormat.exitCode, 2);
}

void TstCheckCatalog::sarifRulesCarryHelp()
{
    const QString dir = test::fixturesDir() + QStringLiteral("/checks/");
    const auto r = test::runCli({QStringLiteral("check"), QStringLiteral("--format=sarif"),
                                 dir + QStringLiteral("weights.negative.smd"),
                                 dir + QStringLiteral("skeleton.duplicate-name.smd")});
    QCOMPARE(r.exitCode, 1);
    QJsonParseError err;
    const QJsonObject root = QJsonDocument::fromJson(r.out, &err).object();
    QCOMPARE(err.error, QJsonParseError::NoError);
    const QJsonArray rules = root.value(QLatin1String("runs"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QLatin1String("tool"))
                                 .toObject()
                                 .value(QLatin1String("driver"))
                                 .toObject()
                                 .value(QLatin1String("rules"))
                                 .toArray();
    QVERIFY(rules.size() >= 2);
    QFile md(checksMdPath());
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString doc = QString::fromUtf8(md.readAll());
    auto text = [](const QJsonObject& o, const char* key, const char* sub = "text") {
        return o.value(QLatin1String(key)).toObject().value(QLatin1String(sub)).toString();
    };
    for (const QJsonValue& v : rules) {
        const QJsonObject rule = v.toObject();
        const QString id = rule.value(QLatin1String("id")).toString();
        const core::CheckExplanation* x = core::findExplanation(id.toStdString());
        QVERIFY2(x, qPrintable(id));
        QCOMPARE(text(rule, "shortDescription"), q(x->summary));
        QCOMPARE(text(rule, "fullDescription"), q(x->meaning));
        QCOMPARE(text(rule, "help"), QString::fromStdString(core::explainText(x->id)));
        const QString markdown = text(rule, "help", "markdown");
        QVERIFY(markdown.contains(QStringLiteral("**Fix.** ") + q(x->fix)));
        QVERIFY(markdown.contains(QStringLiteral("```text\n") + q(x->example)));
        // helpUri: the id's anchor in docs/checks.md, which exists there.
        const QString uri = rule.value(QLatin1String("helpUri")).toString();
        QCOMPARE(uri, q(core::kChecksDocUrl) + QLatin1Char('#') + id);
        QVERIFY2(doc.contains(QStringLiteral("<a id=\"%1\"></a>").arg(id)), qPrintable(id));
    }
}

QTEST_APPLESS_MAIN(TstCheckCatalog)
#include "tst_check_catalog.moc"
