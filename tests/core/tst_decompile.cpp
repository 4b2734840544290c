// rigscope-test: TIMEOUT 300
// Issue 30 item 4: `convert X.mdl OUT.qc` decompiles a compiled model into a QC with its SMD /
// VTA files; read back through the QC pipeline (`info X.qc`'s) it gives the compiled model's
// figures, and `compare OUT.qc X.mdl` finds no difference. The public models are read from
// RIGSCOPE_TESTDATA (default /work/data) when present.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "core/formats/mdl/compiled_model.h"
#include "core/ops/compare.h"
#include "core/ops/decompile.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "core/project/qc_textures.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/public_data.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString dataRoot()
{
    const QByteArray env = qgetenv("RIGSCOPE_TESTDATA");
    return env.isEmpty() ? QStringLiteral("/work/data") : QString::fromLocal8Bit(env);
}

void write(const QString& path, const std::string& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
}

std::string differences(const CompareReport& r)
{
    std::string s;
    for (const CompareDifference& d : r.differences) {
        s += d.field + ": predicted " + d.predicted + ", compiled " + d.compiled + "\n";
    }
    return s;
}

// How many of `notes` hold `words`.
int notesWith(const std::vector<std::string>& notes, std::string_view words)
{
    return static_cast<int>(std::count_if(notes.begin(), notes.end(), [&](const std::string& n) {
        return n.find(words) != std::string::npos;
    }));
}

// Decompiles `mdl` into `dir`/`name`.qc and compares it with the .mdl (file times ignored: the
// decompiled files are newer by construction). Returns the report.
CompareReport roundTrip(const QString& mdl, const QString& dir, const QString& name)
{
    const std::string qc = QDir(dir).filePath(name + QStringLiteral(".qc")).toStdString();
    const DecompileResult d = decompileFile(mdl.toStdString(), qc, {});
    if (d.exitCode != 0) {
        qWarning("decompile: %s", d.error.c_str());
        return {};
    }
    CompareOptions opt;
    opt.ignoreTimestamps = true;
    return compareQcToCompiled(qc, mdl.toStdString(), opt);
}

// Position (1e-3) and UV (1e-4) of every triangle corner of the SMD files of a QC report's
// bodies, for matching against another project's.
struct Corner {
    Vec3 p;
    Vec2 uv;
};
std::vector<Corner> cornersOf(const Model& m)
{
    std::vector<Corner> out;
    for (std::size_t c = 0; c < m.mesh.cornerCount(); ++c) {
        out.push_back({m.mesh.pointPositions[m.mesh.cornerPoints[c]], m.mesh.cornerUvs[c]});
    }
    return out;
}

// How many of `a`'s corners have a corner of `b` within the tolerances (per axis; at most
// 0.01 for the position).
std::size_t matched(const std::vector<Corner>& a, const std::vector<Corner>& b,
                    float posTolerance = 1e-3f, float uvTolerance = 1e-4f)
{
    std::map<std::array<long, 3>, std::vector<std::size_t>> grid;
    const auto cell = [](const Vec3& p) {
        return std::array<long, 3>{std::lround(p.x() * 100), std::lround(p.y() * 100),
                                   std::lround(p.z() * 100)};
    };
    for (std::size_t i = 0; i < b.size(); ++i) {
        grid[cell(b[i].p)].push_back(i);
    }
    std::size_t n = 0;
    for (const Corner& c : a) {
        const auto k = cell(c.p);
        bool found = false;
        for (long dx = -1; dx <= 1 && !found; ++dx) {
            for (long dy = -1; dy <= 1 && !found; ++dy) {
                for (long dz = -1; dz <= 1 && !found; ++dz) {
                    const auto it = grid.find({k[0] + dx, k[1] + dy, k[2] + dz});
                    if (it == grid.end()) {
                        continue;
                    }
                    for (const std::size_t i : it->second) {
                        if ((b[i].p - c.p).cwiseAbs().maxCoeff() <= posTolerance &&
                            (b[i].uv - c.uv).cwiseAbs().maxCoeff() <= uvTolerance) {
                            found = true;
                            break;
                        }
                    }
                }
            }
        }
        n += found ? 1 : 0;
    }
    return n;
}

// `bytes` written as `dir`/test.mdl with its sequence group test01.mdl; the .mdl's path.
QString writeGoldsrcTest(const QString& dir, const test::GoldsrcMdlBytes& bytes)
{
    QString mdl = QDir(dir).filePath(QStringLiteral("test.mdl"));
    write(mdl, bytes.mdl);
    write(QDir(dir).filePath(QStringLiteral("test01.mdl")), bytes.sequenceGroups.at(0));
    return mdl;
}

// An 8-bit BMP read as HL1 studiomdl's LoadBMP (lbmlib.c) reads it, refusing what it refuses:
// reserved words not 0, an info header other than 40 bytes or 1 plane, other than 8 bits,
// compressed; the palette (biClrUsed entries, 0 meaning 256) right after the headers, the
// pixels the rest of the file up to bfSize, rows padded to 4 bytes and stored bottom-up.
// `error` empty when read; `indices` top row first, `palette` 256 RGB triples.
struct StudiomdlBmp {
    std::int32_t width = 0, height = 0;
    std::vector<std::uint8_t> indices, palette;
    std::string error;
};
StudiomdlBmp readBmpAsStudiomdl(const QString& path)
{
    StudiomdlBmp out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = "unable to open BMP file";
        return out;
    }
    const QByteArray b = f.readAll();
    const auto u8 = [&b](qsizetype o) { return static_cast<std::uint8_t>(b[o]); };
    const auto u16 = [&](qsizetype o) {
        return std::uint32_t(u8(o)) | std::uint32_t(u8(o + 1)) << 8;
    };
    const auto u32 = [&](qsizetype o) { return u16(o) | u16(o + 2) << 16; };
    if (b.size() < 54 || b[0] != 'B' || b[1] != 'M') {
        out.error = "not a BMP file";
    } else if (u16(6) != 0 || u16(8) != 0) {
        out.error = "-2000: reserved words";
    } else if (u32(14) != 40 || u16(26) != 1) {
        out.error = "-3000: invalid BMP file header";
    } else if (u16(28) != 8) {
        out.error = "-4: BMP file not 8 bit";
    } else if (u32(30) != 0) {
        out.error = "-5: invalid BMP compression type";
    }
    if (!out.error.empty()) {
        return out;
    }
    const std::uint32_t used = u32(46) == 0 ? 256 : u32(46);
    const qsizetype pixels = 54 + qsizetype(used) * 4;
    const auto width = static_cast<std::int32_t>(u32(18));
    const auto height = static_cast<std::int32_t>(u32(22));
    const qsizetype stride = (width + 3) & ~3;
    if (used > 256 || qsizetype(u32(2)) != b.size() || width <= 0 || height <= 0 ||
        b.size() - pixels != stride * height) {
        out.error = "-7: the pixels are not the rest of the file up to bfSize";
        return out;
    }
    out.width = width;
    out.height = height;
    out.palette.assign(768, 0);
    for (std::uint32_t c = 0; c < used; ++c) {
        out.palette[c * 3] = u8(54 + qsizetype(c) * 4 + 2);
        out.palette[c * 3 + 1] = u8(54 + qsizetype(c) * 4 + 1);
        out.palette[c * 3 + 2] = u8(54 + qsizetype(c) * 4);
    }
    for (std::int32_t row = height; row-- > 0;) {
        const qsizetype o = pixels + qsizetype(row) * stride;
        out.indices.insert(out.indices.end(), b.begin() + o, b.begin() + o + width);
    }
    return out;
}

// Every texture of the GoldSrc model `mdl` is a BMP in `dir` under its name that LoadBMP reads
// back to the .mdl's size, indices and palette; the names compared (lower case) in `names`.
void verifyBmpsOf(const QString& mdl, const QDir& dir, std::set<std::string>* names = nullptr)
{
    const OpenedInput in = openInput(mdl.toStdString(), Profile::Auto, {});
    QVERIFY(in.readable && in.compiled);
    QVERIFY(!in.compiled->textures.empty());
    for (const CompiledTexture& t : in.compiled->textures) {
        QVERIFY2(!t.indices.empty(), t.name.c_str());
        const StudiomdlBmp bmp = readBmpAsStudiomdl(dir.filePath(QString::fromStdString(t.name)));
        QVERIFY2(bmp.error.empty(), (t.name + ": " + bmp.error).c_str());
        QCOMPARE(bmp.width, t.width);
        QCOMPARE(bmp.height, t.height);
        QVERIFY2(bmp.indices == t.indices, t.name.c_str());
        QVERIFY2(bmp.palette == t.palette, t.name.c_str());
        if (names) {
            std::string lower = t.name;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return char(std::tolower(c)); });
            names->insert(lower);
        }
    }
}

} // namespace

class TstDecompile : public QObject {
    Q_OBJECT

private slots:
    // Our own two-bone model (tests/support/mdl_writer.h): decompiled, read back, compared.
    void sampleModelRoundTrips()
    {
        QTemporaryDir tmp;
        const test::SourceMdlBytes bytes = test::writeSourceMdl(test::sampleSourceSpec());
        write(tmp.filePath(QStringLiteral("sample.mdl")), bytes.mdl);
        write(tmp.filePath(QStringLiteral("sample.vvd")), bytes.vvd);
        write(tmp.filePath(QStringLiteral("sample.dx90.vtx")), bytes.vtx);
        const QString out = tmp.filePath(QStringLiteral("out/sample.qc"));
        const DecompileResult d = decompileFile(
            tmp.filePath(QStringLiteral("sample.mdl")).toStdString(), out.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QVERIFY(d.written.size() >= 4);
        QCOMPARE(QString::fromStdString(d.written.front()), out);
        QFile qc(out);
        QVERIFY(qc.open(QIODevice::ReadOnly));
        const QByteArray text = qc.readAll();
        QVERIFY(text.startsWith("// Decompiled by RigScope"));
        for (const char* cmd : {"$modelname", "$bodygroup", "$texturegroup", "$attachment", "$hbox",
                                "$sequence", "$definebone", "$lod"}) {
            QVERIFY2(text.contains(cmd), cmd);
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(
            out.toStdString(), tmp.filePath(QStringLiteral("sample.mdl")).toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.differences.empty(), differences(r).c_str());

        // Never over an existing file unless forced; nothing written when refused.
        QFile::remove(tmp.filePath(QStringLiteral("out/anims/idle.smd")));
        const DecompileResult again = decompileFile(
            tmp.filePath(QStringLiteral("sample.mdl")).toStdString(), out.toStdString(), {});
        QCOMPARE(again.exitCode, 2);
        QVERIFY(again.error.find("--force") != std::string::npos);
        QVERIFY(again.written.empty());
        DecompileOptions force;
        force.force = true;
        QCOMPARE(decompileFile(tmp.filePath(QStringLiteral("sample.mdl")).toStdString(),
                               out.toStdString(), force)
                     .exitCode,
                 0);
    }

    // Names studiomdl reads otherwise than they look. An activity without "ACT_" (L4D's
    // survivors' `PUSH`): ParseSequence takes a bare token for an animation file unless
    // `activity` comes first (5 anim_* models had a qc.missing-file error). A source name
    // whose file name keeps a dot (DayHard's gregori_hat1b, `C:\...\XSI_4.2_ModTool\...`):
    // Load_Source takes what follows the last dot for the extension unless the QC names the
    // `.smd` (the body predicted 0 vertices for 918).
    void namesStudiomdlReads()
    {
        QTemporaryDir tmp;
        test::SourceMdlSpec spec = test::sampleSourceSpec();
        spec.sequences[0].activity = "PUSH";
        spec.bodyparts[1].models[1].name = "C:\\XSI_4.2_ModTool\\hat";
        const test::SourceMdlBytes bytes = test::writeSourceMdl(spec);
        write(tmp.filePath(QStringLiteral("sample.mdl")), bytes.mdl);
        write(tmp.filePath(QStringLiteral("sample.vvd")), bytes.vvd);
        write(tmp.filePath(QStringLiteral("sample.dx90.vtx")), bytes.vtx);
        const QString out = tmp.filePath(QStringLiteral("out/sample.qc"));
        QCOMPARE(decompileFile(tmp.filePath(QStringLiteral("sample.mdl")).toStdString(),
                               out.toStdString(), {})
                     .exitCode,
                 0);
        QFile qc(out);
        QVERIFY(qc.open(QIODevice::ReadOnly));
        const QByteArray text = qc.readAll();
        QVERIFY2(text.contains(" activity PUSH 1"), text.constData());
        QVERIFY2(text.contains("\tstudio \"C__XSI_4.2_ModTool_hat.smd\""), text.constData());
        const QcReport back = qcReportFromFile(out.toStdString(), Profile::Auto);
        QCOMPARE(back.errors, std::size_t(0));
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(
            out.toStdString(), tmp.filePath(QStringLiteral("sample.mdl")).toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        QCOMPARE(r.predicted.sequences.front().activityName, std::string("PUSH"));
    }

    // A $staticprop whose bodies are all blank (Portal's food_can, its .vvd and .vtx missing,
    // decompiled as `blank`): MakeStaticProp renames bone 0 of every source, the sequences'
    // too, so the compiled model keeps `static_prop` and `$hbox 0 "static_prop"` names it
    // (4 Portal props predicted no bone and a hitbox on none).
    void staticPropWithBlankBodies()
    {
        QTemporaryDir tmp;
        write(tmp.filePath(QStringLiteral("p.qc")),
              "$modelname \"p.mdl\"\n$staticprop\n$bodygroup \"b\"\n{\n\tblank\n}\n"
              "$hbox 0 \"static_prop\" -1 -1 -1 1 1 1\n"
              "$sequence \"idle\" \"idle.smd\" fps 30\n");
        write(tmp.filePath(QStringLiteral("idle.smd")),
              "version 1\nnodes\n0 \"static_prop\" -1\nend\nskeleton\ntime 0\n"
              "0 0 0 0 0 0 0\nend\n");
        const QcReport r =
            qcReportFromFile(tmp.filePath(QStringLiteral("p.qc")).toStdString(), Profile::Auto);
        QCOMPARE(r.errors, std::size_t(0));
        QCOMPARE(r.compiled.model.skeleton.size(), std::size_t(1));
        QCOMPARE(r.compiled.model.skeleton.names.front(), std::string("static_prop"));
        const CompiledModelInfo c = predictCompiled(r, 48);
        QCOMPARE(c.bones.size(), std::size_t(1));
        QCOMPARE(c.hitboxCount(), std::size_t(1));
        QCOMPARE(c.hitboxSets.front().boxes.front().bone, 0);
        // No source with a bone at all (Portal's decompiled tree_deciduous_01a: no bone, no
        // vertex): there is no bone 0 to rename, and the compiled model has none.
        write(tmp.filePath(QStringLiteral("p.qc")),
              "$modelname \"p.mdl\"\n$staticprop\n$bodygroup \"b\"\n{\n\tblank\n}\n"
              "$sequence \"idle\" \"idle.smd\" fps 30\n");
        write(tmp.filePath(QStringLiteral("idle.smd")),
              "version 1\nnodes\nend\nskeleton\ntime 0\nend\n");
        const QcReport none =
            qcReportFromFile(tmp.filePath(QStringLiteral("p.qc")).toStdString(), Profile::Auto);
        QCOMPARE(none.compiled.model.skeleton.size(), std::size_t(0));
        QCOMPARE(predictCompiled(none, 48).bones.size(), std::size_t(0));
    }

    // Vertices the .vvd holds apart though they are equal (a DMX source keeps its indices
    // apart; SpaceBuild's Nova TOE has 646): written alike, studiomdl's weld (lookup_index:
    // material, exact position and UV, weights, normals within 2°) would join them and
    // NvTriStrip drop the triangle copy they made (toe 1,532 -> 1,502 triangles). The hat
    // here holds one triangle three times: the same vertices again, then with normals 1° off.
    void equalVerticesKeptApart()
    {
        test::SourceMdlSpec spec = test::sampleSourceSpec();
        test::MdlMesh& hat = spec.bodyparts.at(1).models.at(1).meshes.at(0);
        const std::vector<test::MdlVertex> one = hat.vertices;
        for (int copy = 1; copy < 3; ++copy) {
            for (test::MdlVertex v : one) {
                if (copy == 2) {
                    v.normal = Vec3(std::sin(0.017453f), 0, std::cos(0.017453f));
                }
                hat.vertices.push_back(v);
            }
            const auto o = static_cast<std::uint16_t>(3 * copy);
            hat.triangles.push_back({o, std::uint16_t(o + 2), std::uint16_t(o + 1)});
        }
        QTemporaryDir tmp;
        const test::SourceMdlBytes bytes = test::writeSourceMdl(spec);
        write(tmp.filePath(QStringLiteral("twins.mdl")), bytes.mdl);
        write(tmp.filePath(QStringLiteral("twins.vvd")), bytes.vvd);
        write(tmp.filePath(QStringLiteral("twins.dx90.vtx")), bytes.vtx);
        const CompareReport r =
            roundTrip(tmp.filePath(QStringLiteral("twins.mdl")), tmp.path(), QStringLiteral("t"));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.compiled.bodyparts.at(1).models.at(1).vertices, 9);
        QCOMPARE(r.compiled.bodyparts.at(1).models.at(1).triangles, 3);
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        // Every written corner within 1e-6 of the compiled one in position and UV.
        const QcReport back =
            qcReportFromFile(tmp.filePath(QStringLiteral("t.qc")).toStdString(), Profile::Auto);
        std::vector<Corner> hatCorners;
        for (const Corner& c : cornersOf(back.compiled.model)) {
            if (c.p.z() == 6.0f) { // the hat's
                hatCorners.push_back(c);
            }
        }
        QCOMPARE(hatCorners.size(), std::size_t(9));
        std::vector<Corner> compiledHat;
        for (const test::MdlVertex& v : hat.vertices) {
            compiledHat.push_back({v.position, Vec2(v.uv.x(), 1.0f - v.uv.y())});
        }
        QCOMPARE(matched(hatCorners, compiledHat, 1e-6f, 1e-6f), std::size_t(9));
    }

    // The CLI: notes on stderr, exit 2 before writing anything over an existing file.
    void cliConvertToQc()
    {
        QTemporaryDir tmp;
        const test::SourceMdlBytes bytes = test::writeSourceMdl(test::sampleSourceSpec());
        write(tmp.filePath(QStringLiteral("sample.mdl")), bytes.mdl);
        write(tmp.filePath(QStringLiteral("sample.vvd")), bytes.vvd);
        write(tmp.filePath(QStringLiteral("sample.dx90.vtx")), bytes.vtx);
        const QString mdl = tmp.filePath(QStringLiteral("sample.mdl"));
        const QString qc = tmp.filePath(QStringLiteral("dec/sample.qc"));
        const auto r = test::runCli({QStringLiteral("convert"), mdl, qc});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("note: a recompile would not reproduce: "), r.err.constData());
        QVERIFY(QFile::exists(qc));
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("dec/anims/idle.smd"))));
        const auto again = test::runCli({QStringLiteral("convert"), mdl, qc});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("exists; pass --force to overwrite it"), again.err.constData());
        QCOMPARE(
            test::runCli({QStringLiteral("convert"), mdl, qc, QStringLiteral("--force")}).exitCode,
            0);
    }

    // A static prop (its bones collapse into `static_prop`, its points turn 90° about Z) and
    // an animated prop with a collision model: the decompiled project compiles to the same
    // figures, and its corners are the real sources' (position 1e-3, UV 1e-4).
    void publicPropsRoundTrip_data()
    {
        QTest::addColumn<QString>("mdl");
        QTest::addColumn<QString>("source"); // a reference SMD of the real project ("" = none)
        const QString h = QStringLiteral("TeamSpen210+HammerAddons/");
        QTest::newRow("static prop with skins")
            << h + QStringLiteral("hammer/models/editor/prop_paint_bomb.mdl") << QString();
        QTest::newRow("static prop, 5 families")
            << h + QStringLiteral("hammer/models/editor/info_paint_sprayer.mdl") << QString();
        QTest::newRow("static prop with LODs and .phy")
            << h + QStringLiteral("hammer/models/editor/item_suit_charger_hl2.mdl")
            << h + QStringLiteral(
                       "modelsrc/editor/item_suitcharger_hl2/suit_charger001_reference.smd");
        QTest::newRow("animated prop with .phy")
            << h + QStringLiteral("hammer/models/editor/item_health_charger_mesa.mdl")
            << h + QStringLiteral("modelsrc/editor/item_healthcharger_mesa/health_charger.smd");
        QTest::newRow("GoldSrc headcrab")
            << QStringLiteral("Pi0h1+halflife/models/headcrab.mdl") << QString();
        // GoldSrc numbers its textures in the order the body SMDs first use them, and keeps
        // no attachment names (the QC's first token is an index).
        QTest::newRow("GoldSrc barney: texture order, attachments")
            << QStringLiteral("Pi0h1+halflife/models/barney.mdl") << QString();
        QTest::newRow("GoldSrc w_crowbar: texture order")
            << QStringLiteral("Pi0h1+halflife/models/w_crowbar.mdl") << QString();
        QTest::newRow("GoldSrc v_9mmhandgun: triangles two of whose corners are one vertex")
            << QStringLiteral("Pi0h1+halflife/models/v_9mmhandgun.mdl") << QString();
        // GoldSrc's lookup_vertex welds on the bone-space position truncated to 0.01, not the
        // model-space one rounded: 60 vertices predicted for 61.
        QTest::newRow("GoldSrc nettest p_grenade: the weld truncates in bone space")
            << QStringLiteral("sabianroberts+halflife-nettest1-pak/models/p_grenade.mdl")
            << QString();
        QTest::newRow("GoldSrc hgrunt: three attachments")
            << QStringLiteral("sabianroberts+halflife-nettest1-pak/models/hgrunt.mdl") << QString();
        // A texture named `GLOVE_handpak.bmp.bmp`: both sides drop one extension.
        QTest::newRow("GoldSrc nettest v_357: a double extension")
            << QStringLiteral("sabianroberts+halflife-nettest1-pak/models/v_357.mdl") << QString();
        // The sweep over every compiled model of the public data (docs/compiled.md
        // "Decompiling"): an empty $hboxset (no box generated), v44's debug/debugempty
        // material, a $keyvalues block stored without its last brace, GoldSrc names with
        // folders, '..', parentheses and one SMD behind several bodyparts.
        const QString sb = QStringLiteral("code-google-com+spacebuildmodelpack");
        QTest::newRow("v44 static prop, an empty $hboxset")
            << sb + QStringLiteral("-0e9eb5c/SpacebuildModelPackAlpha2/models/Slyfo/"
                                   "doublesideopen.mdl")
            << QString();
        QTest::newRow("v44 debug/debugempty")
            << sb + QStringLiteral("/SB-MP Working Folder/Models needing rebuild/what.mdl")
            << QString();
        QTest::newRow("$keyvalues without its last brace")
            << QStringLiteral("ScaryPancake+DayHard/models/candelabro_2.mdl") << QString();
        QTest::newRow("GoldSrc: one SMD for nine bodyparts")
            << QStringLiteral("assimp+assimp/test/models/MDL/MDL (HL1)/duplicate_bodyparts.mdl")
            << QString();
        QTest::newRow("GoldSrc: a body named '../nihilanth/Nihilanth(reference)'")
            << QStringLiteral("sabianroberts+halflife-nettest1-pak/models/nihilanth.mdl")
            << QString();
        QTest::newRow("a zero hull: $bbox 0 0 0 0 0 0")
            << QStringLiteral("ixof+Classic-Offensive/models/weapons/v_knife_16.mdl") << QString();
        // .vvd vertices no .vtx triangle uses (a zero tangent: in no face): the lone vertex
        // of a triangle studiomdl dropped because its other two corners welded. Without them
        // eggbotstart predicted 2,394 vertices for 2,404, walldoorleft (4 meshes) 252 for 254.
        QTest::newRow("eggbotstart: 10 vertices no triangle uses")
            << h + QStringLiteral("hammer/models/editor/eggbotstart.mdl") << QString();
        // 20 of its 30 have a zero normal, which welds with nothing: three corners of one
        // such vertex would be three vertices and a kept triangle (5,725 and 4,728 predicted
        // for 5,685 and 4,708).
        QTest::newRow("box_dropper_cover: 30 vertices no triangle uses, 20 without a normal")
            << QStringLiteral("Valla-Chan+portal-elc-content/models/props/box_dropper_cover.mdl")
            << QString();
        QTest::newRow("walldoorleft: 2 vertices no triangle uses, 4 meshes")
            << sb + QStringLiteral("/SpacebuildModelPackAlpha2/models/Slyfo/walldoorleft.mdl")
            << QString();
        // A collision hull 0.15 inch thick that the 2006 studiomdl kept (ProcessSingleBody's
        // bounding hull); SDK 2013's drops a flat one (IsApproximatelyPlanar, measured along
        // the normal of the island's first three points): written with a triangle across the
        // thin side first, it is kept by both (was a phys.flat-piece error).
        QTest::newRow("occhialini: a hull 0.15 inch thick")
            << QStringLiteral("ScaryPancake+DayHard/models/occhialini.mdl") << QString();
        // Version 44 LODs: the 2006 studiomdl joins a LOD vertex with a LOD 0 vertex within
        // 0.05 in position, 0.1 in UV and 60° (episode1 UnifyLODs), SDK 2013's within 0.01,
        // 0.01 and 10°. Counter-Strike: Source's props were built with the first (ClayPot01
        // predicted 1,053 vertices for 1,048), Half-Life 2's foliage as Portal ships it with
        // the second, which its .vvd shows (a LOD vertex of its own within 0.05 of LOD 0's).
        QTest::newRow("v44 LODs joined within 0.05: ClayPot01")
            << QStringLiteral("ScaryPancake+DayHard/models/props/de_inferno/ClayPot01.mdl")
            << QString();
        QTest::newRow("v44 LODs joined within 0.01: tree_pine04")
            << QStringLiteral("Valla-Chan+portal-elc-content/models/props_foliage/tree_pine04.mdl")
            << QString();
        QTest::newRow("ratcord: $collisionjoints")
            << QStringLiteral("Valla-Chan+portal-elc-content/models/vallas_dream/ratcord.mdl")
            << QStringLiteral("Valla-Chan+portal-elc-content/models/vallas_dream/ratcord.smd");
    }
    void publicPropsRoundTrip()
    {
        QFETCH(QString, mdl);
        QFETCH(QString, source);
        const QDir root(dataRoot());
        if (!QFile::exists(root.filePath(mdl))) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const CompareReport r = roundTrip(root.filePath(mdl), tmp.path(), QStringLiteral("m"));
        QVERIFY2(r.ok, r.error.c_str());
        // The prediction's figures are the compiled model's, every one of them (the .vvd
        // vertex count of item_suit_charger_hl2's LOD 0 and three LODs too: 1,755). But the
        // SDK studiomdl builds a GoldSrc bone table body by body (SimplifyModel): barney's
        // 'Bip01 R Hand', which only its gun bodies weight, comes after 'Bip01 Head' when
        // recompiled; the 1998 compiler of the retail model put it before.
        if (QTest::currentDataTag() ==
            QByteArrayView("GoldSrc barney: texture order, attachments")) {
            QCOMPARE(r.differences.size(), std::size_t(1));
            QCOMPARE(r.differences.front().field, std::string("boneNames"));
        } else {
            QVERIFY2(r.differences.empty(), differences(r).c_str());
        }
        // A source name the project cannot have (stale by name) is in the QC's report.
        if (!r.staleReasons.empty()) {
            QFile qcFile(tmp.filePath(QStringLiteral("m.qc")));
            QVERIFY(qcFile.open(QIODevice::ReadOnly));
            QVERIFY2(qcFile.readAll().contains(" not kept (first '"),
                     r.staleReasons.front().c_str());
        }
        QCOMPARE(r.predicted.bones.size(), r.compiled.bones.size());
        QCOMPARE(r.predicted.sequences.size(), r.compiled.sequences.size());
        for (std::size_t s = 0; s < r.compiled.sequences.size(); ++s) {
            QCOMPARE(r.predicted.sequences[s].frames, r.compiled.sequences[s].frames);
            QCOMPARE(r.predicted.sequences[s].fps, r.compiled.sequences[s].fps);
        }
        QCOMPARE(r.predicted.attachments.size(), r.compiled.attachments.size());
        QCOMPARE(r.predicted.hitboxCount(), r.compiled.hitboxCount());
        QCOMPARE(r.predicted.skins.size(), r.compiled.skins.size());
        QCOMPARE(r.predicted.physics.solids.size(), r.compiled.physics.solids.size());
        // The collision model studiomdl will build from the decompiled one (core/physics).
        const QcReport back =
            qcReportFromFile(tmp.filePath(QStringLiteral("m.qc")).toStdString(), Profile::Auto);
        QCOMPARE(back.errors, std::size_t(0));
        if (r.compiled.engine == "goldsrc") {
            verifyBmpsOf(root.filePath(mdl), QDir(tmp.path())); // its textures, as BMP files
        }
        QCOMPARE(back.physics.solids.size(), r.compiled.physics.solids.size());
        QCOMPARE(back.physics.convexPieces(), r.compiled.physics.convexPieces());
        if (source.isEmpty()) {
            return;
        }
        // Every decompiled corner is one of the real sources' (studiomdl drops, never makes).
        const OpenedInput src = openInput(root.filePath(source).toStdString(), Profile::Auto, {});
        QVERIFY(src.readable);
        const std::vector<Corner> ours = cornersOf(back.compiled.model);
        const std::vector<Corner> theirs = cornersOf(src.result.model);
        QVERIFY(!ours.empty());
        QCOMPARE(matched(ours, theirs), ours.size());
    }

    // Issue 30's claim on compiled models whose real sources are beside them: the decompiled
    // project's bones and sequences are the real QC's (as both compile), and its triangles are
    // the real sources' less those studiomdl drops (every decompiled corner is one of theirs,
    // position 1e-3, UV 1e-4). `corners` and `sourceCorners` count the triangle corners of the
    // read-back decompiled bodies and of the real QC's.
    void realSourcesRoundTrip_data()
    {
        QTest::addColumn<QString>("mdl");
        QTest::addColumn<QString>("qc");
        QTest::addColumn<int>("bones");
        QTest::addColumn<int>("sequences");
        QTest::addColumn<int>("corners");
        QTest::addColumn<int>("sourceCorners");
        const QString sbMdl = QStringLiteral(
            "code-google-com+spacebuildmodelpack/SpacebuildModelPackAlpha2/models/Spacebuild/");
        const QString sbOld =
            QStringLiteral("code-google-com+spacebuildmodelpack-0e9eb5c/SB-MP Working Folder/"
                           "Compiled Models/");
        QTest::newRow("v44 static prop, $collisionmodel $concave")
            << sbMdl + QStringLiteral("s3t1.mdl") << sbOld + QStringLiteral("type3/s3t1/s3t1.qc")
            << 1 << 1 << 336 << 336;
        QTest::newRow("v44 animated door")
            << sbMdl + QStringLiteral("test2.mdl")
            << sbOld + QStringLiteral("AirlockTest/test2/test2.qc") << 11 << 4 << 528 << 528;
        // Its sources are a Crowbar decompile whose points are turned 90 degrees about Z from
        // the compiled model's (the root bones' rotations absorb it: both compile to the same
        // model), so its corners are counted, not matched.
        QTest::newRow("v48 vehicle, two hitbox sets")
            << QStringLiteral("riggs9162+lvs-halflife-2/models/riggs9162/vehicles/"
                              "combine_apc_driveable.mdl")
            << QStringLiteral("riggs9162+lvs-halflife-2/models/riggs9162/vehicles/"
                              "combine_apc_driveable/combine_apc_driveable.qc")
            << 24 << 24 << 34686 << 34686;
        // GoldSrc keeps each point in its bone's space truncated to 0.01 (lookup_vertex) and
        // its UV as a whole texel of a texture it may crop (TextureCoordRanges: man's 32-texel
        // Material2.bmp is stored 28 wide): the decompiled points, moved to the middle of their
        // 0.01 cells, are within 0.005 * sqrt(3) of the real ones (none was within 1e-3 at the
        // cells' low ends); the UVs are the compiled texture's, not the source's.
        QTest::newRow("GoldSrc man: blends, events, a sequence group")
            << QStringLiteral("assimp+assimp/test/models/MDL/MDL (HL1)/man.mdl")
            << QStringLiteral("malortie+assimp-hl1-mdl-importer-tests-sources/models/man/man.qc")
            << 8 << 3 << 570 << 570;
    }
    void realSourcesRoundTrip()
    {
        QFETCH(QString, mdl);
        QFETCH(QString, qc);
        QFETCH(int, bones);
        QFETCH(int, sequences);
        QFETCH(int, corners);
        QFETCH(int, sourceCorners);
        const QDir root(dataRoot());
        if (!QFile::exists(root.filePath(mdl)) || !QFile::exists(root.filePath(qc))) {
            QSKIP("the public models and their sources (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const CompareReport r = roundTrip(root.filePath(mdl), tmp.path(), QStringLiteral("m"));
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport real = compareQcToCompiled(root.filePath(qc).toStdString(),
                                                       root.filePath(mdl).toStdString(), opt);
        QVERIFY2(real.ok, real.error.c_str());
        QCOMPARE(int(r.predicted.bones.size()), bones);
        QCOMPARE(int(real.predicted.bones.size()), bones);
        // The same bones (as a set: the real QC's predicted GoldSrc order is compare's, which
        // differs from man.mdl's; the decompiled one is the compiled order).
        QStringList ours, theirs;
        for (std::size_t b = 0; b < r.predicted.bones.size(); ++b) {
            ours << QString::fromStdString(r.predicted.bones[b].name).toLower();
            theirs << QString::fromStdString(real.predicted.bones[b].name).toLower();
        }
        ours.sort();
        theirs.sort();
        QCOMPARE(ours, theirs);
        QCOMPARE(int(r.predicted.sequences.size()), sequences);
        QCOMPARE(int(real.predicted.sequences.size()), sequences);
        for (std::size_t q = 0; q < r.predicted.sequences.size(); ++q) {
            const CompiledSequence& a = r.predicted.sequences[q];
            const CompiledSequence& b = real.predicted.sequences[q];
            QCOMPARE(QString::fromStdString(a.name).toLower(),
                     QString::fromStdString(b.name).toLower());
            QCOMPARE(a.frames, b.frames);
            QCOMPARE(a.fps, b.fps);
            QCOMPARE(a.looping, b.looping);
        }
        const QcReport back =
            qcReportFromFile(tmp.filePath(QStringLiteral("m.qc")).toStdString(), Profile::Auto);
        const QcReport src = qcReportFromFile(root.filePath(qc).toStdString(), Profile::Auto);
        const std::vector<Corner> oursC = cornersOf(back.compiled.model);
        const std::vector<Corner> theirsC = cornersOf(src.compiled.model);
        QCOMPARE(int(oursC.size()), corners);
        QCOMPARE(int(theirsC.size()), sourceCorners);
        if (QByteArray(QTest::currentDataTag()).startsWith("v48")) {
            return; // counted, not matched (see the rows)
        }
        if (r.compiled.engine == "goldsrc") {
            QCOMPARE(matched(oursC, theirsC), std::size_t(0)); // not to 1e-3
            QCOMPARE(matched(oursC, theirsC, 0.0087f, 1.0f), oursC.size());
            return;
        }
        QCOMPARE(matched(oursC, theirsC), oursC.size());
    }

    // A GoldSrc model whose bones have no names (nettest's germanmodels/heavy: 19 of 20) and
    // a Source model without its .vvd / .vtx: written as they can be, the rest reported.
    void unnamedBonesAndMissingMeshes()
    {
        const QDir root(dataRoot());
        const QString heavy = root.filePath(
            QStringLiteral("sabianroberts+halflife-nettest1-pak/models/germanmodels/heavy.mdl"));
        const QString chicken =
            root.filePath(QStringLiteral("ixof+Classic-Offensive/models/chicken/chicken_old.mdl"));
        if (!QFile::exists(heavy) || !QFile::exists(chicken)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const std::string qc = tmp.filePath(QStringLiteral("heavy.qc")).toStdString();
        const DecompileResult d = decompileFile(heavy.toStdString(), qc, {});
        QCOMPARE(d.exitCode, 0);
        const auto has = [](const DecompileResult& r, const std::string& start) {
            return std::any_of(r.notes.begin(), r.notes.end(),
                               [&](const std::string& n) { return n.rfind(start, 0) == 0; });
        };
        QVERIFY(has(d, "19 bones without a name or with another bone's written as 'bone_N'"));
        // Before, 4,412 xref.parent-mismatch errors over 29 such models: every bone was ''.
        const std::vector<CheckedFile> checked = checkQcProject(qc, {});
        std::size_t errors = 0;
        for (const CheckedFile& f : checked) {
            for (const Diagnostic& g : f.diagnostics) {
                errors += g.severity == Severity::Error ? 1 : 0;
            }
        }
        QCOMPARE(errors, std::size_t(0));
        const DecompileResult c = decompileFile(
            chicken.toStdString(), tmp.filePath(QStringLiteral("c/chicken.qc")).toStdString(), {});
        QCOMPARE(c.exitCode, 0);
        QVERIFY(has(c, "6 models with vertices written as blank: their meshes did not read"));
        // Materials the files cannot name again: a Spacebuild plate's texture list holds
        // base_tile twice; a door's two family materials no family changes.
        const QString plate = root.filePath(
            QStringLiteral("code-google-com+spacebuildmodelpack/SpacebuildModelPackAlpha2/"
                           "models/Cerus/Modbridge/Core/c-111.mdl"));
        const QString door =
            root.filePath(QStringLiteral("Valla-Chan+portal-elc-content/models/props/door_02.mdl"));
        if (!QFile::exists(plate) || !QFile::exists(door)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        const DecompileResult p = decompileFile(
            plate.toStdString(), tmp.filePath(QStringLiteral("p/c-111.qc")).toStdString(), {});
        QVERIFY(has(p, "1 material name the .mdl holds twice: the recompile lists it once"));
        const DecompileResult q = decompileFile(
            door.toStdString(), tmp.filePath(QStringLiteral("q/door_02.qc")).toStdString(), {});
        QVERIFY(has(q, "2 materials no written triangle or skin family uses"));
    }

    // Versions RigScope does not read, and Pathos models (meshes in a .vbm): refused with
    // exit 1 and a sentence, nothing written.
    void unsupportedModelsRefused()
    {
        QTemporaryDir tmp;
        std::string v6("IDST", 4);
        v6 += std::string("\x06\0\0\0", 4) + std::string(240, '\0');
        write(tmp.filePath(QStringLiteral("alpha.mdl")), v6);
        const std::string out = tmp.filePath(QStringLiteral("out/alpha.qc")).toStdString();
        QVERIFY(isDecompile(tmp.filePath(QStringLiteral("alpha.mdl")).toStdString(), out));
        const DecompileResult d =
            decompileFile(tmp.filePath(QStringLiteral("alpha.mdl")).toStdString(), out, {});
        QCOMPARE(d.exitCode, 1);
        QVERIFY2(d.error.find("is a version 6 .mdl: RigScope decompiles Source v44-v49 and "
                              "GoldSrc v10 models") != std::string::npos,
                 d.error.c_str());
        QVERIFY(d.written.empty());
        const QString pathos =
            QDir(dataRoot())
                .filePath(
                    QStringLiteral("TheOverfloater+pathos-public/common/models/cindergibs.mdl"));
        if (!QFile::exists(pathos)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        const DecompileResult p =
            decompileFile(pathos.toStdString(),
                          tmp.filePath(QStringLiteral("p/cindergibs.qc")).toStdString(), {});
        QCOMPARE(p.exitCode, 1);
        QVERIFY2(p.error.find(".vbm' (Pathos vbmcompiler), which RigScope does not read: not "
                              "decompiled") != std::string::npos,
                 p.error.c_str());
        QVERIFY(p.written.empty());
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("p/cindergibs.qc"))));
    }

    // The HL2 airboat (v47, four bodyparts, five LODs of their own SMDs, the last a
    // $shadowlod): every figure but the .vvd's vertex count, 15,306 predicted for 15,299. The
    // decompiled LODs hold the vertices the .vvd gives them; where a LOD has a vertex of its
    // own, studiomdl computes its tangent from that LOD's triangles, and a later LOD's vertex
    // joins it only with the same handedness. Eight such LOD vertices come out with the other
    // handedness than the .vvd's (six of them the same direction): the original LOD files had
    // triangles the .vtx no longer holds (studiomdl's LOD weld joined two of their corners
    // onto one vertex and the .vtx drops such triangles) and corners at their own UVs before
    // the weld moved them onto LOD 0's, both in the tangent sums. So 8 vertices too many and
    // 1 too few.
    void airboatLodRoundTrip()
    {
        const QString mdl =
            QDir(dataRoot())
                .filePath(QStringLiteral("craftablescience+sourcepp_assets/mdlpp/v47.mdl"));
        if (!QFile::exists(mdl)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const CompareReport r = roundTrip(mdl, tmp.path(), QStringLiteral("airboat"));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(r.differences.size()), 1);
        QCOMPARE(r.differences.at(0).field, std::string("bodyparts[0].models[0].vertices"));
        QCOMPARE(r.predicted.bodyparts.at(0).models.at(0).vertices, 15306);
        QCOMPARE(r.compiled.bodyparts.at(0).models.at(0).vertices, 15299);
        // The sixth LOD's .vtx switch point is -1: a $shadowlod.
        QFile qc(tmp.filePath(QStringLiteral("airboat.qc")));
        QVERIFY(qc.open(QIODevice::ReadOnly));
        const QByteArray text = qc.readAll();
        QCOMPARE(qsizetype(text.count("\n$lod ")), qsizetype(4));
        QCOMPARE(qsizetype(text.count("\n$shadowlod\n")), qsizetype(1));
        // The report says so.
        QVERIFY(text.contains(" LOD vertices of their own (not LOD 0's): their tangents"));
    }

    // GoldSrc's studiomdl keeps one vertex per bone and 0.01 cell of its space in a model
    // (lookup_vertex); rs_props.mdl (Pi0h1/halflife, built by another compiler) holds 35
    // vertices that share one with another: 5 of its models read back 1 to 20 vertices short,
    // exactly those, and the report says no source gives them back. Valve's hgrunt has none.
    void goldsrcVerticesSharingACell()
    {
        const QDir root(dataRoot());
        const QString props =
            root.filePath(QStringLiteral("Pi0h1+halflife/models/ka_risingsun/rs_props.mdl"));
        const QString grunt = root.filePath(QStringLiteral("Pi0h1+halflife/models/hgrunt.mdl"));
        if (!QFile::exists(props) || !QFile::exists(grunt)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const DecompileResult d = decompileFile(
            props.toStdString(), tmp.filePath(QStringLiteral("p/rs.qc")).toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(notesWith(d.notes, "same 0.01 cell of the same bone's space"), 1);
        QVERIFY(std::find(d.notes.begin(), d.notes.end(),
                          "35 vertices in the same 0.01 cell of the same bone's space as another "
                          "vertex of their model: GoldSrc's studiomdl (lookup_vertex) makes such "
                          "vertices one, so no source gives them back (a compiler other than "
                          "Valve's built this model)") != d.notes.end());
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(
            tmp.filePath(QStringLiteral("p/rs.qc")).toStdString(), props.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        int short_ = 0;
        for (std::size_t m = 0; m < r.compiled.bodyparts.at(0).models.size(); ++m) {
            short_ += r.compiled.bodyparts.at(0).models[m].vertices -
                      r.predicted.bodyparts.at(0).models[m].vertices;
        }
        QCOMPARE(short_, 35);
        const DecompileResult g = decompileFile(
            grunt.toStdString(), tmp.filePath(QStringLiteral("g/hgrunt.qc")).toStdString(), {});
        QCOMPARE(g.exitCode, 0);
        QCOMPARE(notesWith(g.notes, "same 0.01 cell of the same bone's space"), 0);
    }

    // GoldSrc's studiomdl numbers bones by first use, body by body (SimplifyModel). Valve's
    // hgrunt has 'Bip01 Head' at 19, right after the neck, though its first body (gruntbody)
    // has no vertex on it and uses the arms (20-27): no source gives that order back, and the
    // report says so. The scientist's heads are a bodygroup too, but its order fits: no note.
    void goldsrcBoneOrderNoSourceGivesBack()
    {
        const QDir root(dataRoot());
        const QString grunt = root.filePath(QStringLiteral("Pi0h1+halflife/models/hgrunt.mdl"));
        const QString sci = root.filePath(QStringLiteral("Pi0h1+halflife/models/scientist.mdl"));
        if (!QFile::exists(grunt) || !QFile::exists(sci)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const DecompileResult g = decompileFile(
            grunt.toStdString(), tmp.filePath(QStringLiteral("g/hgrunt.qc")).toStdString(), {});
        QCOMPARE(g.exitCode, 0);
        QCOMPARE(notesWith(g.notes, "numbers bones by first use"), 1);
        QVERIFY(std::find(g.notes.begin(), g.notes.end(),
                          "bone 'Bip01 Head' is compiled at index 19 though the bodies before "
                          "the first one using it use later bones: GoldSrc's studiomdl numbers "
                          "bones by first use, body by body in $body order (SimplifyModel), so a "
                          "recompile puts it after 'Bip01 R Hand' and compare finds the bone "
                          "names in another order (a compiler other than the SDK's built this "
                          "model)") != g.notes.end());
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(
            tmp.filePath(QStringLiteral("g/hgrunt.qc")).toStdString(), grunt.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.differences.size(), std::size_t(1));
        QCOMPARE(r.differences[0].field, std::string("boneNames"));
        const std::vector<CompiledBone>& p = r.predicted.bones;
        QCOMPARE(p.size(), std::size_t(30));
        QCOMPARE(p[18].name, std::string("Bip01 Neck"));
        QCOMPARE(p[19].name, std::string("Bip01 L Arm"));
        QCOMPARE(p[27].name, std::string("Bip01 Head"));
        QCOMPARE(r.compiled.bones[19].name, std::string("Bip01 Head"));
        const DecompileResult s = decompileFile(
            sci.toStdString(), tmp.filePath(QStringLiteral("s/scientist.qc")).toStdString(), {});
        QCOMPARE(s.exitCode, 0);
        QCOMPARE(notesWith(s.notes, "numbers bones by first use"), 0);
    }

    // Afterburner's abstudiomdl ('AFTB', header flag 0x800): the texture records name PNG files
    // under the game's textures/ folder and hold no pixels. The QC points $cdtexture at that
    // folder, relative to the QC (Grab_Skin tries each $cdtexture), keeps $flags 2048 (the
    // profile afterburner, which takes .png) and says nothing of a BMP writer; GoldSrc has no
    // $hboxset. Read back: no difference, 0 errors. A texture no textures/ folder holds is
    // said, and $cdtexture is then ".".
    void afterburnerTexturesFromTheGamesFolder()
    {
        QTemporaryDir tmp;
        test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
        spec.afterburner = true;
        spec.textures[0].name = "mdl/skin.png";
        spec.textures[1].name = "mdl/chrome_eye.png";
        spec.textures[2].name = "mdl/skin_dirty.png";
        spec.attachments[0].name.clear(); // as studiomdl writes them (Cmd_Attachment: no name)
        const test::GoldsrcMdlBytes bytes = test::writeGoldsrcMdl(spec);
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("game/models"))));
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("game/textures/mdl"))));
        const QString mdl = writeGoldsrcTest(tmp.filePath(QStringLiteral("game/models")), bytes);
        for (const char* t : {"skin", "chrome_eye", "skin_dirty"}) {
            write(tmp.filePath(QStringLiteral("game/textures/mdl/%1.png").arg(QLatin1String(t))),
                  "png");
        }
        const QString qc = tmp.filePath(QStringLiteral("src/test.qc"));
        QVERIFY(isDecompile(mdl.toStdString(), qc.toStdString()));
        const DecompileResult d = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(d.written.size(), std::size_t(4)); // the QC, body_ref.smd, 2 animations
        QCOMPARE(d.notes, std::vector<std::string>());
        QFile f(qc);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.startsWith("// Decompiled by RigScope from test.mdl (GoldSrc v10, "
                                 "Afterburner's 'AFTB')\n"),
                 text.constData());
        QVERIFY2(text.contains("\n$cdtexture \"../game/textures\"\n$scale 1.0\n$flags 2048\n"),
                 text.constData());
        QCOMPARE(text.count("$cdtexture"), 1);
        QVERIFY(!text.contains("$hboxset"));
        QVERIFY(text.contains("\"mdl/chrome_eye.png\""));
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc.toStdString(), mdl.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        QCOMPARE(r.compiled.variant, std::string("afterburner"));
        QCOMPARE(r.predicted.bones.size(), std::size_t(2));
        QCOMPARE(r.predicted.textures.size(), std::size_t(3));
        const auto check = test::runCli({QStringLiteral("check"), qc});
        QCOMPARE(check.exitCode, 0);
        QVERIFY2(check.err.contains("0 errors, 0 warnings") &&
                     check.err.contains("(profile afterburner)"),
                 check.err.constData());
        // A texture no textures/ folder holds, an attachment with a name.
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("game/textures/mdl/skin_dirty.png"))));
        spec.attachments[0].name = "mouth";
        write(mdl, test::writeGoldsrcMdl(spec).mdl);
        const QString qc2 = tmp.filePath(QStringLiteral("src2/test.qc"));
        const DecompileResult m = decompileFile(mdl.toStdString(), qc2.toStdString(), {});
        QCOMPARE(m.exitCode, 0);
        QCOMPARE(m.notes,
                 (std::vector<std::string>{
                     "1 texture the model keeps on disk (flag 0x800) not found in a textures/ "
                     "folder above it: a recompile needs them in a $cdtexture folder",
                     "1 attachment with a name: GoldSrc's $attachment gives none "
                     "(Cmd_Attachment reads an index, a bone and a point), so compare finds the "
                     "names differ"}));
        QFile f2(qc2);
        QVERIFY(f2.open(QIODevice::ReadOnly));
        const QByteArray text2 = f2.readAll();
        QVERIFY2(text2.contains("\n$cdtexture \"../game/textures\"\n$scale"), text2.constData());
    }

    // GoldSrc's studiomdl keeps bones whose names differ only in case apart (SimplifyModel's
    // findNode, strcmp; Afterburner's austria_tree_dead_snow has TREE and tree): both are
    // written as named, not one as 'bone_1'. A model named after its file with no vertex
    // (speaker_alarm's alarm_ref: an SMD without triangles) is written as such an SMD, not as
    // "blank", which a recompile would name "blank".
    void goldsrcCaseBonesAndEmptyModel()
    {
        QTemporaryDir tmp;
        test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
        spec.bones[1].name = "bip01";
        spec.attachments[0].name.clear();
        spec.bodyparts.push_back({"alarm", {test::GsModel{"alarm_ref", {}, {}}}});
        const test::GoldsrcMdlBytes bytes = test::writeGoldsrcMdl(spec);
        const QString mdl = writeGoldsrcTest(tmp.path(), bytes);
        const QString qc = tmp.filePath(QStringLiteral("out/test.qc"));
        const DecompileResult d = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(notesWith(d.notes, "'bone_N'"), 0);
        QCOMPARE(d.written.size(), std::size_t(8)); // + alarm_ref.smd, 3 BMPs
        QFile f(qc);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("\n$body \"alarm\" \"alarm_ref\"\n"), text.constData());
        QVERIFY(!text.contains("blank"));
        QFile body(tmp.filePath(QStringLiteral("out/body_ref.smd")));
        QVERIFY(body.open(QIODevice::ReadOnly));
        QVERIFY(
            body.readAll().startsWith("version 1\nnodes\n0 \"Bip01\" -1\n1 \"bip01\" 0\nend\n"));
        QFile alarm(tmp.filePath(QStringLiteral("out/alarm_ref.smd")));
        QVERIFY(alarm.open(QIODevice::ReadOnly));
        const QByteArray empty = alarm.readAll();
        QVERIFY2(empty.endsWith("triangles\nend\n"), empty.constData());
        QCOMPARE(empty.count('\n'), 12); // nodes (2 bones), skeleton (1 frame), no triangle
    }

    // GoldSrc keeps a model's textures as 8-bit pixels and a palette in the .mdl; studiomdl
    // reads them from BMP files (Grab_Skin: "%s not found" without one). convert writes each
    // as the 8-bit BMP LoadBMP reads, named as the SMDs name it, in the QC's folder ($cd and
    // $cdtexture "."): pixel for pixel and colour for colour the .mdl's, and `check` finds
    // every texture (0 errors; before, one qc.missing-texture each). Written atomically like
    // the SMDs: an existing BMP is refused without --force. Textures in a NAMEt.mdl that is
    // not there are said, not written.
    // $texturegroup columns in the order that numbers the textures as compiled: HL1's
    // Cmd_TextureGroup numbers the textures a group adds row by row, column by column, so the
    // second family's eye_dirty (2) before skin_dirty (3) needs the eye column first, though the
    // skin table has the skin column first (Half-Life's scientist.mdl: full_back_gore before
    // full_front_gore; decompiled and recompiled with HL1 studiomdl built from the SDK, outside
    // the repository, its textures came back in order only so).
    void texturegroupColumnsNumberTexturesAsCompiled()
    {
        QTemporaryDir tmp;
        test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
        spec.textures[2].name = "eye_dirty.bmp";
        spec.textures.push_back({"skin_dirty.bmp", 0, 4, 2, 9});
        spec.skins = {{0, 1}, {3, 2}};
        const QString mdl = writeGoldsrcTest(tmp.path(), test::writeGoldsrcMdl(spec));
        const QString qc = tmp.filePath(QStringLiteral("out/test.qc"));
        QCOMPARE(decompileFile(mdl.toStdString(), qc.toStdString(), {}).exitCode, 0);
        QFile f(qc);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("\t{ \"chrome_eye.bmp\" \"skin.bmp\" }\n"
                               "\t{ \"eye_dirty.bmp\" \"skin_dirty.bmp\" }\n"),
                 text.constData());
        const QcReport back = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QCOMPARE(back.errors, std::size_t(0));
        const OpenedInput compiled = openInput(mdl.toStdString(), Profile::Auto, {});
        QVERIFY(compiled.compiled);
        const auto names = [](const CompiledModelInfo& i) {
            std::vector<std::string> n;
            for (const CompiledTexture& t : i.textures) {
                n.push_back(t.name);
            }
            return n;
        };
        QCOMPARE(names(*compiled.compiled),
                 (std::vector<std::string>{"skin.bmp", "chrome_eye.bmp", "eye_dirty.bmp",
                                           "skin_dirty.bmp"}));
        QCOMPARE(names(predictCompiled(back)), names(*compiled.compiled));
    }

    // A GoldSrc null model (tschumann/basis null.mdl: its source's one bone held no vertex, so
    // SimplifyModel kept none) has no bone. Its SMDs get one unused bone: HL1 studiomdl crashes
    // on an SMD with no skeleton (seen so on the 9 basis models, decompiled and recompiled with
    // HL1 studiomdl built from the SDK, outside the repository) and builds the same empty model
    // from one whose bone no vertex uses.
    void goldsrcNullModelGetsAnUnusedBone()
    {
        QTemporaryDir tmp;
        test::GoldsrcMdlSpec spec;
        spec.name = "null.mdl";
        spec.bodyparts.push_back({"body", {test::GsModel{"null", {}, {}}}});
        test::GsSequence idle;
        idle.name = "idle";
        idle.frames = 1;
        idle.positions.assign(1, {});
        idle.rotations.assign(1, {});
        spec.sequences.push_back(idle);
        const QString mdl = tmp.filePath(QStringLiteral("null.mdl"));
        write(mdl, test::writeGoldsrcMdl(spec).mdl);
        const OpenedInput compiled = openInput(mdl.toStdString(), Profile::Auto, {});
        QVERIFY(compiled.compiled);
        QCOMPARE(compiled.compiled->bones.size(), std::size_t(0));
        const QString qc = tmp.filePath(QStringLiteral("out/null.qc"));
        const DecompileResult d = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        for (const QString& name :
             {QStringLiteral("out/null.smd"), QStringLiteral("out/anims/idle.smd")}) {
            QFile f(tmp.filePath(name));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name));
            QVERIFY2(f.readAll().contains("nodes\n0 \"root\" -1\nend\n"), qPrintable(name));
        }
        const QcReport back = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QCOMPARE(back.profile, Profile::GoldSrc);
        QCOMPARE(back.errors, std::size_t(0));
        QCOMPARE(back.compiled.model.skeleton.size(), std::size_t(0));
    }

    void goldsrcTexturesWrittenAsBmp()
    {
        QTemporaryDir tmp;
        test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
        spec.attachments[0].name.clear();
        spec.textures[1].name = "{chrome eye.bmp"; // written under its name, as the SMD has it
        test::GoldsrcMdlBytes bytes = test::writeGoldsrcMdl(spec);
        // Distinct indices in every texture (the writer fills each with one): row order and
        // the padding of the eye's 2-texel rows show.
        const auto i32 = [&bytes](std::size_t o) {
            std::int32_t v = 0;
            std::memcpy(&v, bytes.mdl.data() + o, 4);
            return static_cast<std::size_t>(v);
        };
        for (std::size_t t = 0; t < spec.textures.size(); ++t) {
            const std::size_t record = i32(184) + 80 * t;
            const std::size_t n = i32(record + 68) * i32(record + 72);
            for (std::size_t k = 0; k < n; ++k) {
                bytes.mdl[i32(record + 76) + k] = static_cast<char>(17 * t + 37 * k + 5);
            }
        }
        const QString mdl = writeGoldsrcTest(tmp.path(), bytes);
        const QString qc = tmp.filePath(QStringLiteral("out/test.qc"));
        const DecompileResult d = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(notesWith(d.notes, "BMP"), 0);
        QCOMPARE(d.written.size(), std::size_t(7)); // the QC, 3 SMDs, 3 BMPs
        const QDir out(tmp.filePath(QStringLiteral("out")));
        std::set<std::string> names;
        verifyBmpsOf(mdl, out, &names);
        QCOMPARE(names, (std::set<std::string>{"skin.bmp", "{chrome eye.bmp", "skin_dirty.bmp"}));
        const StudiomdlBmp eye =
            readBmpAsStudiomdl(out.filePath(QStringLiteral("{chrome eye.bmp")));
        QCOMPARE(eye.indices, (std::vector<std::uint8_t>{22, 59, 96, 133}));
        QCOMPARE(QFileInfo(out.filePath(QStringLiteral("{chrome eye.bmp"))).size(),
                 qint64(14 + 40 + 1024 + 2 * 4));
        const QcReport back = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QCOMPARE(back.errors, std::size_t(0));
        QCOMPARE(back.textures.size(), std::size_t(3));
        for (const QcTexture& t : back.textures) {
            QVERIFY2(!t.resolved.empty() && !t.caseMismatch, t.name.c_str());
        }
        const auto check = test::runCli({QStringLiteral("check"), qc});
        QCOMPARE(check.exitCode, 0);
        QVERIFY2(check.err.contains("0 errors") && check.err.contains("(profile goldsrc)"),
                 check.err.constData());
        // Only a BMP left: refused, nothing written; forced: written again.
        QVERIFY(QDir(out.filePath(QStringLiteral("anims"))).removeRecursively());
        for (const QString& f : out.entryList(QDir::Files)) {
            if (f != QStringLiteral("skin.bmp")) {
                QVERIFY(QFile::remove(out.filePath(f)));
            }
        }
        const DecompileResult again = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.error.find("skin.bmp' exists; pass --force") != std::string::npos,
                 again.error.c_str());
        QCOMPARE(out.entryList(QDir::Files), QStringList{QStringLiteral("skin.bmp")});
        DecompileOptions force;
        force.force = true;
        QCOMPARE(decompileFile(mdl.toStdString(), qc.toStdString(), force).exitCode, 0);
        verifyBmpsOf(mdl, out);
        // Textures in testt.mdl: written from it when it is there, said when it is not.
        spec.texturesApart = true;
        const test::GoldsrcMdlBytes apart = test::writeGoldsrcMdl(spec);
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("split"))));
        const QString split = writeGoldsrcTest(tmp.filePath(QStringLiteral("split")), apart);
        const QString qcNoTex = tmp.filePath(QStringLiteral("notex/test.qc"));
        const DecompileResult noTex = decompileFile(split.toStdString(), qcNoTex.toStdString(), {});
        QCOMPARE(noTex.exitCode, 0);
        QCOMPARE(noTex.written.size(), std::size_t(4)); // the QC and 3 SMDs
        QCOMPARE(notesWith(noTex.notes,
                           "the textures are in the model's texture file (NAMEt.mdl), which was "
                           "not read: no BMP file written"),
                 1);
        write(tmp.filePath(QStringLiteral("split/testt.mdl")), apart.textures);
        const QString qcTex = tmp.filePath(QStringLiteral("tex/test.qc"));
        const DecompileResult withTex = decompileFile(split.toStdString(), qcTex.toStdString(), {});
        QCOMPARE(withTex.exitCode, 0);
        QCOMPARE(withTex.written.size(), std::size_t(7));
        QCOMPARE(notesWith(withTex.notes, "BMP"), 0);
        verifyBmpsOf(split, QDir(tmp.filePath(QStringLiteral("tex"))));
        QCOMPARE(qcReportFromFile(qcTex.toStdString(), Profile::Auto).errors, std::size_t(0));
    }

    // Afterburner's own models (HLSources/afterburner-game-clone) decompiled where they are:
    // the QC's $cdtexture is the game's textures/ folder (from wherever the QC is), $flags
    // 2048 makes check's profile afterburner, nothing is left unsaid, and the project reads
    // back as the model: no difference, and the bones and sequences of the game's own QC.
    // waiter keeps bones only its $hbox lines name (afterburner's rule, tst_compare).
    void afterburnerPublicModels_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("source"); // the game's QC, under assets/models/general/
        QTest::addColumn<int>("bones");
        QTest::addColumn<int>("sequences");
        QTest::addColumn<int>("triangles");
        QTest::newRow("Bench") << QStringLiteral("Bench") << QStringLiteral("Bench/Bench.qc") << 1
                               << 1 << 168;
        QTest::newRow("waiter: $hbox bones")
            << QStringLiteral("waiter") << QStringLiteral("waiter/waiter.qc") << 71 << 14 << 5356;
        QTest::newRow("3rd_person: 7 bodyparts, 45 sequences")
            << QStringLiteral("3rd_person") << QStringLiteral("3rd_person/3rd_person.qc") << 59
            << 45 << 5791;
    }
    void afterburnerPublicModels()
    {
        QFETCH(QString, name);
        QFETCH(QString, source);
        QFETCH(int, bones);
        QFETCH(int, sequences);
        QFETCH(int, triangles);
        const QDir game(test::publicDataDir() +
                        QStringLiteral("/HLSources+afterburner-game-clone/game_content"));
        const QString mdl =
            game.filePath(QStringLiteral("afterburner/models/") + name + QStringLiteral(".mdl"));
        const QString real = game.filePath(QStringLiteral("assets/models/general/") + source);
        if (!QFile::exists(mdl) || !QFile::exists(real)) {
            QSKIP("the Afterburner models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const QString qc = tmp.filePath(QStringLiteral("dec/") + name + QStringLiteral(".qc"));
        const DecompileResult d = decompileFile(mdl.toStdString(), qc.toStdString(), {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(d.notes, std::vector<std::string>());
        const QcReport back = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QCOMPARE(back.project.profile, Profile::Afterburner);
        QCOMPARE(back.project.cdTextures.size(), std::size_t(1));
        const QFileInfo textures(
            QDir(tmp.filePath(QStringLiteral("dec")))
                .filePath(QString::fromStdString(back.project.cdTextures[0].path)));
        QCOMPARE(
            textures.canonicalFilePath(),
            QFileInfo(game.filePath(QStringLiteral("afterburner/textures"))).canonicalFilePath());
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc.toStdString(), mdl.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        int tris = 0;
        for (const CompiledBodypart& b : r.predicted.bodyparts) {
            for (const CompiledSubModel& m : b.models) {
                tris += m.triangles;
            }
        }
        QCOMPARE(tris, triangles);
        const CompareReport theirs =
            compareQcToCompiled(real.toStdString(), mdl.toStdString(), opt);
        QVERIFY2(theirs.ok, theirs.error.c_str());
        QCOMPARE(int(r.predicted.bones.size()), bones);
        QCOMPARE(int(theirs.predicted.bones.size()), bones);
        for (std::size_t b = 0; b < r.predicted.bones.size(); ++b) {
            QCOMPARE(r.predicted.bones[b].name, theirs.predicted.bones[b].name);
        }
        QCOMPARE(int(r.predicted.sequences.size()), sequences);
        QCOMPARE(int(theirs.predicted.sequences.size()), sequences);
        for (std::size_t q = 0; q < r.predicted.sequences.size(); ++q) {
            QCOMPARE(r.predicted.sequences[q].name, theirs.predicted.sequences[q].name);
            QCOMPARE(r.predicted.sequences[q].frames, theirs.predicted.sequences[q].frames);
        }
        const auto check = test::runCli({QStringLiteral("check"), qc});
        QCOMPARE(check.exitCode, 0);
        QVERIFY2(check.err.contains("\n0 errors, ") || check.err.startsWith("0 errors, "),
                 check.err.constData());
    }

    // A static prop's LODs (Half-Life 2's fallentree02, as Portal ships it): its LOD vertices
    // of their own get their tangents from the written LOD triangles too, which decide whether
    // a later LOD's vertex joins them (2,260 for 2,259; 2,244 if tangents were not compared).
    // The report said nothing for static props.
    void staticPropLodTangents()
    {
        const QString mdl =
            QDir(dataRoot())
                .filePath(QStringLiteral(
                    "Valla-Chan+portal-elc-content/models/props_foliage/fallentree02.mdl"));
        if (!QFile::exists(mdl)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const CompareReport r = roundTrip(mdl, tmp.path(), QStringLiteral("tree"));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(r.differences.size()), 1);
        QCOMPARE(r.predicted.bodyparts.at(0).models.at(0).vertices, 2260);
        QCOMPARE(r.compiled.bodyparts.at(0).models.at(0).vertices, 2259);
        QFile qc(tmp.filePath(QStringLiteral("tree.qc")));
        QVERIFY(qc.open(QIODevice::ReadOnly));
        QVERIFY(qc.readAll().contains(" LOD vertices of their own (not LOD 0's): their tangents"));
    }

    // DayHard's male_06_sdk (version 44, six LODs with bone replacements): 394 of its LOD
    // vertices have the position, normal and UV of a vertex an earlier LOD uses, yet lack a
    // bone of it their own LOD still uses (LOD 3's vertex on the left foot's LOD 0 vertex is
    // all on the calf while 46 other LOD 3 vertices keep the foot). studiomdl's UnifyLODs
    // takes LOD weights from LOD 0 and moves them by one bone map per LOD, so no source gives
    // them back: the round reads 4,939 for 5,031, and the report says why. A Left 4 Dead
    // hunter (LOD 1 moves 37 of 53 bones) fits one map per LOD: no such note.
    void lodWeightsNoBoneMapGives()
    {
        const QDir root(dataRoot());
        const QString male =
            root.filePath(QStringLiteral("ScaryPancake+DayHard/models/sdk/Humans/male_06_sdk.mdl"));
        const QString hunter =
            root.filePath(QStringLiteral("blackletum+terror/models/infected/hunter.mdl"));
        if (!QFile::exists(male) || !QFile::exists(hunter)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const std::string qc = tmp.filePath(QStringLiteral("m/male.qc")).toStdString();
        const DecompileResult d = decompileFile(male.toStdString(), qc, {});
        QCOMPARE(d.exitCode, 0);
        QCOMPARE(notesWith(d.notes, "whose weights no LOD 0 vertex gives"), 1);
        QVERIFY(std::find(d.notes.begin(), d.notes.end(),
                          "394 LOD vertices whose weights no LOD 0 vertex gives: each has the "
                          "position, normal and UV of a vertex an earlier LOD uses, yet lacks a "
                          "bone of it (or weighs it less) that its own LOD still uses. studiomdl "
                          "takes a LOD vertex's weights from LOD 0 and moves them by one bone map "
                          "per LOD (UnifyLODs: CalculateBoneWeightFromRootLod, "
                          "BuildBoneLODMapping), so a compiler that kept the LOD files' own "
                          "weights built this model and a recompile joins LOD vertices it kept "
                          "apart") != d.notes.end());
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc, male.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.predicted.bodyparts.at(0).models.at(0).vertices, 4939);
        QCOMPARE(r.compiled.bodyparts.at(0).models.at(0).vertices, 5031);
        const DecompileResult h = decompileFile(
            hunter.toStdString(), tmp.filePath(QStringLiteral("h/hunter.qc")).toStdString(), {});
        QCOMPARE(h.exitCode, 0);
        QCOMPARE(notesWith(h.notes, "whose weights no LOD 0 vertex gives"), 0);
    }

    // A Left 4 Dead 2 survivor: flex shapes in a VTA with their controllers and % rules, jiggle
    // bones, IK chains with every link, $collisionjoints with its constraints.
    void survivorWithFlexes()
    {
        const QString mdl = QDir(dataRoot())
                                .filePath(QStringLiteral(
                                    "blackletum+terror/models/survivors/survivor_producer.mdl"));
        if (!QFile::exists(mdl)) {
            QSKIP("the public models (RIGSCOPE_TESTDATA) are not here");
        }
        QTemporaryDir tmp;
        const std::string qcPath = tmp.filePath(QStringLiteral("producer.qc")).toStdString();
        const DecompileResult d = decompileFile(mdl.toStdString(), qcPath, {});
        QCOMPARE(d.exitCode, 0);
        QVERIFY(!d.notes.empty()); // eyeballs, procedural bones, IK locks
        const OpenedInput compiled = openInput(mdl.toStdString(), Profile::Auto, {});
        QVERIFY(compiled.compiled);
        const CompiledModelInfo& info = *compiled.compiled;
        const QcReport back = qcReportFromFile(qcPath, Profile::Auto);
        QCOMPARE(back.errors, std::size_t(0));
        QCOMPARE(back.compiled.model.skeleton.size(), info.bones.size());
        QCOMPARE(back.project.sequences.size(), info.sequences.size());
        QCOMPARE(back.project.attachments.size(), info.attachments.size());
        QCOMPARE(back.project.hitboxes.size(), info.hitboxCount());
        QCOMPARE(back.project.ikChains.size(), info.ikChainList.size());
        std::size_t jiggles = 0;
        for (const CompiledBone& b : info.bones) {
            jiggles += b.jiggle ? 1 : 0;
        }
        QCOMPARE(back.project.jiggleBones.size(), jiggles);
        QCOMPARE(back.compiled.model.flexShapes.size(), compiled.result.model.flexShapes.size());
        QCOMPARE(back.physics.solids.size(), info.physics.solids.size());
        QFile qc(QString::fromStdString(qcPath));
        QVERIFY(qc.open(QIODevice::ReadOnly));
        const QByteArray text = qc.readAll();
        QCOMPARE(qsizetype(text.count("\tflexcontroller ")),
                 qsizetype(info.flexControllers.size()));
        std::size_t rules = 0;
        for (const CompiledFlexRule& r : info.flexRuleList) {
            rules += r.expression.empty() ? 0 : 1;
        }
        QCOMPARE(qsizetype(text.count("\n\t%")), qsizetype(rules));
        QVERIFY(text.contains("$collisionjoints"));
        QVERIFY(text.contains("$jointconstrain"));

        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qcPath, mdl.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        // Rochelle's LODs are LOD 0 with bones collapsed (bonetreecollapse / replacebone in the
        // template's lod.qci): studiomdl's UnifyLODs gives a LOD vertex within 0.01 of a LOD 0
        // vertex that vertex, weights and all, then moves its weights by the LOD's
        // replacements, and each LOD 0 vertex whose weights that changes is a vertex of its
        // own in the .vvd. The decompiled $lod blocks give the replacements back (read off
        // those vertices: the fingers' tips onto their middle joints at $lod 10, as the
        // template's bonetreecollapse does) and the LOD SMDs LOD 0's weights.
        QVERIFY(text.contains("$lod 10\n{\n\treplacemodel \"producer_model_merged.smd\" "
                              "\"producer_model_merged_lod1.smd\"\n\treplacebone "
                              "\"ValveBiped.Bip01_L_Finger42\" \"ValveBiped.Bip01_L_Finger41\"\n"));
        // The model's source is a DMX, which keeps apart two vertices at (-5.38, -0.15, 4.13)
        // with the same position, normal, UV and weights (their tangents differ), and the LODs
        // moved the weights of each: written alike, studiomdl would weld them (14,877 vertices
        // for 14,879). The second is written with u a float step off, and the LODs' copy of it
        // with that u, so UnifyLODs finds each again: every figure matches.
        QVERIFY(std::find(d.notes.begin(), d.notes.end(),
                          "1 vertex equal to another in position, normal (within 2°), UV and "
                          "weights, which the .vvd holds apart (a DMX source keeps them apart): "
                          "written with u 0.000000059604645 or less off, so that studiomdl's "
                          "weld keeps them apart too") != d.notes.end());
        QVERIFY2(r.differences.empty(), differences(r).c_str());
        QCOMPARE(r.predicted.bodyparts.at(0).models.at(0).vertices, 14879);
    }
};

QTEST_GUILESS_MAIN(TstDecompile)
#include "tst_decompile.moc"
