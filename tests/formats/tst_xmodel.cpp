// XMODEL_EXPORT reader and writer (FORMATS.md §3, §6): fixtures with expected diagnostics,
// exact counts, variants, round trips and hostile prefixes.
#include <QtCore/QDir>
#include <QtTest/QtTest>

#include "core/checks/registry.h"
#include "core/formats/xmodel/xmodel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

core::Model readOk(const QString& rel)
{
    const core::ReadResult r =
        test::readPath(test::fixturesDir() + u"/xmodel/"_qs + rel, test::fixturesDir());
    if (!r.hasModel) {
        qWarning() << test::formatted(r.diagnostics);
    }
    return r.model;
}

core::ReadResult readBytes(const std::string& bytes, const char* name = "mem.xmodel_export")
{
    core::ReadContext ctx;
    ctx.fileName = name;
    return core::readXmodel(bytes, ctx);
}

} // namespace

class TstXmodel : public QObject {
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + u"/xmodel"_qs;
        for (const QString& f : test::filesUnder(dir, {u"xmodel_export"_qs})) {
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
        const bool invalid = path.contains(u"/invalid/"_qs);
        QCOMPARE(r.hasErrors(), invalid);
    }

    void counts()
    {
        const core::Model m = readOk(u"valid/cube_v6.xmodel_export"_qs);
        QCOMPARE(m.format, std::string("xmodel"));
        QCOMPARE(m.version, 6);
        QCOMPARE(m.kind, core::ModelKind::Reference);
        QCOMPARE(m.skeleton.size(), std::size_t(3));
        QCOMPARE(m.skeleton.names[2], std::string("j head #1"));
        QCOMPARE(m.skeleton.parents[2], 1);
        QCOMPARE(m.skeleton.bindKind, core::PoseKind::ModelMatrix);
        QCOMPARE(m.skeleton.bindAxes[1].col(0), core::Vec3(0, 1, 0));
        QCOMPARE(m.skeleton.bindAxes[1].col(1), core::Vec3(-1, 0, 0));
        QCOMPARE(m.skeleton.bindPositions[2], core::Vec3(0, 5, 12.5f));
        QCOMPARE(m.mesh.pointCount(), std::size_t(4));
        QCOMPARE(m.mesh.triangleCount(), std::size_t(2));
        QCOMPARE(m.mesh.materials.size(), std::size_t(1));
        QCOMPARE(m.mesh.objects.size(), std::size_t(1));
        QCOMPARE(m.mesh.materials[0].images, std::string("c:/textures/cube_col#2.tga"));
        QCOMPARE(m.mesh.materials[0].type, std::string("Lambert"));
        QCOMPARE(m.mesh.materials[0].params.size(), std::size_t(12));
        QCOMPARE(m.mesh.materials[0].params[6].key, std::string("REFRACTIVE"));
        QCOMPARE(m.mesh.influenceCount(1), 2u);
        QCOMPARE(m.mesh.cornerPoints[1], 2u);
        QCOMPARE(m.mesh.cornerColors.size(), std::size_t(6));
        QCOMPARE(m.mesh.pointLinkState[0], core::LinkState::List);
        QCOMPARE(m.mesh.pointParents[0], core::kNoJoint);
        QCOMPARE(m.lineEnding, core::LineEnding::CRLF);
        QCOMPARE(m.headerComments.size(), std::size_t(2));
    }

    void variants()
    {
        const core::Model base = readOk(u"valid/cube_v6.xmodel_export"_qs);
        // Commas without a space and LF files read to the same model.
        QVERIFY(readOk(u"valid/comma_nospace.xmodel_export"_qs) == base);
        const core::Model lf = readOk(u"valid/cube_v6_lf.xmodel_export"_qs);
        QVERIFY(lf == base);
        QCOMPARE(lf.lineEnding, core::LineEnding::LF);

        const core::Model v5 = readOk(u"valid/cube_v5.xmodel_export"_qs);
        QCOMPARE(v5.version, 5);
        QCOMPARE(v5.mesh.triangleCount(), std::size_t(2));
        QVERIFY(v5.mesh.cornerColors.empty());
        QCOMPARE(v5.mesh.cornerUvs[1], core::Vec2(0.5f, 0.5f));
        QCOMPARE(v5.mesh.materials[0].images, std::string("cube_col.tga"));

        const core::Model v7 = readOk(u"valid/cube_v7.xmodel_export"_qs);
        QCOMPARE(v7.version, 7);
        QCOMPARE(v7.mesh.pointCount(), std::size_t(4));
        QCOMPARE(v7.mesh.triangleCount(), std::size_t(2));
        QCOMPARE(v7.mesh.uvSetCount, 2u);
        QCOMPARE(v7.mesh.cornerExtraUvs[0], core::Vec2(0.125f, 0.75f));
    }

    // Meaning checks (issue 16): the reader keeps what the file says without a word; the checks
    // report it once, at the bone's BONE line or the first such corner's VERT line.
    void meaningChecks_data()
    {
        QTest::addColumn<QString>("rel");
        QTest::addColumn<QString>("expected");
        QTest::newRow("color range")
            << u"xmodel/valid/color_range.xmodel_export"_qs
            << u"xmodel/valid/color_range.xmodel_export:58:1: note: 2 vertex "
               "colours outside 0..1 (e.g. 1.5 1 1 1) [cod.color-range]"_qs;
        QTest::newRow("bone matrix")
            << u"xmodel/valid/bone_matrix.xmodel_export"_qs
            << u"xmodel/valid/bone_matrix.xmodel_export:19:1: warning: bone "
               "'j_spine' rotation not orthonormal (det 1.5) [cod.bone-matrix]"_qs;
        QTest::newRow("non-unit scale")
            << u"xmodel/valid/non_unit_scale.xmodel_export"_qs
            << u"xmodel/valid/non_unit_scale.xmodel_export:26:1: warning: bone "
               "'j head #1' scale 2 2 2; ignored by PyCoD and lost in SMD "
               "[cod.non-unit-scale]"_qs;
    }
    void meaningChecks()
    {
        QFETCH(QString, rel);
        QFETCH(QString, expected);
        const core::ReadResult r =
            test::readPath(test::fixturesDir() + u'/' + rel, test::fixturesDir());
        QVERIFY(r.hasModel);
        QCOMPARE(test::formatted(r.diagnostics), QStringList());
        core::DiagnosticSink sink(rel.toStdString());
        core::runModelChecks(r.model, core::Profile::Cod, sink, r.diagnostics);
        const QString id = expected.mid(expected.lastIndexOf(u'['));
        QStringList got;
        for (const QString& line : test::formatted(sink.diagnostics())) {
            if (line.endsWith(id)) {
                got << line;
            }
        }
        QCOMPARE(got, QStringList{expected});
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + u"/xmodel/valid"_qs;
        for (const QString& f : test::filesUnder(dir, {u"xmodel_export"_qs})) {
            QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
        }
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        const core::ReadResult r1 = test::readPath(path);
        QVERIFY(r1.hasModel);
        const core::WriteResult w1 = core::writeXmodel(r1.model, {});
        QVERIFY(w1.ok());
        const core::ReadResult r2 = readBytes(w1.bytes);
        QVERIFY2(!r2.hasErrors(), qPrintable(test::formatted(r2.diagnostics).join(u'\n')));
        QVERIFY(r2.model == r1.model);
        QCOMPARE(r2.model.version, r1.model.version);
        QCOMPARE(r2.model.lineEnding, r1.model.lineEnding);
        const core::WriteResult w2 = core::writeXmodel(r2.model, {});
        QCOMPARE(w2.bytes, w1.bytes);
    }

    void writerRules()
    {
        const core::Model m = readOk(u"valid/cube_v6.xmodel_export"_qs);
        const std::string out = core::writeXmodel(m, {}).bytes;
        QVERIFY(out.find("OFFSET 0 5 12.5\r\n") != std::string::npos);
        QVERIFY(out.find("NUMVERTS 4\r\n") != std::string::npos);
        QVERIFY(out.find("TRI 0 0 0 0\r\n") != std::string::npos);
        QVERIFY(out.find("UV 1 0.5 0.5\r\n") != std::string::npos);
        QVERIFY(out.find("REFRACTIVE 6 1\r\n") != std::string::npos);
        QVERIFY(out.find("\n\n") == std::string::npos || out.find("\r\n\r\n") != std::string::npos);
        // Counts are recomputed: the count-mismatch file writes correct counts.
        const core::ReadResult bad = test::readPath(
            test::fixturesDir() + u"/xmodel/invalid/count_mismatch.xmodel_export"_qs);
        const std::string fixed = core::writeXmodel(bad.model, {}).bytes;
        QVERIFY(fixed.find("NUMBONES 3\r\n") != std::string::npos);
        QVERIFY(fixed.find("NUMVERTS 4\r\n") != std::string::npos);
        QVERIFY(fixed.find("NUMFACES 2\r\n") != std::string::npos);
        QVERIFY(!readBytes(fixed).hasErrors());
        // v5 and v7 keep their grammar.
        const std::string v5 =
            core::writeXmodel(readOk(u"valid/cube_v5.xmodel_export"_qs), {}).bytes;
        QVERIFY(v5.find("VERT 2 0 0 1 0.5 0.5\r\n") != std::string::npos);
        QVERIFY(v5.find("MATERIAL 0 \"cube_col.tga\"\r\n") != std::string::npos);
        const std::string v7 =
            core::writeXmodel(readOk(u"valid/cube_v7.xmodel_export"_qs), {}).bytes;
        QVERIFY(v7.find("UV 2 0 0.5 0.125 0.75\r\n") != std::string::npos);
    }

    void v7Large()
    {
        // A v7 pool above 65535 vertices and an object index above 255 use VERT32 / TRI16.
        core::Model m = readOk(u"valid/cube_v7.xmodel_export"_qs);
        const core::Vec3 p(1, 2, 3);
        while (m.mesh.pointCount() < 70000) {
            const core::JointIndex j = 0;
            const float w = 1;
            m.mesh.pointPositions.push_back(p);
            m.mesh.pointParents.push_back(core::kNoJoint);
            m.mesh.pointLinkState.push_back(core::LinkState::List);
            m.mesh.pointWhere.push_back({});
            m.mesh.influenceJoints.push_back(j);
            m.mesh.influenceWeights.push_back(w);
            m.mesh.influenceOffsets.push_back(
                static_cast<std::uint32_t>(m.mesh.influenceJoints.size()));
        }
        m.mesh.objects.resize(300, "o");
        m.mesh.triangleObjects[1] = 299;
        m.mesh.cornerPoints[0] = 69999;
        QCOMPARE(QString::fromStdString(core::verifyInvariants(m)), QString());
        const std::string out = core::writeXmodel(m, {}).bytes;
        QVERIFY(out.find("NUMVERTS32 70000\r\n") != std::string::npos);
        QVERIFY(out.find("VERT32 69999\r\n") != std::string::npos);
        QVERIFY(out.find("TRI16 299 0 0 0\r\n") != std::string::npos);
        const core::ReadResult back = readBytes(out);
        QVERIFY(!back.hasErrors());
        QVERIFY(back.model == m);
    }

    void hostilePrefixes()
    {
        const std::string bytes =
            test::readBytes(test::fixturesDir() + u"/xmodel/valid/cube_v7.xmodel_export"_qs);
        for (std::size_t n = 0; n <= bytes.size(); ++n) {
            const core::ReadResult r = readBytes(bytes.substr(0, n));
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
                core::writeXmodel(r.model, {});
            }
        }
        // Hostile counts and indices do not drive allocations.
        const core::ReadResult h =
            readBytes("MODEL\nVERSION 6\nNUMBONES 2000000000\nBONE 1999999999 -1 \"a\"\n"
                      "NUMVERTS 2000000000\nVERT 1999999999\nOFFSET 1 2 3\nBONES 9999999\n"
                      "NUMFACES 1\nTRI 0 0 0 0\nVERT 1999999999\nUV 99999 1 2\n");
        QVERIFY(h.hasModel);
        QVERIFY(h.hasErrors());
        QCOMPARE(QString::fromStdString(core::verifyInvariants(h.model)), QString());
    }

    void byteFlips()
    {
        const std::string bytes =
            test::readBytes(test::fixturesDir() + u"/xmodel/valid/cube_v6.xmodel_export"_qs);
        const char junk[] = {'"', ',', '-', '9', '\n', 'X', ' ', '\0'};
        for (std::size_t n = 0; n < bytes.size(); n += 3) {
            std::string b = bytes;
            b[n] = junk[n % sizeof junk];
            const core::ReadResult r = readBytes(b);
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
                core::writeXmodel(r.model, {});
            }
        }
    }
};

QTEST_APPLESS_MAIN(TstXmodel)
#include "tst_xmodel.moc"
