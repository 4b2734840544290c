// rigscope-test: LABELS slow TIMEOUT 600
// Every corpus SMD / VTA: sound model, no error under the auto profile (except the deliberately
// empty file), counts that match an independent line count and MANIFEST.tsv, plus a generated
// ~100 MB reference read on two threads and on one (same model; the rate is printed only).
#include <chrono>

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/diag/severity.h"
#include "core/formats/smd/smd_reader.h"
#include "core/text/ascii.h"
#include "core/text/text_cursor.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

struct LineCounts {
    std::size_t timeLines = 0;     // `time` lines in every block
    std::size_t triangleLines = 0; // non-blank lines inside `triangles`
};

bool startsWord(std::string_view line, std::string_view word)
{
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
        ++i;
    }
    line.remove_prefix(i);
    if (line.size() < word.size() || !asciiIEquals(line.substr(0, word.size()), word)) {
        return false;
    }
    return line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t';
}

// Deliberately simple: split on \n, strip \r, look at first words.
LineCounts countLines(const std::string& bytes)
{
    LineCounts c;
    bool inTriangles = false;
    std::size_t start = 0;
    while (start <= bytes.size()) {
        std::size_t end = bytes.find('\n', start);
        if (end == std::string::npos) {
            end = bytes.size();
        }
        std::string_view line(bytes.data() + start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        const std::string_view t = trim(line);
        if (inTriangles) {
            if (t == "end") {
                inTriangles = false;
            } else if (!t.empty()) {
                ++c.triangleLines;
            }
        } else if (t == "triangles") {
            inTriangles = true;
        } else if (startsWord(line, "time")) {
            ++c.timeLines;
        }
        start = end + 1;
    }
    return c;
}

// MANIFEST.tsv: file name -> "N time-frames" from the notes column.
QHash<QString, int> manifestFrames(const QString& dir)
{
    QHash<QString, int> out;
    QFile f(dir + QStringLiteral("/MANIFEST.tsv"));
    if (!f.open(QIODevice::ReadOnly)) {
        return out;
    }
    static const QRegularExpression re(QStringLiteral("(\\d+) time-frames"));
    for (const QByteArray& raw : f.readAll().split('\n')) {
        const QStringList cols = QString::fromUtf8(raw).split(u'\t');
        if (cols.size() < 2) {
            continue;
        }
        const QRegularExpressionMatch m = re.match(cols.last());
        if (m.hasMatch()) {
            out.insert(cols[1], m.captured(1).toInt());
        }
    }
    return out;
}

} // namespace

class TstCorpusSmd : public QObject {
    Q_OBJECT

private slots:
    void corpus_data();
    void corpus();
    void largeReference();
};

void TstCorpusSmd::corpus_data()
{
    test::addPathRows(test::corpusDir(), {QStringLiteral("smd"), QStringLiteral("vta")});
}

void TstCorpusSmd::corpus()
{
    QFETCH(QString, path);
    if (path.isEmpty()) {
        QSKIP("corpus not present");
    }
    const QString name = QFileInfo(path).fileName();
    ReadResult r = test::readPath(path, test::corpusDir());
    QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    std::vector<Diagnostic> diags = r.diagnostics;
    applyProfile(diags, resolveProfile(r.model, Profile::Auto), true);
    if (name == QStringLiteral("assimp_empty_invalid.smd")) {
        QVERIFY(!r.hasModel);
        QVERIFY(countSeverity(diags, Severity::Error) > 0);
        return;
    }
    QVERIFY(r.hasModel);
    QVERIFY2(countSeverity(diags, Severity::Error) == 0,
             qPrintable(test::formatted(diags).join(u'\n')));

    const std::string bytes = test::readBytes(path);
    const LineCounts lc = countLines(bytes);
    const std::size_t skeletonFrames =
        r.model.animations.empty() ? 0 : r.model.animations[0].frameCount();
    QCOMPARE(skeletonFrames + r.model.vertexFrames.size(), lc.timeLines);
    QCOMPARE(r.model.mesh.triangleCount() * 4, lc.triangleLines);
    const QHash<QString, int> manifest = manifestFrames(test::corpusDir());
    if (manifest.contains(name)) {
        QCOMPARE(static_cast<int>(lc.timeLines), manifest.value(name));
    }
    const bool vta = path.endsWith(QStringLiteral(".vta"), Qt::CaseInsensitive);
    QCOMPARE(r.model.kind, vta ? ModelKind::Flex
                               : (r.model.mesh.triangleCount() > 0 ? ModelKind::Reference
                                                                   : ModelKind::Animation));
    QCOMPARE(r.model.format, std::string(vta ? "vta" : "smd"));
    if (vta) {
        QVERIFY(!r.model.vertexFrames.empty());
        QCOMPARE(r.model.flexShapes.size(), r.model.vertexFrames.size() - 1);
    }
}

void TstCorpusSmd::largeReference()
{
    // A reference like real exports: 60 bones, ~1.2M vertex lines with 1-3 links.
    std::string text = "version 1\nnodes\n";
    for (int b = 0; b < 60; ++b) {
        text += std::to_string(b) + " \"Bip01 bone " + std::to_string(b) + "\" " +
                std::to_string(b - 1) + "\n";
    }
    text += "end\nskeleton\ntime 0\n";
    for (int b = 0; b < 60; ++b) {
        text += std::to_string(b) + " 1.234567 -0.000001 12.5 0.785398 -1.570796 3.141592\n";
    }
    text += "end\ntriangles\n";
    const std::size_t target = 100u << 20;
    text.reserve(target + 4096);
    std::size_t t = 0;
    while (text.size() < target) {
        text += t % 7 ? "models/hero/skin_body.tga\n" : "models/hero/skin_head.tga\n";
        for (int c = 0; c < 3; ++c) {
            const std::string i = std::to_string((t * 3 + static_cast<std::size_t>(c)) % 1000);
            text += "0 -12.345678 " + i +
                    ".125 45.000001 0.577350 -0.577350 0.577350 0.123456 0.876543 ";
            text += c == 0   ? "1 5 1.000000\n"
                    : c == 1 ? "2 5 0.750000 6 0.250000\n"
                             : "3 5 0.5 6 0.3 7 0.2\n";
        }
        ++t;
    }
    text += "end\n";
    // Read on two threads (shares spliced) and on one: the same model, every line on the fast
    // path. Speed is measured by rigscope-bench, not here; the time is only printed.
    ReadContext ctx;
    ctx.fileName = "big.smd";
    ctx.threads = 2;
    const auto t0 = std::chrono::steady_clock::now();
    ReadResult r = readSmd(text, ctx);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double mbs = static_cast<double>(text.size()) / 1e6 / s;
    qInfo("read %.1f MB in %.2f s: %.1f MB/s (%zu triangles)",
          static_cast<double>(text.size()) / 1e6, s, mbs, r.model.mesh.triangleCount());
    QCOMPARE(r.model.mesh.triangleCount(), t);
    QVERIFY(r.diagnostics.empty());
    QCOMPARE(r.stats.parallelShares, 2u);
    QCOMPARE(r.stats.fastLines, std::uint64_t(1 + 60 + 4 * t)); // time 0, 60 poses, triangles
    ctx.threads = 1;
    const ReadResult one = readSmd(text, ctx);
    QCOMPARE(one.stats.parallelShares, 0u);
    QVERIFY(one.model == r.model);
    QVERIFY(one.model.mesh.cornerWhere == r.model.mesh.cornerWhere);
    QVERIFY(one.model.mesh.triangleWhere == r.model.mesh.triangleWhere);
}

QTEST_APPLESS_MAIN(TstCorpusSmd)
#include "tst_corpus_smd.moc"
