// The checks run after the model is shown, in the background (issue 7): a load shows its model
// before its checks finish; a profile change or another load supersedes a running check, and
// only the newest one's results are ever shown.
#include <atomic>

#include <QtCore/QFileInfo>
#include <QtCore/QSemaphore>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeView>

#include "app/document/command_line.h"
#include "app/document/document.h"
#include "app/widgets/problems_panel.h"
#include "core/diag/diagnostic.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString mixPath()
{
    return test::fixturesDir() + QStringLiteral("/app/problems_mix.smd");
}

QString samplePath()
{
    return test::samplesDir() + QStringLiteral("/sample_ref.smd");
}

// The sample's own reference is clean; its flex file has one note.
QString flexPath()
{
    return test::samplesDir() + QStringLiteral("/sample_flex.vta");
}

// Holds every check run at its start until released (the worker blocks in the hook).
struct CheckGate {
    QSemaphore open;
    std::atomic<int> started{0};
    void attach(app::Document& doc)
    {
        doc.setCheckStartHook([this] {
            ++started;
            open.acquire();
        });
    }
    void releaseAll() { open.release(1000); }
};

// What the checks of `paths` give, computed directly (synchronously) for `profile`.
QStringList expectedLines(const QStringList& paths, core::Profile profile)
{
    std::vector<app::LoadedFile> files;
    for (const QString& p : paths) {
        files.push_back(app::loadFile(p));
    }
    app::checkFiles(files, profile);
    QStringList out;
    for (const auto& f : files) {
        for (const auto& d : f.diagnostics) {
            core::Diagnostic shown = d;
            shown.file = QFileInfo(f.path).fileName().toStdString();
            out << QString::fromStdString(core::formatDiagnostic(shown));
        }
    }
    return out;
}

QStringList documentLines(const app::Document& doc)
{
    QStringList out;
    for (const auto& f : doc.files()) {
        for (const auto& d : f.diagnostics) {
            core::Diagnostic shown = d;
            shown.file = QFileInfo(f.path).fileName().toStdString();
            out << QString::fromStdString(core::formatDiagnostic(shown));
        }
    }
    return out;
}

// The file names of the rows the Problems model shows.
QSet<QString> rowFiles(const app::ProblemsModel& m)
{
    QSet<QString> out;
    for (int r = 0; r < m.rowCount(); ++r) {
        out << m.index(r, app::ProblemsModel::LocationColumn)
                   .data()
                   .toString()
                   .section(QLatin1Char(':'), 0, 0);
    }
    return out;
}

} // namespace

class TstBackgroundChecks : public QObject {
    Q_OBJECT

private slots:
    void modelIsShownBeforeTheChecksFinish()
    {
        CheckGate gate;
        app::Document doc;
        gate.attach(doc);
        app::ProblemsPanel panel;
        QAbstractItemModelTester tester(panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setDocument(&doc);
        QStringList events;
        connect(&doc, &app::Document::checksStarted, this,
                [&] { events << QStringLiteral("checksStarted"); });
        connect(&doc, &app::Document::loaded, this, [&] {
            events << QStringLiteral("loaded");
            // The model is there; its checks are not.
            QVERIFY(doc.primaryModel());
            QVERIFY(doc.isChecking());
            QVERIFY(doc.files().front().diagnostics.empty());
            QVERIFY(doc.budget().empty());
            QCOMPARE(panel.model()->rowCount(), 0);
        });
        connect(&doc, &app::Document::diagnosticsChanged, this,
                [&] { events << QStringLiteral("diagnosticsChanged"); });

        doc.open({mixPath()});
        QTRY_COMPARE(events.size(), 2);
        QCOMPARE(events, (QStringList{QStringLiteral("checksStarted"), QStringLiteral("loaded")}));
        QTRY_COMPARE(gate.started.load(), 1); // the check runs (held) while the model is shown
        QVERIFY(doc.isChecking());
        QVERIFY(!doc.isLoading());
        QCOMPARE(doc.activeProfile(), core::Profile::Source); // known before the checks
        QVERIFY2(panel.countsLabel()->text().startsWith(QStringLiteral("Checking")),
                 qPrintable(panel.countsLabel()->text()));
        QVERIFY(!panel.view()->isEnabled());
        QTest::qWait(50);
        QCOMPARE(events.size(), 2);

        gate.releaseAll();
        QTRY_COMPARE(events.size(), 3);
        QCOMPARE(events.back(), QStringLiteral("diagnosticsChanged"));
        QVERIFY(!doc.isChecking());
        QCOMPARE(panel.model()->rowCount(), 10);
        QCOMPARE(panel.countsLabel()->text(), QStringLiteral("2 errors · 5 warnings · 3 notes"));
        QVERIFY(panel.view()->isEnabled());
        QCOMPARE(doc.budget().size(), std::size_t(4));
        QCOMPARE(documentLines(doc), expectedLines({mixPath()}, core::Profile::Auto));
    }

    void profileChangeWhileCheckingEndsWithItsResults()
    {
        CheckGate gate;
        app::Document doc;
        gate.attach(doc);
        app::ProblemsPanel panel;
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QTRY_VERIFY(doc.primaryModel());
        QTRY_COMPARE(gate.started.load(), 1); // the auto check is running

        QList<core::Profile> shown; // the profile of every result the document announced
        connect(&doc, &app::Document::diagnosticsChanged, this,
                [&] { shown << doc.files().front().profile; });
        QSignalSpy started(&doc, &app::Document::checksStarted);
        doc.setProfile(core::Profile::GoldSrc);
        doc.setProfile(core::Profile::Source256);
        doc.setProfile(core::Profile::GoldSrc);
        QCOMPARE(started.count(), 3);
        QVERIFY(doc.isChecking());
        QCOMPARE(panel.countsLabel()->text(), QStringLiteral("Checking (profile goldsrc)…"));

        gate.releaseAll();
        QTRY_VERIFY(!doc.isChecking());
        QTest::qWait(100); // nothing stale arrives late
        QCOMPARE(shown, (QList<core::Profile>{core::Profile::GoldSrc}));
        QCOMPARE(doc.activeProfile(), core::Profile::GoldSrc);
        QVERIFY(!doc.files().front().guessed);
        QCOMPARE(documentLines(doc), expectedLines({mixPath()}, core::Profile::GoldSrc));
        QCOMPARE(doc.budget()[1].limit, std::size_t(100)); // goldsrc materials
        // At most one run at a time: the held auto run, then the newest request only.
        QCOMPARE(gate.started.load(), 2);

        // Back to auto with nothing held: the source results again.
        doc.setProfile(core::Profile::Auto);
        QTRY_VERIFY(!doc.isChecking());
        QCOMPARE(documentLines(doc), expectedLines({mixPath()}, core::Profile::Auto));
    }

    void anotherLoadMidCheckNeverShowsStaleProblems()
    {
        CheckGate gate;
        app::Document doc;
        gate.attach(doc);
        app::ProblemsPanel panel;
        QAbstractItemModelTester tester(panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QTRY_VERIFY(doc.primaryModel());
        QTRY_COMPARE(gate.started.load(), 1); // problems_mix's check is running

        // Every state the Problems dock goes through from here on.
        QList<QSet<QString>> seen;
        connect(panel.model(), &QAbstractItemModel::modelReset, this,
                [&] { seen << rowFiles(*panel.model()); });
        QSignalSpy loaded(&doc, &app::Document::loaded);
        doc.open({samplePath(), flexPath()});
        QTRY_COMPARE(loaded.count(), 1);
        QCOMPARE(QFileInfo(doc.primary()->path).fileName(), QStringLiteral("sample_ref.smd"));
        QCOMPARE(panel.model()->rowCount(), 0); // problems_mix's rows went with its model
        QVERIFY(doc.isChecking());

        gate.releaseAll();
        QTRY_VERIFY(!doc.isChecking());
        QTest::qWait(100);
        QCOMPARE(panel.model()->rowCount(), 1); // the sample's flex note
        for (const QSet<QString>& files : seen) {
            QVERIFY2(!files.contains(QStringLiteral("problems_mix.smd")), "stale problems shown");
        }
        QCOMPARE(rowFiles(*panel.model()), QSet<QString>{QStringLiteral("sample_flex.vta")});
        QCOMPARE(documentLines(doc),
                 expectedLines({samplePath(), flexPath()}, core::Profile::Auto));
        QCOMPARE(gate.started.load(), 2);
    }

    void checksOffForHeadlessRenders()
    {
        app::Document doc;
        doc.setChecksEnabled(false);
        QSignalSpy started(&doc, &app::Document::checksStarted);
        QSignalSpy changed(&doc, &app::Document::diagnosticsChanged);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.primaryModel());
        QVERIFY(!doc.isChecking());
        QCOMPARE(started.count(), 0);
        QCOMPARE(changed.count(), 0);
        QVERIFY(doc.files().front().diagnostics.empty());
    }

    // --force-reader: an SMD saved under a name no reader claims opens only when forced (the
    // CLI's option, same reader table).
    void forceReaderReadsWhateverTheName()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.dat"));
        QVERIFY(QFile::copy(mixPath(), path));
        {
            app::Document plain;
            plain.setChecksEnabled(false);
            plain.open({path});
            QVERIFY(plain.waitForLoaded());
            QVERIFY(plain.primaryModel()); // content detection finds the SMD anyway
        }
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write("version 1\nnodes\n0 \"root\" -1\nend\n");
        out.close();
        app::Document forced;
        forced.setChecksEnabled(false);
        forced.setForceReader("xmodel");
        QSignalSpy failed(&forced, &app::Document::loadFailed);
        forced.open({path});
        forced.waitForLoaded();
        // Read as XMODEL_EXPORT, an SMD is not one: the XMODEL reader's error, not an SMD model.
        QCOMPARE(failed.count(), 1);
        QVERIFY(!forced.primaryModel());
        QCOMPARE(forced.failedFiles().size(), std::size_t(1));
        QVERIFY(!forced.failedFiles().front().readerDiagnostics.empty());
        QCOMPARE(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.dat"),
                                           QStringLiteral("--force-reader=smd")})
                     .forceReader,
                 QStringLiteral("smd"));
        QVERIFY(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.dat"),
                                          QStringLiteral("--force-reader=quake")})
                    .error.contains(QStringLiteral("unknown reader 'quake'")));
        // Every profile the checks know, pathos included, is accepted and listed.
        QCOMPARE(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.qc"),
                                           QStringLiteral("--profile=pathos")})
                     .error,
                 QString());
        QVERIFY(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.qc"),
                                          QStringLiteral("--profile=quake")})
                    .error.endsWith(
                        QStringLiteral("(auto|goldsrc|source|source256|cod|pathos|afterburner)")));
    }

    void closingWhileCheckingIsSafe()
    {
        CheckGate gate;
        {
            app::Document doc;
            gate.attach(doc);
            doc.open({mixPath()});
            QTRY_COMPARE(gate.started.load(), 1);
            gate.releaseAll(); // the destructor waits for the running check
        }
        QCOMPARE(gate.started.load(), 1);
    }
};

QTEST_MAIN(TstBackgroundChecks)
#include "tst_background_checks.moc"
