// Issue 15 item 1: a file cut short is an error under every profile, for every reader. Each
// fixture is cut at every byte offset; the cut file must carry an error with the integrity id
// (syntax.truncated; *_BIN: syntax.bin-corrupt when the LZ4 block itself is cut; binary DMX:
// dmx.syntax when the cut leaves a count claiming more than the bytes left) on the line where
// the file ends, under goldsrc, source, source256 and cod alike.
#include <QtTest/QtTest>

#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/formats/registry.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

constexpr Profile kProfiles[] = {Profile::GoldSrc, Profile::Source, Profile::Source256,
                                 Profile::Cod};

std::string fixtureBytes(const char* rel)
{
    return test::readBytes(test::fixturesDir() + QLatin1Char('/') + QLatin1String(rel));
}

// An XANIM with notetrack keys (the pose fixture has empty tracks).
const char* const kXanimWithNotes = "ANIMATION\n"
                                    "VERSION 3\n"
                                    "NUMPARTS 2\n"
                                    "PART 0 \"tag_origin\"\n"
                                    "PART 1 \"j_head\"\n"
                                    "FRAMERATE 30\n"
                                    "NUMFRAMES 2\n"
                                    "FRAME 260\n"
                                    "PART 0\n"
                                    "OFFSET 0.0000 0.0000 0.0000\n"
                                    "X 1.0000 0.0000 0.0000\n"
                                    "Y 0.0000 1.0000 0.0000\n"
                                    "Z 0.0000 0.0000 1.0000\n"
                                    "PART 1\n"
                                    "OFFSET 0.0000 0.0000 20.0000\n"
                                    "X 1.0000 0.0000 0.0000\n"
                                    "Y 0.0000 1.0000 0.0000\n"
                                    "Z 0.0000 0.0000 1.0000\n"
                                    "FRAME 261\n"
                                    "PART 0\n"
                                    "OFFSET 1.0000 0.0000 0.0000\n"
                                    "X 1.0000 0.0000 0.0000\n"
                                    "Y 0.0000 1.0000 0.0000\n"
                                    "Z 0.0000 0.0000 1.0000\n"
                                    "PART 1\n"
                                    "OFFSET 1.0000 0.0000 20.0000\n"
                                    "X 1.0000 0.0000 0.0000\n"
                                    "Y 0.0000 1.0000 0.0000\n"
                                    "Z 0.0000 0.0000 1.0000\n"
                                    "NOTETRACKS\n"
                                    "PART 0\n"
                                    "NUMTRACKS 1\n"
                                    "NOTETRACK 0\n"
                                    "NUMKEYS 2\n"
                                    "FRAME 260 \"start\"\n"
                                    "FRAME 261 \"end\"\n"
                                    "PART 1\n"
                                    "NUMTRACKS 0\n";

std::uint32_t lineAt(std::string_view text, std::size_t offset)
{
    std::uint32_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        line += text[i] == '\n' ? 1u : 0u;
    }
    return line;
}

bool isNumber(std::string_view tok)
{
    if (!tok.empty() && tok.front() == '+') {
        tok.remove_prefix(1);
    }
    double v = 0;
    const auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    return ec == std::errc() && p == tok.data() + tok.size();
}

std::vector<std::string_view> fields(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ',')) {
            ++i;
        }
        const std::size_t s = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ',') {
            ++i;
        }
        if (i > s) {
            out.push_back(line.substr(s, i - s));
        }
    }
    return out;
}

// A prefix no reader can tell from a whole file: it ends in the middle of a number on a line
// that has all its fields ("UV 1 0.5 0.1" of "UV 1 0.5 0.125", "PHONG -1.0" of "PHONG -1.0000").
bool lastNumberCut(std::string_view full, std::size_t cut)
{
    const std::size_t ls = full.rfind('\n', cut == 0 ? 0 : cut - 1);
    const std::size_t start = ls == std::string_view::npos ? 0 : ls + 1;
    std::size_t end = full.find('\n', start);
    end = end == std::string_view::npos ? full.size() : end;
    if (cut <= start || cut >= end) {
        return false;
    }
    const auto whole = fields(full.substr(start, end - start));
    const auto part = fields(full.substr(start, cut - start));
    return !part.empty() && part.size() == whole.size() && isNumber(part.back()) &&
           full[cut - 1] != ' ';
}

// Keyvalues2: the prefix ends outside every element (braces balanced, outside strings).
bool topLevel(std::string_view text)
{
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            quoted = !(c == '"' && text[i - 1] != '\\');
        } else if (c == '"') {
            quoted = true;
        } else {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        }
    }
    return depth == 0 && !quoted;
}

struct Expect {
    std::string_view id;
    std::string_view altId; // *_BIN: the LZ4 block cut
};

// Returns "" when the cut file is reported as expected under every profile.
QString checkCut(const std::string& full, std::size_t cut, const std::string& fileName, bool binary,
                 Expect expect)
{
    const std::string bytes = full.substr(0, cut);
    ReadContext ctx;
    ctx.fileName = fileName;
    const ReadResult r = readAny(bytes, ctx);
    if (r.hasModel) {
        const std::string broken = verifyInvariants(r.model);
        if (!broken.empty()) {
            return QStringLiteral("invariants: ") + QString::fromStdString(broken);
        }
    }
    // The line where the file ends: that of its last non-blank byte (readers skip a trailing
    // blank line) or of its last byte.
    std::size_t lastNonBlank = bytes.find_last_not_of(" \t\r\n");
    const std::uint32_t lineA = lineAt(bytes, lastNonBlank == std::string::npos ? 0 : lastNonBlank);
    const std::uint32_t lineB = lineAt(bytes, bytes.empty() ? 0 : bytes.size() - 1);
    for (Profile p : kProfiles) {
        std::vector<Diagnostic> diags = r.diagnostics;
        applyProfile(diags, p, false);
        bool found = false;
        for (const Diagnostic& d : diags) {
            if (d.severity != Severity::Error || (d.id != expect.id && d.id != expect.altId)) {
                continue;
            }
            if (binary ? d.where.offset <= cut : (d.where.line == lineA || d.where.line == lineB)) {
                found = true;
            }
        }
        if (!found) {
            QString all;
            for (const Diagnostic& d : diags) {
                all += QString::fromStdString(formatDiagnostic(d)) + QLatin1Char('\n');
            }
            return QStringLiteral("cut at %1 (line %2), profile %3: no %4 error; got\n%5")
                .arg(cut)
                .arg(lineA)
                .arg(QString::fromUtf8(profileName(p).data(), qsizetype(profileName(p).size())))
                .arg(QString::fromUtf8(expect.id.data(), qsizetype(expect.id.size())))
                .arg(all);
        }
    }
    return {};
}

std::string written(const char* rel, const char* format, const char* outName)
{
    const std::string src = fixtureBytes(rel);
    ReadContext ctx;
    ctx.fileName = rel;
    const ReadResult r = readAny(src, ctx);
    const FormatInfo* f = formatById(format);
    WriteContext w;
    w.fileName = outName;
    return f->write(r.model, w).bytes;
}

} // namespace

class TstTruncation : public QObject {
    Q_OBJECT
private slots:
    void textFormats_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<int>("from"); // first cut offset tested (after the header line)
        auto row = [](const char* name, const std::string& b, const char* file) {
            QTest::newRow(name) << QByteArray::fromStdString(b) << QString::fromLatin1(file)
                                << int(b.find('\n') + 6); // after 'nodes'
        };
        row("smd reference", fixtureBytes("pose/rig_ref.smd"), "rig_ref.smd");
        row("smd animation", fixtureBytes("pose/rig_anim.smd"), "rig_anim.smd");
        row("vta", fixtureBytes("vta/valid/shapes.vta"), "shapes.vta");
        const std::string xm = fixtureBytes("pose/cod_ref.xmodel_export");
        QTest::newRow("xmodel_export")
            << QByteArray::fromStdString(xm) << QStringLiteral("cod_ref.xmodel_export")
            << int(xm.find("MODEL\n") + 6);
        const std::string xa = kXanimWithNotes;
        QTest::newRow("xanim_export")
            << QByteArray::fromStdString(xa) << QStringLiteral("walk.xanim_export") << 10;
        const std::string xa2 = fixtureBytes("pose/cod_anim.xanim_export");
        QTest::newRow("xanim_export, empty tracks")
            << QByteArray::fromStdString(xa2) << QStringLiteral("cod_anim.xanim_export")
            << int(xa2.find("ANIMATION\n") + 10);
        const std::string nt = "FIRSTFRAME 260\nNUMFRAMES 2\nNUMKEYS 2\n"
                               "FRAME 260 \"start\"\nFRAME 261 \"end\"\n";
        QTest::newRow("nt_export")
            << QByteArray::fromStdString(nt) << QStringLiteral("walk.nt_export") << 15;
        const std::string kv2 = fixtureBytes("dmx/valid/tiny_kv2.dmx");
        QTest::newRow("dmx keyvalues2")
            << QByteArray::fromStdString(kv2) << QStringLiteral("tiny_kv2.dmx")
            << int(kv2.find('{') + 1); // the header alone is "the file holds no elements"
    }

    void textFormats()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, fileName);
        QFETCH(int, from);
        const std::string full = bytes.toStdString();
        const std::string name = fileName.toStdString();
        QVERIFY(from > 0 && std::size_t(from) < full.size());
        // The whole file is clean of the integrity id.
        {
            ReadContext ctx;
            ctx.fileName = name;
            for (const Diagnostic& d : readAny(full, ctx).diagnostics) {
                QVERIFY2(d.id != ids::kSyntaxTruncated, formatDiagnostic(d).c_str());
            }
        }
        // XANIM: NOTETRACKS may be absent, so a cut right after the last frame is a whole file.
        const std::size_t notes = full.find("NOTETRACKS");
        const std::size_t lastZ = notes == std::string::npos ? notes : full.rfind("\nZ ", notes);
        const std::size_t framesEnd =
            lastZ == std::string::npos ? lastZ : full.find('\n', lastZ + 1) + 1;
        int tested = 0;
        // XMODEL: material parameter lines vary between exporters, so after the last MATERIAL
        // line only a cut line (fewer fields than written) can be told from a whole file.
        const std::size_t lastMat = full.rfind("\nMATERIAL ");
        const std::size_t matEnd =
            lastMat == std::string::npos ? lastMat : full.find('\n', lastMat + 1);
        // the whole file but its final line ending is a whole file
        const std::size_t until = full.back() == '\n' ? full.size() - 1 : full.size();
        for (std::size_t cut = std::size_t(from); cut < until; ++cut) {
            std::string_view prefix(full.data(), cut);
            // SMD: a cut after a block's `end` leaves a whole file of fewer blocks.
            const std::size_t e = prefix.find_last_not_of(" \t\r\n");
            const std::string_view kept = prefix.substr(0, e + 1);
            if (kept.ends_with("\nend") || kept.ends_with("\nNOTETRACKS")) {
                continue; // an empty NOTETRACKS is whole: the notes may be in an NT_EXPORT
            }
            if (name.ends_with(".dmx") && topLevel(prefix)) {
                continue; // keyvalues2 cut between whole elements: dmx.bad-reference says more
            }
            // NOTETRACKS lists only the parts with notes: after a track's last key or an empty
            // track the file may end
            if (notes != std::string::npos && cut > notes &&
                (kept.ends_with("NUMTRACKS 0") || kept.ends_with("\""))) {
                continue;
            }
            if (framesEnd != std::string::npos && cut >= framesEnd - 1 && cut <= notes) {
                continue;
            }
            if (framesEnd != std::string::npos && cut > lastZ && cut < framesEnd &&
                lastNumberCut(full, cut)) {
                continue; // the last frame's last line, cut inside its last number
            }
            if (matEnd != std::string::npos && cut >= matEnd) {
                const std::size_t ls = full.rfind('\n', cut - 1) + 1;
                const std::size_t le = full.find('\n', ls);
                if (cut == ls || fields(full.substr(ls, cut - ls)).size() >=
                                     fields(full.substr(ls, le - ls)).size()) {
                    continue;
                }
            }
            if (lastNumberCut(full, cut) && full.find('\n', cut) >= full.size() - 1) {
                continue; // the last line, cut inside its last number
            }
            if (lastNumberCut(full, cut) && name.ends_with(".smd") &&
                full.find("\nend", cut) == full.find("\n", cut)) {
                continue;
            }
            const QString problem = checkCut(full, cut, name, false, {ids::kSyntaxTruncated, {}});
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            ++tested;
        }
        QVERIFY(tested > 100 || tested > int(full.size()) / 2);
    }

    void binaryFormats_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("altId");
        QTest::newRow("smdx") << QByteArray::fromStdString(
                                     written("pose/rig_ref.smd", "smdx", "rig_ref.smdx"))
                              << QStringLiteral("rig_ref.smdx") << QString();
        QTest::newRow("smdx animation")
            << QByteArray::fromStdString(written("pose/rig_anim.smd", "smdx", "rig_anim.smdx"))
            << QStringLiteral("rig_anim.smdx") << QString();
        QTest::newRow("xmodel_bin")
            << QByteArray::fromStdString(
                   written("pose/cod_ref.xmodel_export", "xmodel_bin", "cod_ref.xmodel_bin"))
            << QStringLiteral("cod_ref.xmodel_bin") << QStringLiteral("syntax.bin-corrupt");
        QTest::newRow("xanim_bin")
            << QByteArray::fromStdString(
                   written("pose/cod_anim.xanim_export", "xanim_bin", "cod_anim.xanim_bin"))
            << QStringLiteral("cod_anim.xanim_bin") << QStringLiteral("syntax.bin-corrupt");
        // Binary DMX: cut right after a count, the count claims more than the bytes left and
        // dmx.syntax says so (a hostile count reads the same).
        QTest::newRow("dmx binary 2")
            << QByteArray::fromStdString(fixtureBytes("dmx/valid/tiny_binary2.dmx"))
            << QStringLiteral("tiny_binary2.dmx") << QStringLiteral("dmx.syntax");
    }

    void binaryFormats()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, fileName);
        QFETCH(QString, altId);
        const std::string full = bytes.toStdString();
        QVERIFY(full.size() > 16);
        const std::string alt = altId.toStdString();
        const std::string_view altView = alt == "syntax.bin-corrupt" ? ids::kSyntaxBinCorrupt
                                         : alt == "dmx.syntax"       ? ids::kDmxSyntax
                                                                     : std::string_view{};
        // DMX: from the first byte after the header line.
        const std::size_t first = alt == "dmx.syntax" ? full.find('\n') + 1 : 9;
        for (std::size_t cut = first; cut < full.size(); ++cut) {
            const QString problem =
                checkCut(full, cut, fileName.toStdString(), true, {ids::kSyntaxTruncated, altView});
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    // The case: a half-written `BONE 5` line is cut, not "bone index 5 given twice".
    void halfWrittenBoneLine()
    {
        const std::string text =
            "MODEL\nVERSION 6\nNUMBONES 8\nBONE 0 -1 \"tag_origin\"\nBONE 1 0 \"a\"\n"
            "BONE 2 1 \"b\"\nBONE 3 2 \"c\"\nBONE 4 3 \"d\"\nBONE 5";
        ReadContext ctx;
        ctx.fileName = "cut.xmodel_export";
        const ReadResult r = readAny(text, ctx);
        QStringList lines = test::formatted(r.diagnostics);
        const QString all = lines.join(QLatin1Char('\n'));
        QVERIFY2(!all.contains(QStringLiteral("given twice")), qPrintable(all));
        QVERIFY2(
            all.contains(QStringLiteral(
                "cut.xmodel_export:9:1: error: file ends in the middle of a 'BONE' line (1 of 3 "
                "fields), after 5 of 8 bones; no NUMVERTS, NUMFACES, NUMOBJECTS, NUMMATERIALS "
                "[syntax.truncated]")),
            qPrintable(all));
    }

    // Messages say what is missing, with thousands separators.
    void countsInMessages()
    {
        std::string text = "MODEL\nVERSION 6\nNUMBONES 1\nBONE 0 -1 \"tag_origin\"\nBONE 0\n"
                           "OFFSET 0 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\nNUMVERTS 2212\n";
        for (int i = 0; i < 1204; ++i) {
            text += "VERT " + std::to_string(i) + "\nOFFSET 0 0 " + std::to_string(i) +
                    "\nBONES 1\nBONE 0 1\n";
        }
        ReadContext ctx;
        ctx.fileName = "big.xmodel_export";
        const ReadResult r = readAny(text, ctx);
        const QString all = test::formatted(r.diagnostics).join(QLatin1Char('\n'));
        QVERIFY2(all.contains(
                     QStringLiteral("error: file ends after 1,204 of 2,212 vertices; no NUMFACES, "
                                    "NUMOBJECTS, NUMMATERIALS [syntax.truncated]")),
                 qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("cod.count-mismatch")), qPrintable(all));

        const std::string smd =
            "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 0 0\n";
        ctx.fileName = "cut.smd";
        const QString smdAll =
            test::formatted(readAny(smd, ctx).diagnostics).join(QLatin1Char('\n'));
        QVERIFY2(smdAll.contains(
                     QStringLiteral("cut.smd:12:18: error: file ends after 2 of 3 vertex lines of "
                                    "triangle 0 (material line 10); no 'end' [syntax.truncated]")),
                 qPrintable(smdAll));
    }

    // `check --profile=source` on a truncated XMODEL exits 1 (it exited 0).
    void checkExitsOneUnderEveryProfile()
    {
        const QString path = test::outputDir() + QStringLiteral("/truncated.xmodel_export");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const std::string full = fixtureBytes("pose/cod_ref.xmodel_export");
        f.write(full.substr(0, full.find("NUMFACES") + 20).c_str());
        f.close();
        for (const char* p : {"goldsrc", "source", "source256", "cod", "auto"}) {
            const auto r = test::runCli(
                {QStringLiteral("check"), QStringLiteral("--profile=") + QLatin1String(p), path});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.out.contains("[syntax.truncated]"), r.out.constData());
        }
    }
};

QTEST_APPLESS_MAIN(TstTruncation)
#include "tst_truncation.moc"
