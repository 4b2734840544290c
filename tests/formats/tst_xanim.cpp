// XANIM_EXPORT and NT_EXPORT readers and writers (FORMATS.md §4, §6): fixtures with expected
// diagnostics, absolute frames, both notetrack styles, NT_EXPORT lookup and merge, round trips.
#include <QtCore/QDir>
#include <QtTest/QtTest>

#include "core/checks/registry.h"
#include "core/formats/xanim/xanim.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString fixture(const QString& rel)
{
    return test::fixturesDir() + u"/xanim/"_qs + rel;
}

core::Model readOk(const QString& rel)
{
    const core::ReadResult r = test::readPath(fixture(rel), test::fixturesDir());
    return r.model;
}

core::ReadResult readAnim(const std::string& bytes)
{
    core::ReadContext ctx;
    ctx.fileName = "mem.xanim_export";
    return core::readXanim(bytes, ctx);
}

} // namespace

class TstXanim : public QObject {
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + u"/xanim"_qs;
        for (const QString& f : test::filesUnder(dir, {u"xanim_export"_qs, u"nt_export"_qs})) {
            QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
        }
    }

    // A non-unit SCALE is kept without a word from the reader; cod.non-unit-scale is a check
    // (issue 16), one a bone at the first frame that has it.
    void nonUnitScaleIsACheck()
    {
        const QString rel = u"xanim/valid/walk_scale.xanim_export"_qs;
        const core::ReadResult r =
            test::readPath(test::fixturesDir() + u'/' + rel, test::fixturesDir());
        QVERIFY(r.hasModel);
        QCOMPARE(test::formatted(r.diagnostics), QStringList());
        core::DiagnosticSink sink(rel.toStdString());
        core::runModelChecks(r.model, core::Profile::Cod, sink, r.diagnostics);
        QStringList got;
        for (const QString& line : test::formatted(sink.diagnostics())) {
            if (line.endsWith(u"[cod.non-unit-scale]"_qs)) {
                got << line;
            }
        }
        QCOMPARE(got, QStringList{
                          u"xanim/valid/walk_scale.xanim_export:27:1: warning: bone 'j_spine' "
                          "scale 1 2 1; ignored by PyCoD and lost in SMD [cod.non-unit-scale]"_qs});
    }

    void fixtures()
    {
        QFETCH(QString, path);
        const core::ReadResult r = test::readPath(path, test::fixturesDir());
        const QStringList got = test::formatted(r.diagnostics);
        QCOMPARE(got, test::expectedFor(path, got));
        QVERIFY(r.hasModel);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
        QCOMPARE(r.hasErrors(), path.contains(u"/invalid/"_qs));
    }

    void counts()
    {
        const core::Model m = readOk(u"valid/walk_perpart.xanim_export"_qs);
        QCOMPARE(m.format, std::string("xanim"));
        QCOMPARE(m.kind, core::ModelKind::Animation);
        QCOMPARE(m.version, 3);
        QCOMPARE(m.skeleton.size(), std::size_t(2));
        QCOMPARE(m.skeleton.parents[1], core::kNoJoint);
        QCOMPARE(m.skeleton.names[1], std::string("j_spine"));
        QCOMPARE(m.animations.size(), std::size_t(1));
        const core::Animation& a = m.animations[0];
        QCOMPARE(a.kind, core::PoseKind::ModelMatrix);
        QCOMPARE(a.frameCount(), std::size_t(3));
        QCOMPARE(a.times, (std::vector<double>{100, 101, 102})); // absolute, not re-based
        QCOMPARE(a.fps, 30.0f);
        QVERIFY(a.fpsFromFile);
        QCOMPARE(a.positions[a.key(2, 1)], core::Vec3(1, 1, 10));
        QVERIFY(a.scales.empty());
        QCOMPARE(a.noteStyle, core::NoteStyle::PerPart);
        QCOMPARE(a.notes.size(), std::size_t(2));
        QCOMPARE(a.notes[1].frame, 102.0);
        QCOMPARE(a.notes[1].text, std::string("foot step #1"));
        QCOMPARE(m.lineEnding, core::LineEnding::CRLF);

        const core::Model flat = readOk(u"valid/walk_flat.xanim_export"_qs);
        QCOMPARE(flat.animations[0].noteStyle, core::NoteStyle::Flat);
        QCOMPARE(flat.animations[0].notes.size(), std::size_t(2));
        QCOMPARE(flat.lineEnding, core::LineEnding::LF);

        const core::Model single = readOk(u"valid/single_frame.xanim_export"_qs);
        QCOMPARE(single.animations[0].times, std::vector<double>{250});

        const core::Model scaled = readOk(u"valid/walk_scale.xanim_export"_qs);
        const core::Animation& s = scaled.animations[0];
        QCOMPARE(s.scales.size(), s.positions.size());
        QCOMPARE(s.scales[s.key(1, 1)], core::Vec3(1, 2, 1));
    }

    void gapsAndCarry()
    {
        // frames 100 101 104 102 102: sorted, the duplicate's last copy wins, the gap is kept.
        const core::Model g = readOk(u"invalid/frame_gaps.xanim_export"_qs);
        QCOMPARE(g.animations[0].times, (std::vector<double>{100, 101, 102, 104}));
        // Frame 101 lacks part 1: carried forward from frame 100.
        const core::Model c = readOk(u"invalid/count_mismatch.xanim_export"_qs);
        const core::Animation& a = c.animations[0];
        QCOMPARE(a.positions[a.key(1, 1)], a.positions[a.key(0, 1)]);
        QCOMPARE(a.explicitKey[a.key(1, 1)], std::uint8_t(0));
        QCOMPARE(a.explicitKey[a.key(1, 0)], std::uint8_t(1));
        const core::Model nofps = readOk(u"invalid/no_framerate.xanim_export"_qs);
        QCOMPARE(nofps.animations[0].fps, 30.0f);
        QVERIFY(!nofps.animations[0].fpsFromFile);
        const core::Model frac = readOk(u"valid/fractional.xanim_export"_qs);
        QCOMPARE(frac.animations[0].times, (std::vector<double>{0, 0.5, 1}));
        QCOMPARE(frac.animations[0].fps, 29.97f);
    }

    void ntExport()
    {
        const QString anim = fixture(u"valid/walk_nonotes.xanim_export"_qs);
        const std::string ntPath = core::ntExportPathFor(anim.toStdString());
        QCOMPARE(QString::fromStdString(ntPath), fixture(u"valid/walk_nonotes.NT_EXPORT"_qs));
        QVERIFY(core::ntExportPathFor(fixture(u"valid/walk_flat.xanim_export"_qs).toStdString())
                    .empty());
        core::Model m = readOk(u"valid/walk_nonotes.xanim_export"_qs);
        QVERIFY(m.animations[0].notes.empty());
        const core::ReadResult nt = test::readPath(QString::fromStdString(ntPath));
        QCOMPARE(nt.model.format, std::string("nt"));
        QCOMPARE(nt.model.animations[0].times, (std::vector<double>{100, 101, 102}));
        core::DiagnosticSink sink("walk.NT_EXPORT");
        core::mergeNotetracks(m, nt.model, sink);
        QVERIFY(sink.diagnostics().empty());
        QCOMPARE(m.animations[0].notes.size(), std::size_t(2));
        QCOMPARE(m.animations[0].noteStyle, core::NoteStyle::SeparateFile);
        // A mismatching NT_EXPORT is merged anyway, with its notes out of range reported.
        core::Model m2 = readOk(u"valid/walk_nonotes.xanim_export"_qs);
        const core::ReadResult other = test::readPath(fixture(u"valid/nt_range.nt_export"_qs));
        core::DiagnosticSink sink2("nt_range.nt_export");
        core::mergeNotetracks(m2, other.model, sink2);
        QStringList ids;
        for (const auto& d : sink2.diagnostics()) {
            ids << QString::fromUtf8(d.id.data(), static_cast<qsizetype>(d.id.size()));
        }
        QCOMPARE(ids, (QStringList{u"cod.ntexport-mismatch"_qs, u"cod.notetrack-range"_qs,
                                   u"cod.notetrack-range"_qs}));
        QCOMPARE(m2.animations[0].notes.size(), std::size_t(2));
        // NT_EXPORT writer round trip.
        const core::WriteResult w = core::writeNtExport(nt.model, {});
        QVERIFY(w.ok());
        QCOMPARE(w.bytes, std::string("FIRSTFRAME 100\r\nNUMFRAMES 3\r\nNUMKEYS 2\r\nFRAME 100 "
                                      "\"start\"\r\nFRAME 102 \"land\"\r\n"));
        core::ReadContext ctx;
        const core::ReadResult back = core::readNtExport(w.bytes, ctx);
        QVERIFY(back.model == nt.model);
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + u"/xanim/valid"_qs;
        for (const QString& f : test::filesUnder(dir, {u"xanim_export"_qs})) {
            QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
        }
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        const core::ReadResult r1 = test::readPath(path);
        const core::WriteResult w1 = core::writeXanim(r1.model, {});
        QVERIFY(w1.ok());
        const core::ReadResult r2 = readAnim(w1.bytes);
        QVERIFY(r2.model == r1.model);
        QCOMPARE(r2.model.lineEnding, r1.model.lineEnding);
        QCOMPARE(core::writeXanim(r2.model, {}).bytes, w1.bytes);
    }

    void writerRules()
    {
        const std::string out =
            core::writeXanim(readOk(u"valid/walk_perpart.xanim_export"_qs), {}).bytes;
        QVERIFY(out.find("FRAME 100\r\n") != std::string::npos);
        QVERIFY(out.find("SCALE") == std::string::npos);
        QVERIFY(
            out.find(
                "PART 0\r\nNUMTRACKS 1\r\nNOTETRACK 0\r\nNUMKEYS 2\r\nFRAME 100 \"start\"\r\n") !=
            std::string::npos);
        QVERIFY(out.find("PART 1\r\nNUMTRACKS 0\r\n") != std::string::npos);
        const std::string flat =
            core::writeXanim(readOk(u"valid/walk_flat.xanim_export"_qs), {}).bytes;
        QVERIFY(flat.find("NOTETRACKS\n\nNUMKEYS 2\nFRAME 100 \"start\"\n") != std::string::npos);
        // Corrected counts: frames are densified and NUMFRAMES recomputed.
        const std::string fixed =
            core::writeXanim(readOk(u"invalid/count_mismatch.xanim_export"_qs), {}).bytes;
        QVERIFY(fixed.find("NUMPARTS 2\r\n") != std::string::npos);
        QVERIFY(fixed.find("NUMFRAMES 3\r\n") != std::string::npos);
        QVERIFY(!readAnim(fixed).hasErrors());
    }

    void hostile()
    {
        const std::string bytes = test::readBytes(fixture(u"valid/walk_scale.xanim_export"_qs));
        for (std::size_t n = 0; n <= bytes.size(); ++n) {
            const core::ReadResult r = readAnim(bytes.substr(0, n));
            if (r.hasModel) {
                QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
                core::writeXanim(r.model, {});
            }
        }
        const core::ReadResult h =
            readAnim("ANIMATION\nVERSION 3\nNUMPARTS 2000000000\nPART 1999999999 \"a\"\n"
                     "FRAMERATE -5\nNUMFRAMES 2000000000\nFRAME 4000000000\nPART 1999999999\n"
                     "FRAME -4000000000\nFRAME nan\n");
        QVERIFY(h.hasModel);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(h.model)), QString());
        core::ReadContext ctx;
        const core::ReadResult nt =
            core::readNtExport("FIRSTFRAME 0\nNUMFRAMES 2000000000\nNUMKEYS 1\n", ctx);
        QVERIFY(nt.hasErrors());
        QCOMPARE(QString::fromStdString(core::verifyInvariants(nt.model)), QString());
    }
};

QTEST_APPLESS_MAIN(TstXanim)
#include "tst_xanim.moc"
