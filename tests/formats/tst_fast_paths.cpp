// rigscope-test: LABELS slow TIMEOUT 600
// The SMD reader's shares on threads and its direct animation storage must not change anything:
// every file read on one thread with every pose kept for the sorting build, on one thread with
// poses straight into the animation, and cut into many shares (each read by the same grammar,
// spliced in order) gives the same model (locations included) and the same diagnostics. Inputs:
// every corpus SMD / VTA when present, our fixtures, a regular file with one irregularity
// planted at a time (tabs, CRLF, bare CR, comments, blank lines, unknown bones, v3 extra UVs,
// ...) and random edits of all of these.
// (Issue 16 first ran these against the reader it replaced, which had a second grammar.)
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/formats/smd/smd_reader.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString locText(const SourceLoc& l)
{
    return QStringLiteral("%1:%2@%3").arg(l.line).arg(l.column).arg(l.offset);
}

template <class T, class Eq>
QString firstDiff(const char* what, const std::vector<T>& a, const std::vector<T>& b, Eq eq)
{
    if (a.size() != b.size()) {
        return QStringLiteral("%1: %2 vs %3 entries")
            .arg(QLatin1String(what))
            .arg(a.size())
            .arg(b.size());
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!eq(a[i], b[i])) {
            return QStringLiteral("%1[%2] differs").arg(QLatin1String(what)).arg(i);
        }
    }
    return {};
}

QString whereDiff(const char* what, const std::vector<SourceLoc>& a,
                  const std::vector<SourceLoc>& b)
{
    if (a.size() != b.size()) {
        return QStringLiteral("%1: %2 vs %3 entries")
            .arg(QLatin1String(what))
            .arg(a.size())
            .arg(b.size());
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!(a[i] == b[i])) {
            return QStringLiteral("%1[%2]: %3 vs %4")
                .arg(QLatin1String(what))
                .arg(i)
                .arg(locText(a[i]), locText(b[i]));
        }
    }
    return {};
}

// "" when both results are the same in every respect the user can see, else the first
// difference.
QString difference(const ReadResult& a, const ReadResult& b)
{
    if (a.hasModel != b.hasModel) {
        return QStringLiteral("hasModel");
    }
    const QStringList da = test::formatted(a.diagnostics);
    const QStringList db = test::formatted(b.diagnostics);
    if (da != db) {
        for (qsizetype i = 0; i < std::min(da.size(), db.size()); ++i) {
            if (da[i] != db[i]) {
                return QStringLiteral("diagnostic %1: '%2' vs '%3'").arg(i).arg(da[i], db[i]);
            }
        }
        return QStringLiteral("%1 vs %2 diagnostics").arg(da.size()).arg(db.size());
    }
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
        const Diagnostic& x = a.diagnostics[i];
        const Diagnostic& y = b.diagnostics[i];
        if (x.element.kind != y.element.kind || x.element.index != y.element.index ||
            x.related.size() != y.related.size() || x.fixedSeverity != y.fixedSeverity) {
            return QStringLiteral("diagnostic %1 element / related / fixed").arg(i);
        }
    }
    if (!(a.model == b.model)) {
        return QStringLiteral("models differ");
    }
    const Mesh& x = a.model.mesh;
    const Mesh& y = b.model.mesh;
    for (const QString& d :
         {whereDiff("pointWhere", x.pointWhere, y.pointWhere),
          whereDiff("cornerWhere", x.cornerWhere, y.cornerWhere),
          whereDiff("triangleWhere", x.triangleWhere, y.triangleWhere),
          firstDiff("materials.where", x.materials, y.materials,
                    [](const Material&m, const Material&n) { return m.where == n.where; }),
          whereDiff("skeleton.where", a.model.skeleton.where, b.model.skeleton.where)}) {
        if (!d.isEmpty()) {
            return d;
        }
    }
    if (a.model.animations.size() == b.model.animations.size() && !a.model.animations.empty()) {
        const QString d = whereDiff("frameWhere", a.model.animations[0].frameWhere,
                                    b.model.animations[0].frameWhere);
        if (!d.isEmpty()) {
            return d;
        }
    }
    return {};
}

struct Mode {
    const char* name;
    unsigned threads;
    std::size_t minBytes;
    bool direct; // ReadContext::fastPaths: poses straight into the dense animation
};
// One thread with every pose kept for the sorting build (the reference), one thread, and shares
// small enough that every fixture is cut into several.
constexpr Mode kReference{"1 thread, poses sorted", 1, 1u << 22, false};
constexpr Mode kOne{"1 thread", 1, 1u << 22, true};
constexpr Mode kModes[] = {kOne, {"3 shares", 3, 1, true}, {"7 shares", 7, 64, true}};

ReadResult readWith(std::string_view bytes, const std::string& name, const Mode& mode)
{
    ReadContext ctx;
    ctx.fileName = name;
    ctx.threads = mode.threads;
    ctx.parallelMinBytes = mode.minBytes;
    ctx.fastPaths = mode.direct;
    return readSmd(bytes, ctx);
}

void compareModes(std::string_view bytes, const std::string& name)
{
    const ReadResult reference = readWith(bytes, name, kReference);
    QCOMPARE(reference.stats.parallelShares, 0u);
    for (const Mode& m : kModes) {
        const ReadResult r = readWith(bytes, name, m);
        const QString d = difference(reference, r);
        QVERIFY2(d.isEmpty(), qPrintable(QString::fromStdString(name) + QStringLiteral(" (") +
                                         QString::fromLatin1(m.name) + QStringLiteral("): ") + d));
        QCOMPARE(r.stats.fastLines, reference.stats.fastLines);
    }
}
// A regular reference: 6 bones, `tris` triangles over 3 materials, 1-3 links per corner.
std::vector<std::string> regularLines(int tris)
{
    std::vector<std::string> l{"version 1", "nodes"};
    for (int b = 0; b < 6; ++b) {
        l.push_back(std::to_string(b) + " \"bone" + std::to_string(b) + "\" " +
                    std::to_string(b - 1));
    }
    l.insert(l.end(), {"end", "skeleton", "time 0"});
    for (int b = 0; b < 6; ++b) {
        l.push_back(std::to_string(b) + " 0.000000 1.500000 -2.250000 0.1 0.2 0.3");
    }
    l.insert(l.end(), {"end", "triangles"});
    for (int t = 0; t < tris; ++t) {
        l.push_back(t % 5 == 4 ? "metal.vmt" : t % 3 ? "skin.bmp" : "eyes.bmp");
        for (int c = 0; c < 3; ++c) {
            const int k = t * 3 + c;
            std::string v = std::to_string(k % 6) + " " + std::to_string(k % 17) + ".125000 -" +
                            std::to_string(k % 11) + ".5 0.25 0.000000 0.000000 1.000000 0.5 0.75";
            if (k % 4 == 1) {
                v += " 1 " + std::to_string(k % 6) + " 1.000000";
            } else if (k % 4 == 2) {
                v += " 2 1 0.250000 2 0.750000";
            } else if (k % 4 == 3) {
                v += " 3 0 0.5 3 0.3 5 0.2";
            }
            l.push_back(v);
        }
    }
    l.push_back("end");
    return l;
}

std::string join(const std::vector<std::string>& lines, const char* eol = "\n")
{
    std::string s;
    for (const std::string& l : lines) {
        s += l;
        s += eol;
    }
    return s;
}

// Index of the first vertex line of triangle t in regularLines().
constexpr std::size_t kFirstTriangleLine = 19;
std::size_t vertexLine(int t, int c)
{
    return kFirstTriangleLine + static_cast<std::size_t>(t) * 4 + 1 + static_cast<std::size_t>(c);
}
std::size_t materialLine(int t)
{
    return kFirstTriangleLine + static_cast<std::size_t>(t) * 4;
}

} // namespace

class TstFastPaths : public QObject {
    Q_OBJECT

private slots:
    void regularFileTakesTheFastPaths();
    void plantedIrregularities_data();
    void plantedIrregularities();
    void lineEndings();
    void animationIrregularities_data();
    void animationIrregularities();
    void mutations();
    void fixtures_data();
    void fixtures();
    void corpus_data();
    void corpus();
};

// Without this the comparisons below could pass with no shares, or the inline scanners unused.
void TstFastPaths::regularFileTakesTheFastPaths()
{
    const std::vector<std::string> lines = regularLines(300);
    QCOMPARE(lines[materialLine(0)], std::string("eyes.bmp"));
    QCOMPARE(lines[materialLine(300)], std::string("end"));
    const std::string text = join(lines);
    const ReadResult r1 = readWith(text, "regular.smd", kOne);
    QCOMPARE(r1.model.mesh.triangleCount(), std::size_t(300));
    QCOMPARE(r1.stats.fastLines, std::uint64_t(7 + 1200)); // skeleton: time + 6 bones
    QCOMPARE(r1.stats.parallelShares, 0u);
    QVERIFY(r1.diagnostics.empty());
    const ReadResult r3 = readWith(text, "regular.smd", kModes[1]);
    QCOMPARE(r3.stats.fastLines, std::uint64_t(7 + 1200));
    QCOMPARE(r3.stats.parallelShares, 3u);
    QCOMPARE(difference(r1, r3), QString());
    QCOMPARE(r3.model.mesh.materials.size(), std::size_t(3));
    QCOMPARE(r3.model.mesh.materials[0].name, std::string("eyes.bmp"));
    QCOMPARE(r3.model.mesh.materials[1].name, std::string("skin.bmp"));
    QCOMPARE(r3.model.mesh.materials[2].name, std::string("metal.vmt"));
    // The last corner: line and column as a person counts them.
    const SourceLoc last = r3.model.mesh.cornerWhere.back();
    QCOMPARE(last.line, static_cast<std::uint32_t>(vertexLine(299, 2) + 1));
    QCOMPARE(last.column, 1u);
    QCOMPARE(text.substr(last.offset, 2), std::string("5 "));
    compareModes(text, "regular.smd");
}

void TstFastPaths::plantedIrregularities_data()
{
    QTest::addColumn<int>("triangle");
    QTest::addColumn<int>("kind");
    static const char* const kinds[] = {"tab",
                                        "tab many links",
                                        "trailing comment",
                                        "comment line",
                                        "blank line",
                                        "unknown bone",
                                        "unknown link",
                                        "extra field",
                                        "exponent",
                                        "plus sign",
                                        "16 digits",
                                        "bad number",
                                        "short line",
                                        "33 links",
                                        "non-ascii mat",
                                        "vertex-like material",
                                        "end early",
                                        "End case",
                                        "keyword material",
                                        "form feed",
                                        "bare CR",
                                        "v3 extra uv",
                                        "negative links",
                                        "nan",
                                        "end with blanks"};
    for (int k = 0; k < static_cast<int>(std::size(kinds)); ++k) {
        for (int t : {0, 1, 49, 50, 99}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 @%2").arg(QLatin1String(kinds[k])).arg(t)))
                << t << k;
        }
    }
}

void TstFastPaths::plantedIrregularities()
{
    QFETCH(int, triangle);
    QFETCH(int, kind);
    std::vector<std::string> l = regularLines(100);
    std::string& v = l[vertexLine(triangle, 1)];
    std::string& m = l[materialLine(triangle)];
    switch (kind) {
    case 0:
        v.replace(v.find(' '), 1, "\t");
        break;
    case 1:
        v = "0\t1 2 3 0 0 1 0.5 0.5 5 0 0.2 1 0.2 2 0.2 3 0.2 4 0.2";
        break;
    case 2:
        v += " // note";
        break;
    case 3:
        l.insert(l.begin() + static_cast<long>(vertexLine(triangle, 1)), "// comment");
        break;
    case 4:
        l.insert(l.begin() + static_cast<long>(vertexLine(triangle, 1)), "");
        break;
    case 5:
        v.replace(0, 1, "9");
        break;
    case 6:
        v = "0 1 2 3 0 0 1 0.5 0.5 1 42 1.0";
        break;
    case 7:
        v += " 7";
        break;
    case 8:
        v = "0 1.5e-005 2E3 3e+1 0 0 1 0.5 0.5";
        break;
    case 9:
        v = "0 +1 2 3 0 0 1 0.5 0.5";
        break;
    case 10:
        v = "0 1.234567890123456 2 3 0 0 1 0.5 0.5";
        break;
    case 11:
        v = "0 1.2.3 2 3 0 0 1 0.5 0.5";
        break;
    case 12:
        v = "0 1 2 3 0 0 1 0.5";
        break;
    case 13: {
        v = "0 1 2 3 0 0 1 0.5 0.5 33";
        for (int i = 0; i < 33; ++i) {
            v += " " + std::to_string(i % 6) + " 0.03";
        }
        break;
    }
    case 14:
        m = "sk\xC3\xAFn.bmp";
        break;
    case 15:
        m = "0 1 2 3 4 5 6 7 8";
        break;
    case 16:
        m = "end";
        break;
    case 17:
        m = "End";
        break;
    case 18:
        m = "skeleton";
        break;
    case 19:
        v.replace(v.find(' '), 1, "\f");
        break;
    case 20:
        v.replace(v.find(' '), 1, "\r");
        break;
    case 21:
        l[0] = "version 3";
        v += " 0.25 0.5";
        break;
    case 22:
        v = "0 1 2 3 0 0 1 0.5 0.5 -1 0 1";
        break;
    case 23:
        v = "0 nan 2 3 0 0 1 0.5 0.5";
        break;
    case 24:
        l[materialLine(100)] = "  end  ";
        break;
    default:
        QFAIL("unknown kind");
    }
    compareModes(join(l), "planted.smd");
}

void TstFastPaths::lineEndings()
{
    const std::vector<std::string> l = regularLines(120);
    compareModes(join(l, "\r\n"), "crlf.smd");
    compareModes(join(l, "\r"), "cr.smd");
    std::string mixed;
    for (std::size_t i = 0; i < l.size(); ++i) {
        mixed += l[i] + (i % 7 == 3 ? "\r\n" : "\n");
    }
    compareModes(mixed, "mixed.smd");
    std::string unterminated = join(l);
    unterminated.pop_back(); // no newline after the last 'end'
    compareModes(unterminated, "unterminated.smd");
    std::string truncated = join(l);
    truncated.resize(truncated.size() - 40); // the file ends inside a triangle
    compareModes(truncated, "truncated.smd");
    const ReadResult crlf = readWith(join(l, "\r\n"), "crlf.smd", kModes[1]);
    QCOMPARE(crlf.stats.parallelShares, 3u);
    QCOMPARE(crlf.stats.fastLines, std::uint64_t(7 + 480));
}

// An animation: 4 bones, 40 frames; one irregularity planted in frame 0, 1, 20 or 39.
void TstFastPaths::animationIrregularities_data()
{
    QTest::addColumn<int>("frame");
    QTest::addColumn<int>("kind");
    static const char* const kinds[] = {"none",
                                        "time comment",
                                        "fractional time",
                                        "negative time",
                                        "minus zero time",
                                        "Time case",
                                        "unknown bone",
                                        "pose before time",
                                        "extra field",
                                        "tab",
                                        "short pose",
                                        "exponent",
                                        "blank line",
                                        "comment line",
                                        "time only",
                                        "big time",
                                        "bad number",
                                        "repeated time",
                                        "out of order",
                                        "late bone",
                                        "skeleton before nodes",
                                        "second skeleton"};
    for (int k = 0; k < static_cast<int>(std::size(kinds)); ++k) {
        for (int f : {0, 1, 20, 39}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 @%2").arg(QLatin1String(kinds[k])).arg(f)))
                << f << k;
        }
    }
}

void TstFastPaths::animationIrregularities()
{
    QFETCH(int, frame);
    QFETCH(int, kind);
    std::vector<std::string> l{"version 1", "nodes",     "0 \"root\" -1", "1 \"a\" 0",
                               "2 \"b\" 1", "3 \"c\" 0", "end",           "skeleton"};
    const std::size_t first = l.size();
    for (int f = 0; f < 40; ++f) {
        l.push_back("time " + std::to_string(f));
        for (int b = 0; b < 4; ++b) {
            l.push_back(std::to_string(b) + " " + std::to_string(f) + ".5 -1.000000 0.25 0.1 " +
                        std::to_string(b) + ".000001 -3.141592");
        }
    }
    l.push_back("end");
    std::string& t = l[first + static_cast<std::size_t>(frame) * 5];
    std::string& p = l[first + static_cast<std::size_t>(frame) * 5 + 2];
    switch (kind) {
    case 0:
        break;
    case 1:
        t += " // smile";
        break;
    case 2:
        t = "time 1.5";
        break;
    case 3:
        t = "time -3";
        break;
    case 4:
        t = "time -0";
        break;
    case 5:
        t = "Time " + std::to_string(frame);
        break;
    case 6:
        p.replace(0, 1, "7");
        break;
    case 7:
        l.insert(l.begin() + static_cast<long>(first), "0 1 2 3 4 5 6");
        break;
    case 8:
        p += " 9";
        break;
    case 9:
        p.replace(1, 1, "\t");
        break;
    case 10:
        p = "1 2 3";
        break;
    case 11:
        p = "1 1e-3 2E+2 3 0 0 0";
        break;
    case 12:
        l.insert(l.begin() + static_cast<long>(first) + frame * 5 + 2, "");
        break;
    case 13:
        l.insert(l.begin() + static_cast<long>(first) + frame * 5 + 2, "// x");
        break;
    case 14:
        t = "time";
        break;
    case 15:
        t = "time 99999999999";
        break;
    case 16:
        p = "1 0x10 2 3 0 0 0";
        break;
    case 17:
        t = "time 5";
        break;
    case 18:
        t = "time " + std::to_string(40 - frame);
        break;
    case 19: // a bone declared after the skeleton block, posed in a second one
        l.insert(l.end(),
                 {"nodes", "4 \"late\" 0", "end", "skeleton", "time " + std::to_string(41 + frame),
                  "4 1 2 3 0 0 0", "0 1 2 3 0 0 0", "end"});
        break;
    case 20: {
        std::vector<std::string> nodes(l.begin() + 1, l.begin() + 7);
        l.erase(l.begin() + 1, l.begin() + 7);
        l.insert(l.end(), nodes.begin(), nodes.end());
        break;
    }
    case 21:
        l.insert(l.end(), {"skeleton", "time " + std::to_string(frame), "1 1 2 3 0 0 0", "end"});
        break;
    default:
        QFAIL("unknown kind");
    }
    const std::string text = join(l);
    compareModes(text, "anim.smd");
    if (kind == 0) {
        QCOMPARE(readWith(text, "anim.smd", kOne).stats.fastLines, std::uint64_t(200));
    }
}

// Deterministic random edits of every fixture and the regular file: bytes deleted, inserted
// (blanks, terminators, comment and number characters) or replaced, lines doubled or dropped.
void TstFastPaths::mutations()
{
    std::vector<std::pair<std::string, std::string>> inputs{
        {"regular.smd", join(regularLines(40))}};
    for (const QString& path :
         test::filesUnder(test::fixturesDir(), {QStringLiteral("smd"), QStringLiteral("vta")})) {
        inputs.emplace_back(QFileInfo(path).fileName().toStdString(), test::readBytes(path));
    }
    if (!test::corpusDir().isEmpty()) {
        for (const QString& path :
             test::filesUnder(test::corpusDir(), {QStringLiteral("smd"), QStringLiteral("vta")})) {
            if (QFileInfo(path).size() < (1 << 20)) {
                inputs.emplace_back("corpus " + QFileInfo(path).fileName().toStdString(),
                                    test::readBytes(path));
            }
        }
    }
    static const char kChars[] = " \t\r\n#;/\"-.e+0123456789xEnd\f";
    std::uint64_t s = 0x2545F4914F6CDD1Dull;
    auto rnd = [&s](std::size_t n) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return n == 0 ? std::size_t(0) : static_cast<std::size_t>((s >> 33) % n);
    };
    int compared = 0;
    for (const auto& [name, original] : inputs) {
        for (int m = 0; m < (name.starts_with("corpus ") ? 8 : 150); ++m) {
            std::string t = original;
            for (int edits = 1 + static_cast<int>(rnd(3)); edits > 0 && !t.empty(); --edits) {
                const std::size_t at = rnd(t.size());
                switch (rnd(6)) {
                case 0:
                    t.erase(at, 1 + rnd(3));
                    break;
                case 1:
                    t.insert(at, 1, kChars[rnd(sizeof kChars - 1)]);
                    break;
                case 2:
                    t[at] = kChars[rnd(sizeof kChars - 1)];
                    break;
                case 3:
                    t.resize(at);
                    break;
                default: {
                    const std::size_t b =
                        t.rfind('\n', at) == std::string::npos ? 0 : t.rfind('\n', at) + 1;
                    const std::size_t e = std::min(t.size(), t.find('\n', at) + 1);
                    const std::string lineText = t.substr(b, e - b);
                    if (rnd(2) == 0) {
                        t.insert(b, lineText);
                    } else {
                        t.erase(b, e - b);
                    }
                }
                }
            }
            compareModes(t, name + " #" + std::to_string(m));
            if (QTest::currentTestFailed()) {
                return;
            }
            ++compared;
        }
    }
    QVERIFY(compared >= 150 * 10);
}

void TstFastPaths::fixtures_data()
{
    test::addPathRows(test::fixturesDir(), {QStringLiteral("smd"), QStringLiteral("vta")});
}

void TstFastPaths::fixtures()
{
    QFETCH(QString, path);
    compareModes(test::readBytes(path), QFileInfo(path).fileName().toStdString());
}

void TstFastPaths::corpus_data()
{
    test::addPathRows(test::corpusDir(), {QStringLiteral("smd"), QStringLiteral("vta")});
}

void TstFastPaths::corpus()
{
    QFETCH(QString, path);
    if (path.isEmpty()) {
        QSKIP("corpus not present");
    }
    compareModes(test::readBytes(path), QFileInfo(path).fileName().toStdString());
}

QTEST_APPLESS_MAIN(TstFastPaths)
#include "tst_fast_paths.moc"
