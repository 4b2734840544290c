// The Compare view's ghost (issue 30): the compiled model placed over its source through the
// bones' space (core/ops/compare_ghost.h), on a model written here and on public pairs whose
// .vvd points are stored otherwise than their sources show them.
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/ops/compare_ghost.h"
#include "core/ops/qc_ops.h"
#include "core/formats/registry.h"
#include "core/ops/read_input.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using core::Vec3;

namespace {

struct Box {
    Vec3 lo = Vec3::Constant(1e30f), hi = Vec3::Constant(-1e30f);
};

Box boundsOf(const core::Model& m)
{
    Box b;
    for (const std::uint32_t p : m.mesh.cornerPoints) {
        b.lo = b.lo.cwiseMin(m.mesh.pointPositions[p]);
        b.hi = b.hi.cwiseMax(m.mesh.pointPositions[p]);
    }
    return b;
}

float apart(const Box& a, const Box& b)
{
    return std::max((a.lo - b.lo).cwiseAbs().maxCoeff(), (a.hi - b.hi).cwiseAbs().maxCoeff());
}

QString text(const Box& b)
{
    return QStringLiteral("%1 %2 %3 .. %4 %5 %6")
        .arg(double(b.lo.x()), 0, 'f', 2)
        .arg(double(b.lo.y()), 0, 'f', 2)
        .arg(double(b.lo.z()), 0, 'f', 2)
        .arg(double(b.hi.x()), 0, 'f', 2)
        .arg(double(b.hi.y()), 0, 'f', 2)
        .arg(double(b.hi.z()), 0, 'f', 2);
}

core::Model smdModel(const std::string& text)
{
    core::ReadContext ctx;
    ctx.fileName = "m.smd";
    return core::readAny(text, ctx).model;
}

// root, arm (child, 10 along X) and tip (child of arm); `rootKey` is the root's bind line.
std::string skeletonSmd(const std::string& rootKey, const std::string& triangles)
{
    return "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\n2 \"tip\" 1\nend\nskeleton\ntime 0\n0 " +
           rootKey + "\n1 10 0 0 0 0 0\n2 0 5 0 0 0 0\nend\n" + triangles + "end\n";
}

bool near(const Vec3& a, const Vec3& b)
{
    return (a - b).cwiseAbs().maxCoeff() < 1e-5f;
}

} // namespace

class TstCompareGhost : public QObject {
    Q_OBJECT

private slots:
    // Each point into its bones' space through the compiled bind pose, out through the
    // source's bones of the same names (case ignored): the compiled root at the origin, the
    // source's 5 up and turned 90 degrees about Z (as a Crowbar decompile or $origin's angle
    // has it), its arm 20 out where the compiled one is 10. A bone the source lacks ("tip")
    // moves as its parent does; a point on two bones blends the two.
    void throughTheBones()
    {
        const std::string tris = "triangles\nm\n"
                                 "0 1 2 3 0 0 1 0 0\n"
                                 "1 11 0 0 1 0 0 0 0\n"
                                 "2 10 6 0 0 0 1 0 0\n"
                                 "m\n"
                                 "0 10 0 0 0 0 1 0 0 2 0 0.5 1 0.5\n"
                                 "0 10 0 0 0 0 1 0 0 2 0 0.5 1 0.5\n"
                                 "0 10 0 0 0 0 1 0 0 2 0 0.5 1 0.5\n";
        core::Model ghost = smdModel(skeletonSmd("0 0 0 0 0 0", tris));
        QCOMPARE(ghost.mesh.pointCount(), std::size_t(6));
        const core::Model source =
            smdModel("version 1\nnodes\n0 \"ROOT\" -1\n1 \"arm\" 0\nend\nskeleton\ntime 0\n"
                     "0 0 0 5 0 0 1.5707963267948966\n1 20 0 0 0 0 0\nend\n");
        core::placeGhostOnSource(ghost, source.skeleton);
        const std::vector<Vec3>& p = ghost.mesh.pointPositions;
        auto at = [](const Vec3& v) { return qPrintable(text({v, v})); };
        // (1, 2, 3) on the root: turned (-2, 1, 3), 5 up.
        QVERIFY2(near(p[0], Vec3(-2, 1, 8)), at(p[0]));
        // (11, 0, 0) on the arm, 1 along its X: the source's arm at (0, 20, 5) facing +Y.
        QVERIFY2(near(p[1], Vec3(0, 21, 5)), at(p[1]));
        // (10, 6, 0) on tip: 6 along the arm's Y, so 6 along -X from the source's arm.
        QVERIFY2(near(p[2], Vec3(-6, 20, 5)), at(p[2]));
        // (10, 0, 0) half on the root (0, 10, 5), half on the arm (0, 20, 5).
        QVERIFY2(near(p[3], Vec3(0, 15, 5)), at(p[3]));
        // Normals turn with the points: (0, 0, 1) stays, (1, 0, 0) -> (0, 1, 0).
        QVERIFY(near(ghost.mesh.cornerNormals[0], Vec3(0, 0, 1)));
        QVERIFY(near(ghost.mesh.cornerNormals[1], Vec3(0, 1, 0)));
        // Where the bind poses agree nothing moves.
        core::Model same = smdModel(skeletonSmd("0 0 0 0 0 0", tris));
        const std::vector<Vec3> before = same.mesh.pointPositions;
        core::placeGhostOnSource(same, same.skeleton);
        QCOMPARE(same.mesh.pointPositions, before);
    }
    void realPairs_data()
    {
        QTest::addColumn<QString>("qc");
        QTest::addColumn<QString>("mdl");
        // How far the .vvd as stored lies from the source as shown (bounds, units).
        QTest::addColumn<float>("beforeApart");
        const QString lvs = QStringLiteral("riggs9162+lvs-halflife-2/models/riggs9162/vehicles/");
        const QString lvsOld =
            QStringLiteral("riggs9162+lvs-halflife-2-99a44f9/models/riggs9162/thirdparty/");
        const QString mom = QStringLiteral("momentum-mod+game-168ad90/mp/game/momentum/");
        const QString sb = QStringLiteral("code-google-com+spacebuildmodelpack-0e9eb5c/"
                                          "SB-MP Working Folder/Compiled Models/");
        const QString sbMdl = QStringLiteral(
            "code-google-com+spacebuildmodelpack/SpacebuildModelPackAlpha2/models/Spacebuild/");
        QTest::newRow("combine_apc_driveable")
            << lvs + QStringLiteral("combine_apc_driveable/combine_apc_driveable.qc")
            << lvs + QStringLiteral("combine_apc_driveable.mdl") << 53.90f;
        QTest::newRow("conscript_apc") << lvsOld + QStringLiteral("conscript_apc/conscript_apc.qc")
                                       << lvsOld + QStringLiteral("conscript_apc.mdl") << 109.75f;
        QTest::newRow("v_mom_pistol")
            << mom + QStringLiteral("mdlsrc/v_mom_pistol/v_mom_pistol.qc")
            << mom + QStringLiteral("models/weapons/v_mom_pistol.mdl") << 10.32f;
        QTest::newRow("w_mom_pistol")
            << mom + QStringLiteral("mdlsrc/w_mom_pistol/w_mom_pistol.qc")
            << mom + QStringLiteral("models/weapons/w_mom_pistol.mdl") << 0.0f;
        QTest::newRow("teste") << sb + QStringLiteral("AirlockTest/testE.qc")
                               << sbMdl + QStringLiteral("teste.mdl") << 0.0f;
    }
    void realPairs()
    {
        QFETCH(QString, qc);
        QFETCH(QString, mdl);
        const QString root = test::publicDataDir() + QLatin1Char('/');
        if (!QFileInfo(root + qc).isFile() || !QFileInfo(root + mdl).isFile()) {
            QSKIP("the public projects (RIGSCOPE_TESTDATA) are not here");
        }
        const core::QcReport r =
            core::qcReportFromFile((root + qc).toStdString(), core::Profile::Auto);
        core::OpenedInput in = core::openInput((root + mdl).toStdString(), core::Profile::Auto, {});
        QVERIFY(in.readable && in.result.hasModel);
        const Box source = boundsOf(r.compiled.model);
        const Box before = boundsOf(in.result.model);
        core::placeGhostOnSource(in.result.model, r.compiled.model.skeleton);
        const Box after = boundsOf(in.result.model);
        qInfo("%s\n  source %s\n  before %s (%.2f)\n  after  %s (%.2f)", QTest::currentDataTag(),
              qPrintable(text(source)), qPrintable(text(before)), double(apart(before, source)),
              qPrintable(text(after)), double(apart(after, source)));
        QFETCH(float, beforeApart);
        QVERIFY2(std::abs(apart(before, source) - beforeApart) < 0.01f, qPrintable(text(before)));
        QVERIFY2(apart(after, source) < 1e-3f, qPrintable(text(after)));
    }
};

QTEST_GUILESS_MAIN(TstCompareGhost)
#include "tst_compare_ghost.moc"
