// The afterburner profile (docs/profiles.md "afterburner"): Afterburner's abstudiomdl, GoldSrc's
// studiomdl forked, on a small project written here, how `auto` finds it ($flags 2048), and the
// Afterburner game's public QC projects against the models abstudiomdl built from them
// (RIGSCOPE_TESTDATA, default /work/data; skipped when absent), with the figures pinned here.
#include <QtTest/QtTest>

#include "core/diag/limits.h"
#include "core/diag/profile.h"
#include "core/ops/check.h"
#include "core/ops/compare.h"
#include "core/ops/qc_ops.h"
#include "tests/support/public_data.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// box.qc and box.smd (bones root and tip, one triangle on root textured `material`) in `dir`,
// with `extra` QC lines; the QC's path.
QString writeProject(const QTemporaryDir& dir, const QByteArray& flags, const QByteArray& material,
                     const QByteArray& extra = {})
{
    write(dir.filePath(QStringLiteral("box.qc")),
          "$modelname \"box.mdl\"\n$cdtexture \".\"\n" + flags +
              "$body studio \"box\"\n$sequence idle \"box\" fps 30\n" + extra);
    write(dir.filePath(QStringLiteral("box.smd")),
          "version 1\nnodes\n0 \"root\" -1\n1 \"tip\" 0\nend\nskeleton\ntime 0\n"
          "0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\n"
          "triangles\n" +
              material + "\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n");
    return dir.filePath(QStringLiteral("box.qc"));
}

struct Outcome {
    Profile profile = Profile::Auto;
    std::size_t errors = 0;
    QStringList errorIds;
};

Outcome check(const QString& qc, Profile requested = Profile::Auto)
{
    CheckOptions opt;
    opt.profile = requested;
    Outcome o;
    const std::vector<CheckedFile> files = checkQcProject(qc.toStdString(), opt);
    if (!files.empty()) {
        o.profile = files.front().profile; // the QC's
    }
    for (const CheckedFile& f : files) {
        for (const Diagnostic& d : f.diagnostics) {
            if (d.severity == Severity::Error) {
                o.errors += d.count();
                o.errorIds << QString::fromUtf8(d.id.data(), qsizetype(d.id.size()));
            }
        }
    }
    return o;
}

} // namespace

class TstAfterburnerProfile : public QObject {
    Q_OBJECT
private slots:
    void nameAndLimits()
    {
        QCOMPARE(parseProfile("afterburner"), std::optional<Profile>(Profile::Afterburner));
        QCOMPARE(profileName(Profile::Afterburner), std::string_view("afterburner"));
        QCOMPARE(profileColumn(Profile::Afterburner), 0); // grades as goldsrc, less what differs
        QVERIFY(goldSrcFamily(Profile::Afterburner) && goldSrcStudiomdl(Profile::Afterburner));
        QVERIFY(!goldSrcStudiomdl(Profile::Pathos));
        // abstudiomdl's binary: "too many vertices in model" and "... normals ..." past 16,384,
        // "too many textures in model" past 256; Valve's stops at 2,048 and 100.
        const Limits a = limitsFor(Profile::Afterburner);
        const Limits g = limitsFor(Profile::GoldSrc);
        QCOMPARE(a.uniqueVertices, std::size_t(16384));
        QCOMPARE(a.uniqueNormals, std::size_t(16384));
        QCOMPARE(a.materials, std::size_t(256));
        QCOMPARE(g.uniqueVertices, std::size_t(2048));
        QCOMPARE(g.materials, std::size_t(100));
        QCOMPARE(a.bones, g.bones);
        QCOMPARE(a.weightsPerVertex, g.weightsPerVertex);
    }

    // $flags 2048 (STUDIO_NO_EMBEDDED_TEXTURES) means nothing to Valve's studiomdl; abstudiomdl
    // takes .png textures under it: `auto` checks such a QC as afterburner, where a .png is
    // right. Without the flag the project is GoldSrc's, whose studiomdl reads only .bmp.
    void flagsChooseTheProfile()
    {
        QTemporaryDir dir;
        const QString qc = writeProject(dir, "$flags 2048\n", "mdl/box.png");
        const Outcome ab = check(qc);
        QCOMPARE(ab.profile, Profile::Afterburner);
        QCOMPARE(ab.errorIds, QStringList());
        const Outcome forced = check(qc, Profile::GoldSrc);
        QCOMPARE(forced.profile, Profile::GoldSrc);
        QCOMPARE(forced.errorIds, QStringList{QStringLiteral("mesh.material-not-bmp")});
        const QString plain = writeProject(dir, "$flags 0\n", "mdl/box.png");
        const Outcome gs = check(plain);
        QCOMPARE(gs.profile, Profile::GoldSrc);
        QCOMPARE(gs.errorIds, QStringList{QStringLiteral("mesh.material-not-bmp")});
        // abstudiomdl grabs .bmp and .png only ("Unsupported graphics format").
        const Outcome tga = check(writeProject(dir, "$flags 2048\n", "box.tga"));
        QCOMPARE(tga.profile, Profile::Afterburner);
        QCOMPARE(tga.errorIds, QStringList{QStringLiteral("mesh.material-not-bmp")});
    }

    // A $hbox on a bone no vertex uses: Valve's SimplifyModel stops ("cannot find bone %s for
    // bbox"); abstudiomdl keeps the bone, last in the table (Afterburner's waiter.mdl).
    void hitboxKeepsItsBone()
    {
        QTemporaryDir dir;
        const QByteArray hbox = "$hbox 0 \"tip\" 0 0 0 1 1 1\n";
        const Outcome ab = check(writeProject(dir, "$flags 2048\n", "box.bmp", hbox));
        QCOMPARE(ab.profile, Profile::Afterburner);
        QCOMPARE(ab.errorIds, QStringList());
        const Outcome gs = check(writeProject(dir, "$flags 0\n", "box.bmp", hbox));
        QCOMPARE(gs.profile, Profile::GoldSrc);
        QCOMPARE(gs.errorIds, QStringList{QStringLiteral("qc.unknown-bone")});
    }

    // The Afterburner game's projects against the models abstudiomdl built (563 'AFTB' of the
    // 574 pairs by $modelname match in every field compared; docs/cli.md): a few pinned here,
    // those that differ included, with the errors `check` gives their QCs.
    void publicPairs_data()
    {
        QTest::addColumn<QString>("qc");
        QTest::addColumn<QString>("mdl");
        QTest::addColumn<int>("differences");
        QTest::addColumn<bool>("stale");
        QTest::addColumn<int>("checkErrors");
        QTest::newRow("Bench") << u"general/Bench/Bench.qc"_qs << u"Bench.mdl"_qs << 0 << false
                               << 0;
        QTest::newRow("Bicycle") << u"general/Bicycle/Bicycle.qc"_qs << u"Bicycle.mdl"_qs << 0
                                 << false << 0;
        QTest::newRow("3rd_person")
            << u"general/3rd_person/3rd_person.qc"_qs << u"3rd_person.mdl"_qs << 0 << false << 0;
        // Bone09, Bone11, Bone17 and Bone19 kept for their $hbox lines (they were 4
        // qc.unknown-bone errors and 6 differences).
        QTest::newRow("waiter") << u"general/waiter/waiter.qc"_qs << u"waiter.mdl"_qs << 0 << false
                                << 0;
        // Built by Valve's studiomdl ('IDST') from other sources: stale.
        QTest::newRow("p_tripmine")
            << u"general/p_tripmine/p_tripmine.qc"_qs << u"p_tripmine.mdl"_qs << 7 << true << 0;
    }
    void publicPairs()
    {
        QFETCH(QString, qc);
        QFETCH(QString, mdl);
        QFETCH(int, differences);
        QFETCH(bool, stale);
        QFETCH(int, checkErrors);
        const QString root = test::publicDataDir() +
                             QStringLiteral("/HLSources+afterburner-game-clone/game_content/");
        const QString qcPath = root + QStringLiteral("assets/models/") + qc;
        const QString mdlPath = root + QStringLiteral("afterburner/models/") + mdl;
        if (!QFileInfo::exists(qcPath) || !QFileInfo::exists(mdlPath)) {
            QSKIP("the Afterburner projects (RIGSCOPE_TESTDATA) are not here");
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r =
            compareQcToCompiled(qcPath.toStdString(), mdlPath.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QStringList fields;
        for (const CompareDifference& d : r.differences) {
            fields << QString::fromStdString(d.field + ": " + d.predicted + " / " + d.compiled);
        }
        QVERIFY2(int(r.differences.size()) == differences, qPrintable(fields.join(u'\n')));
        QCOMPARE(!r.staleReasons.empty(), stale);
        const Outcome c = check(qcPath);
        QCOMPARE(c.profile, Profile::Afterburner);
        QVERIFY2(int(c.errors) == checkErrors, qPrintable(c.errorIds.join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TstAfterburnerProfile)
#include "tst_afterburner_profile.moc"
