// rigscope-test: LABELS slow
// Every corpus file under every profile: no crash; under auto no errors except the
// deliberately empty file (CHECKS.md: "no false errors on valid files").
#include <QtCore/QDir>
#include <QtTest/QtTest>

#include "core/ops/check.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

class TstCorpusChecks : public QObject {
    Q_OBJECT

private slots:
    void corpus_data();
    void corpus();
    void wholeCorpusAsFolders();
};

void TstCorpusChecks::corpus_data()
{
    QTest::addColumn<QString>("profile");
    for (const char* p : {"auto", "goldsrc", "source", "source256", "cod"}) {
        QTest::newRow(p) << QString::fromUtf8(p);
    }
}

void TstCorpusChecks::corpus()
{
    QFETCH(QString, profile);
    const QString dir = test::corpusDir();
    if (dir.isEmpty()) {
        QSKIP("corpus not present");
    }
    CheckOptions opt;
    opt.profile = *parseProfile(profile.toStdString());
    opt.maxPerCheck = 0;
    // One file at a time: no document, so no xref.
    const QStringList files = test::filesUnder(dir, {});
    QStringList errors;
    for (const QString& f : files) {
        if (f.endsWith(QLatin1String("MANIFEST.tsv"))) {
            continue;
        }
        // The corpus QCs name files the corpus does not hold (qc.missing-file by design):
        // tst_qc_reader checks each is reported once at its line.
        if (f.endsWith(QLatin1String(".qc"))) {
            continue;
        }
        const CheckRun run = runCheck({f.toStdString()}, opt);
        QCOMPARE(run.files.size(), std::size_t(1));
        QVERIFY2(run.files.front().readable, qPrintable(f));
        if (opt.profile == Profile::Auto &&
            !f.endsWith(QLatin1String("assimp_empty_invalid.smd"))) {
            for (const Diagnostic& d : run.files.front().diagnostics) {
                if (d.severity == Severity::Error) {
                    errors << QString::fromStdString(formatDiagnostic(d));
                }
            }
        }
    }
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
}

void TstCorpusChecks::wholeCorpusAsFolders()
{
    // The CLI's way: folders become documents (references discovered per folder).
    const QString dir = test::corpusDir();
    if (dir.isEmpty()) {
        QSKIP("corpus not present");
    }
    CheckOptions opt;
    const CheckRun run = runCheck({dir.toStdString()}, opt);
    QVERIFY(!run.ioFailure);
    QStringList errors;
    for (const CheckedFile& f : run.files) {
        if (QString::fromStdString(f.file).endsWith(QLatin1String("assimp_empty_invalid.smd"))) {
            continue;
        }
        for (const Diagnostic& d : f.diagnostics) {
            if (d.severity == Severity::Error) {
                errors << QString::fromStdString(formatDiagnostic(d));
            }
        }
    }
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    for (Profile p : {Profile::GoldSrc, Profile::Source, Profile::Source256, Profile::Cod}) {
        opt.profile = p;
        const CheckRun r = runCheck({dir.toStdString()}, opt);
        QVERIFY(!r.ioFailure);
        QVERIFY(checkExitCode(r) <= 1);
    }
}

QTEST_APPLESS_MAIN(TstCorpusChecks)
#include "tst_corpus_checks.moc"
