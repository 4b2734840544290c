// DiagnosticSink's cap per id (issue 27 item 10): past the cap a sink keeps one summary row per
// id, severity and fixed severity, and every count stays exact.
#include <QtTest/QtTest>

#include "core/diag/diagnostic.h"
#include "core/diag/diagnostic_ids.h"

using namespace rigscope::core;

class TstDiagnosticSink : public QObject {
    Q_OBJECT

private slots:
    void uncappedKeepsAll();
    void capsPerIdWithExactCounts();
    void gradedScratchKeepsItsSeverity();
    void reportsAfterReadingGoOn();
};

void TstDiagnosticSink::uncappedKeepsAll()
{
    DiagnosticSink sink("a.smd");
    for (int i = 0; i < 2500; ++i) {
        sink.note(ids::kMeshUnnormalisedNormal, {static_cast<std::uint32_t>(i + 1), 1, 0}, "n");
    }
    QVERIFY(sink.keeps(ids::kMeshUnnormalisedNormal));
    QCOMPARE(sink.diagnostics().size(), std::size_t(2500));
    QCOMPARE(sink.count(Severity::Note), std::size_t(2500));
}

void TstDiagnosticSink::capsPerIdWithExactCounts()
{
    DiagnosticSink sink("a.smd");
    sink.setMaxPerId(10);
    for (int i = 0; i < 25; ++i) {
        sink.note(ids::kMeshUnnormalisedNormal, {static_cast<std::uint32_t>(i + 1), 1, 0},
                  "normal length 2");
        if (i % 5 == 0) {
            sink.warning(ids::kMeshMisdirectedNormals, {static_cast<std::uint32_t>(i + 1), 2, 0},
                         "reversed");
        }
    }
    QVERIFY(!sink.keeps(ids::kMeshUnnormalisedNormal));
    QVERIFY(sink.keeps(ids::kMeshMisdirectedNormals)); // 5 of 10
    QVERIFY(sink.keeps(ids::kMeshZeroNormal));
    const std::vector<Diagnostic> d = sink.take();
    QCOMPARE(d.size(), std::size_t(10 + 5 + 1));
    QCOMPARE(countSeverity(d, Severity::Note), std::size_t(25));
    QCOMPARE(countSeverity(d, Severity::Warning), std::size_t(5));
    const Diagnostic& s = d.back();
    QCOMPARE(s.id, ids::kMeshUnnormalisedNormal);
    QCOMPARE(s.omitted, std::uint32_t(15));
    QCOMPARE(s.count(), std::size_t(15));
    QCOMPARE(s.severity, Severity::Note);
    QCOMPARE(s.where.line, std::uint32_t(11)); // the first one left out
    QCOMPARE(s.message, std::string("… and 15 more"));
    QCOMPARE(s.file, std::string("a.smd"));
    for (std::size_t i = 0; i + 1 < d.size(); ++i) {
        QCOMPARE(d[i].omitted, std::uint32_t(0));
        QCOMPARE(d[i].count(), std::size_t(1));
    }
}

void TstDiagnosticSink::gradedScratchKeepsItsSeverity()
{
    // A check that grades what report() returned (grade(d, p, s)) grades the left-out ones too:
    // they are counted under the severity and fixedSeverity they end with.
    DiagnosticSink sink("a.smd");
    sink.setMaxPerId(1);
    for (int i = 0; i < 7; ++i) {
        Diagnostic& d = sink.note(ids::kMeshMisdirectedNormals,
                                  {static_cast<std::uint32_t>(i + 1), 1, 0}, "partly");
        if (i % 2 == 1) {
            d.severity = Severity::Warning;
            d.fixedSeverity = true;
        }
    }
    const std::vector<Diagnostic> d = sink.take();
    QCOMPARE(d.size(), std::size_t(3)); // the kept one, then a row per severity left out
    QCOMPARE(countSeverity(d, Severity::Note), std::size_t(4));    // lines 1, 3, 5, 7
    QCOMPARE(countSeverity(d, Severity::Warning), std::size_t(3)); // lines 2, 4, 6
    QCOMPARE(d[1].severity, Severity::Warning);
    QVERIFY(d[1].fixedSeverity);
    QCOMPARE(d[1].omitted, std::uint32_t(3));
    QCOMPARE(d[1].where.line, std::uint32_t(2));
    QCOMPARE(d[2].severity, Severity::Note);
    QVERIFY(!d[2].fixedSeverity);
    QCOMPARE(d[2].omitted, std::uint32_t(3));
    QCOMPARE(d[2].where.line, std::uint32_t(3));
}

void TstDiagnosticSink::reportsAfterReadingGoOn()
{
    // diagnostics() settles what was left out so far; reports after it are still capped and
    // counted (runModelChecks, then runSceneChecks on one sink).
    DiagnosticSink sink("a.smd");
    sink.setMaxPerId(2);
    for (int i = 0; i < 3; ++i) {
        sink.error(ids::kMeshNan, {1, 1, 0}, "x");
    }
    QCOMPARE(sink.diagnostics().size(), std::size_t(3));
    QCOMPARE(sink.count(Severity::Error), std::size_t(3));
    for (int i = 0; i < 4; ++i) {
        sink.error(ids::kMeshNan, {2, 1, 0}, "y");
    }
    QCOMPARE(sink.count(Severity::Error), std::size_t(7));
    QCOMPARE(sink.diagnostics().size(), std::size_t(4)); // 2 kept, 2 summary rows (1 + 4)
    QCOMPARE(sink.diagnostics()[3].omitted, std::uint32_t(4));
}

QTEST_APPLESS_MAIN(TstDiagnosticSink)
#include "tst_diagnostic_sink.moc"
