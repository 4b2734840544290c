// XMODEL_BIN / XANIM_BIN (FORMATS.md §5): hash table, container, quantisation, round trips
// text -> bin -> text and bin -> model -> bin, truncations, corruption and misalignment.
#include <cmath>

#include <QtCore/QDir>
#include <QtTest/QtTest>

#include "core/formats/xanim/xanim.h"
#include "core/formats/xbin/xbin.h"
#include "core/formats/xbin/xbin_tokens.h"
#include "core/formats/xmodel/xmodel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

core::ReadResult readBin(const std::string& bytes, const char* name = "mem.xmodel_bin")
{
    core::ReadContext ctx;
    ctx.fileName = name;
    return core::readXbin(bytes, ctx);
}

core::Model readText(const QString& rel)
{
    return test::readPath(test::fixturesDir() + u"/"_qs + rel).model;
}

std::size_t firstAligned(const std::string& s, const char* two)
{
    for (std::size_t i = 0; i + 1 < s.size(); i += 4) {
        if (s[i] == two[0] && s[i + 1] == two[1]) {
            return i;
        }
    }
    return 0;
}

bool near(float a, float b, float tol)
{
    return std::fabs(a - b) <= tol || (std::isnan(a) && std::isnan(b));
}

struct Expected {
    const char* name;
    std::uint16_t type;
    std::uint16_t hash;
};

// FORMATS.md §5.5, verbatim.
const Expected kTable[] = {
    {"//", 0, 0xC355},
    {";", 0, 0x8738},
    {"MODEL", 1, 0x46C8},
    {"ANIMATION", 1, 0x7AAC},
    {"NOTETRACKS", 1, 0xC7F3},
    {"VERSION", 3, 0x24D1},
    {"NUMBONES", 3, 0x76BA},
    {"BONE", 3, 0xDD9A},
    {"BONES", 3, 0xEA46},
    {"NUMVERTS", 3, 0x950D},
    {"VERT", 3, 0x8F03},
    {"NUMOBJECTS", 3, 0x62AF},
    {"NUMMATERIALS", 3, 0xA1B2},
    {"NUMPARTS", 3, 0x9279},
    {"PART", 3, 0x745A},
    {"FRAMERATE", 3, 0x92D3},
    {"NUMTRACKS", 3, 0x9016},
    {"NOTETRACK", 3, 0x4643},
    {"NUMKEYS", 3, 0x7A6C},
    {"FIRSTFRAME", 3, 0xBCD4},
    {"FRAME", 4, 0xC723},
    {"IKPITCHLAYER", 4, 0x1D7D},
    {"NUMVERTS32", 5, 0x2AEC},
    {"VERT32", 5, 0xB097},
    {"NUMFACES", 5, 0xBE92},
    {"NUMFRAMES", 5, 0xB917},
    {"NUMCOSMETICBONES", 5, 0x7836},
    {"NUMSBONES", 5, 0x1FC2},
    {"NUMSWEIGHTS", 5, 0xB35E},
    {"NUMIKPITCHLAYERS", 5, 0xA65B},
    {"COLOR", 6, 0x6DD8},
    {"X", 7, 0xDCFD},
    {"Y", 7, 0xCCDC},
    {"Z", 7, 0xFCBF},
    {"NORMAL", 7, 0x89EC},
    {"PHONG", 8, 0x5CD2},
    {"COEFFS", 9, 0xC835},
    {"GLOW", 9, 0xFE0C},
    {"REFRACTIVE", 9, 0x7E24},
    {"REFLECTIVE", 9, 0x7D76},
    {"BLINN", 9, 0x83C7},
    {"OFFSET", 10, 0x9383},
    {"SCALE", 10, 0x1C56},
    {"ROTATION", 10, 0xA58B},
    {"TRANSPARENCY", 11, 0x6DAB},
    {"AMBIENTCOLOR", 11, 0x37FF},
    {"INCANDESCENCE", 11, 0x4265},
    {"SPECULARCOLOR", 11, 0x317C},
    {"REFLECTIVECOLOR", 11, 0xE593},
    {"QUATERNION", 11, 0xEF69},
    {"EXTRA", 11, 0x6EEE},
    {"BONE", 12, 0xF1AB},
    {"UV", 13, 0x1AD4},
    {"OBJECT", 14, 0x87D4},
    {"PART", 14, 0x360B},
    {"MATERIAL", 15, 0xA700},
    {"FRAME", 16, 0x1675},
    {"BONE", 17, 0xF099},
    {"TRI", 18, 0x562F},
    {"TRI16", 19, 0x6711},
};

} // namespace

class TstXbin : public QObject {
    Q_OBJECT

private slots:
    void hashTable()
    {
        QCOMPARE(core::xbin::codHash("MODEL", 1), std::uint16_t(0x46C8));
        for (const Expected& e : kTable) {
            QCOMPARE(core::xbin::codHash(e.name, e.type), e.hash);
            const core::xbin::TokenInfo* t = core::xbin::tokenByHash(e.hash);
            QVERIFY2(t, e.name);
            QCOMPARE(std::string(t->name), std::string(e.name));
            QCOMPARE(static_cast<std::uint16_t>(t->type), e.type);
        }
        std::size_t n = 0;
        core::xbin::tokenTable(n);
        QCOMPARE(n, std::size(kTable));
        // NUMCOSMETICS matches 0x7836 under no type.
        for (std::uint16_t type = 0; type < 20; ++type) {
            QVERIFY(core::xbin::codHash("NUMCOSMETICS", type) != 0x7836);
        }
    }

    // RIGSCOPE_BLESS=1 regenerates the binary fixtures from the text fixtures.
    void generateFixtures()
    {
        if (!test::blessing()) {
            QSKIP("fixtures are generated with RIGSCOPE_BLESS=1");
        }
        const QString dir = test::fixturesDir() + u"/xbin/"_qs;
        auto save = [&](const QString& rel, const std::string& bytes) {
            QFile f(dir + rel);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.data(), static_cast<qint64>(bytes.size()));
        };
        const std::string cube =
            core::writeXmodelBin(readText(u"xmodel/valid/cube_v6.xmodel_export"_qs), {}).bytes;
        save(u"valid/cube_v6.xmodel_bin"_qs, cube);
        save(u"valid/cube_v7.xmodel_bin"_qs,
             core::writeXmodelBin(readText(u"xmodel/valid/cube_v7.xmodel_export"_qs), {}).bytes);
        save(u"valid/walk_perpart.xanim_bin"_qs,
             core::writeXanimBin(readText(u"xanim/valid/walk_perpart.xanim_export"_qs), {}).bytes);
        save(u"valid/walk_flat.xanim_bin"_qs,
             core::writeXanimBin(readText(u"xanim/valid/walk_flat.xanim_export"_qs), {}).bytes);
        save(u"valid/anim_as_model_ext.xmodel_bin"_qs,
             core::writeXanimBin(readText(u"xanim/valid/walk_flat.xanim_export"_qs), {}).bytes);
        save(u"invalid/bad_magic.xmodel_bin"_qs, "*LZ5*" + cube.substr(5));
        save(u"invalid/truncated.xmodel_bin"_qs, cube.substr(0, cube.size() - 7));
        std::string hostile = cube;
        hostile[5] = hostile[6] = hostile[7] = hostile[8] = '\xFF';
        save(u"invalid/hostile_size.xmodel_bin"_qs, hostile);
        std::string stream;
        QVERIFY(core::xbin::unwrapContainer(cube, stream));
        std::string unknown = stream;
        const std::size_t at = firstAligned(stream, "\x83\x93");
        unknown[at] = '\xFF';
        unknown[at + 1] = '\xFF';
        save(u"invalid/unknown_hash.xmodel_bin"_qs, core::xbin::wrapContainer(unknown));
        save(u"invalid/cut_stream.xmodel_bin"_qs,
             core::xbin::wrapContainer(stream.substr(0, stream.size() / 2 + 1)));
    }

    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + u"/xbin"_qs;
        for (const QString& f : test::filesUnder(dir, {u"xmodel_bin"_qs, u"xanim_bin"_qs})) {
            QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
        }
    }
    void fixtures()
    {
        QFETCH(QString, path);
        const core::ReadResult r = test::readPath(path, test::fixturesDir());
        const QStringList got = test::formatted(r.diagnostics);
        QCOMPARE(got, test::expectedFor(path, got));
        if (r.hasModel) {
            QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
        }
        QCOMPARE(r.hasErrors(), path.contains(u"/invalid/"_qs));
    }

    void textToBinToText()
    {
        const core::Model t = readText(u"xmodel/valid/cube_v7.xmodel_export"_qs);
        const core::WriteResult w = core::writeXmodelBin(t, {});
        QVERIFY(w.ok());
        const core::ReadResult r = readBin(w.bytes);
        QVERIFY2(!r.hasErrors(), qPrintable(test::formatted(r.diagnostics).join(u'\n')));
        const core::Model& b = r.model;
        QCOMPARE(b.format, std::string("xmodel_bin"));
        QCOMPARE(b.version, 7);
        QCOMPARE(b.skeleton.names, t.skeleton.names);
        QCOMPARE(b.skeleton.parents, t.skeleton.parents);
        QCOMPARE(b.mesh.pointCount(), t.mesh.pointCount());
        QCOMPARE(b.mesh.triangleCount(), t.mesh.triangleCount());
        QCOMPARE(b.mesh.cornerPoints, t.mesh.cornerPoints);
        QCOMPARE(b.mesh.uvSetCount, t.mesh.uvSetCount);
        QCOMPARE(b.mesh.influenceWeights, t.mesh.influenceWeights);
        QCOMPARE(b.mesh.materials.size(), t.mesh.materials.size());
        QCOMPARE(b.headerComments, t.headerComments);
        for (std::size_t j = 0; j < t.skeleton.size(); ++j) {
            QCOMPARE(b.skeleton.bindPositions[j], t.skeleton.bindPositions[j]); // float32: exact
            for (int k = 0; k < 9; ++k) {
                QVERIFY(near(b.skeleton.bindAxes[j].data()[k], t.skeleton.bindAxes[j].data()[k],
                             0.5f / 32767));
            }
        }
        for (std::size_t c = 0; c < t.mesh.cornerCount(); ++c) {
            for (int k = 0; k < 3; ++k) {
                QVERIFY(near(b.mesh.cornerNormals[c][k], t.mesh.cornerNormals[c][k], 0.5f / 32767));
            }
            for (int k = 0; k < 4; ++k) {
                QVERIFY(near(b.mesh.cornerColors[c][k], t.mesh.cornerColors[c][k], 0.5f / 255));
            }
            QCOMPARE(b.mesh.cornerUvs[c], t.mesh.cornerUvs[c]);
        }
        // And back to text: the same grammar, the same counts.
        const core::WriteResult text = core::writeXmodel(b, {});
        QVERIFY(text.ok());
        QVERIFY(text.bytes.find("VERSION 7\r\n") != std::string::npos);

        const core::Model at = readText(u"xanim/valid/walk_perpart.xanim_export"_qs);
        const core::ReadResult ab = readBin(core::writeXanimBin(at, {}).bytes, "mem.xanim_bin");
        QVERIFY(!ab.hasErrors());
        QCOMPARE(ab.model.format, std::string("xanim_bin"));
        const core::Animation& x = ab.model.animations[0];
        const core::Animation& y = at.animations[0];
        QCOMPARE(x.times, y.times);
        QCOMPARE(x.fps, y.fps);
        QVERIFY(x.notes == y.notes);
        QCOMPARE(x.noteStyle, y.noteStyle);
        QCOMPARE(x.positions.size(), y.positions.size());
        for (std::size_t k = 0; k < x.positions.size(); ++k) {
            QCOMPARE(x.positions[k], y.positions[k]);
        }
    }

    void binStable_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* p :
             {"xmodel/valid/cube_v6.xmodel_export", "xmodel/valid/cube_v5.xmodel_export",
              "xmodel/valid/cube_v7.xmodel_export", "xmodel/valid/color_range.xmodel_export",
              "xanim/valid/walk_perpart.xanim_export", "xanim/valid/walk_flat.xanim_export",
              "xanim/valid/walk_scale.xanim_export"}) {
            QTest::newRow(p) << QString::fromUtf8(p);
        }
    }
    void binStable()
    {
        QFETCH(QString, path);
        const core::Model t = readText(path);
        const bool anim = t.kind == core::ModelKind::Animation;
        auto write = [anim](const core::Model& m) {
            return anim ? core::writeXanimBin(m, {}) : core::writeXmodelBin(m, {});
        };
        const std::string b1 = write(t).bytes;
        const core::ReadResult r1 = readBin(b1);
        QVERIFY(r1.hasModel);
        const std::string b2 = write(r1.model).bytes;
        QVERIFY(b1 == b2);
        QVERIFY(write(r1.model).ok());
        const core::ReadResult r2 = readBin(b2);
        QVERIFY(r2.model == r1.model);
    }

    void quantisation()
    {
        core::Model m = readText(u"xmodel/valid/cube_v6.xmodel_export"_qs);
        m.mesh.cornerNormals[0] = core::Vec3(100.6f / 32767, 1.5f, -2.0f);
        m.mesh.cornerColors[0] = core::Vec4(-1, 0.5f, 2, 1);
        const core::WriteResult w = core::writeXmodelBin(m, {});
        QStringList ids;
        for (const auto& d : w.diagnostics) {
            ids << QString::fromUtf8(d.id.data(), static_cast<qsizetype>(d.id.size()));
        }
        QCOMPARE(ids, QStringList{u"write.quantise-clamp"_qs});
        QCOMPARE(w.diagnostics[0].severity, core::Severity::Warning);
        const core::Model b = readBin(w.bytes).model;
        QCOMPARE(b.mesh.cornerNormals[0].x(), 101.0f / 32767); // nearest, not truncated
        QCOMPARE(b.mesh.cornerNormals[0].y(), 1.0f);
        QCOMPARE(b.mesh.cornerNormals[0].z(), -1.0f);
        QCOMPARE(b.mesh.cornerColors[0], core::Vec4(0, 128.0f / 255, 1, 1));
    }

    void truncatedAndCorrupted()
    {
        const std::string cube =
            core::writeXmodelBin(readText(u"xmodel/valid/cube_v6.xmodel_export"_qs), {}).bytes;
        for (std::size_t n = 0; n < cube.size(); ++n) {
            const core::ReadResult r = readBin(cube.substr(0, n));
            QVERIFY(r.hasErrors());
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
            }
        }
        // Every prefix of the decompressed stream, re-wrapped: diagnostics, never a crash.
        std::string stream;
        QVERIFY(core::xbin::unwrapContainer(cube, stream));
        for (std::size_t n = 1; n < stream.size(); ++n) {
            const core::ReadResult r = readBin(core::xbin::wrapContainer(stream.substr(0, n)));
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
                core::writeXmodelBin(r.model, {});
                core::writeXmodel(r.model, {});
            }
        }
        // Byte flips inside the stream.
        for (std::size_t n = 0; n < stream.size(); n += 3) {
            std::string s = stream;
            s[n] = static_cast<char>(s[n] ^ 0x5A);
            const core::ReadResult r = readBin(core::xbin::wrapContainer(s));
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
            }
        }
        // Unknown hash: error with the offset into the decompressed stream.
        std::string unknown = stream;
        const std::size_t at = firstAligned(stream, "\x83\x93"); // the first OFFSET token
        unknown[at] = '\xFF';
        unknown[at + 1] = '\xFF';
        const core::ReadResult u = readBin(core::xbin::wrapContainer(unknown));
        QVERIFY(u.hasErrors());
        const QString text = test::formatted(u.diagnostics).join(u'\n');
        QVERIFY2(
            text.contains(QStringLiteral("mem.xmodel_bin:@0x%1: error: unknown token hash 0xFFFF")
                              .arg(at, 4, 16, QChar(u'0'))
                              .toUpper()
                              .replace(u"MEM.XMODEL_BIN:@0X"_qs, u"mem.xmodel_bin:@0x"_qs)
                              .replace(u": ERROR: UNKNOWN TOKEN HASH 0XFFFF"_qs,
                                       u": error: unknown token hash 0xFFFF"_qs)),
            qPrintable(text));
        QVERIFY(text.contains(u"decompressed"_qs));
        // Hostile UV count and string without NUL.
        const core::ReadResult h =
            readBin(core::xbin::wrapContainer(std::string("\xC8\x46\x00\x00\xD4\x1A\xFF\xFF", 8)));
        QVERIFY(h.hasErrors());
    }

    void misalignedNoteFrame()
    {
        // PyCoD's suspected note-frame writer bug: no padding after the note string.
        core::Model m = readText(u"xanim/valid/walk_flat.xanim_export"_qs);
        m.animations[0].notes.resize(1);
        m.animations[0].notes[0].text = "ab"; // 4 + 4 + 3 bytes: unpadded end at +11
        const std::string good = core::writeXanimBin(m, {}).bytes;
        std::string stream;
        QVERIFY(core::xbin::unwrapContainer(good, stream));
        // The note is the last token; append a second one unpadded after it.
        const std::size_t last = stream.rfind(std::string("\x75\x16", 2));
        QVERIFY(last != std::string::npos);
        std::string note = stream.substr(last); // padded note token (12 bytes)
        std::string bad = stream.substr(0, last) + note.substr(0, 11) + note;
        // Fix NUMKEYS to 2.
        const std::size_t keys = stream.rfind(std::string("\x6C\x7A", 2));
        bad[keys + 2] = 2;
        const core::ReadResult r = readBin(core::xbin::wrapContainer(bad), "mem.xanim_bin");
        const QString text = test::formatted(r.diagnostics).join(u'\n');
        QVERIFY2(text.contains(u"[syntax.bin-misaligned]"_qs), qPrintable(text));
        QVERIFY2(!r.hasErrors(), qPrintable(text));
        QCOMPARE(r.model.animations[0].notes.size(), std::size_t(2));
    }
};

QTEST_APPLESS_MAIN(TstXbin)
#include "tst_xbin.moc"
