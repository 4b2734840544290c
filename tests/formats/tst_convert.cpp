// core/ops/convert and `rigscope-cli convert`: CoD -> SMD bone world transforms, mesh
// expansion with winding/V flips, loss notes, refusal to overwrite, atomic writes.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <Eigen/Geometry>

#include "core/formats/xanim/xanim.h"
#include "core/formats/xbin/xbin.h"
#include "core/formats/xmodel/xmodel.h"
#include "core/model/rotation.h"
#include "core/ops/convert.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

core::Model readText(const QString& rel)
{
    return test::readPath(test::fixturesDir() + u"/"_qs + rel).model;
}

// Model-space matrices of an SMD-family pose (R = Rz*Ry*Rx, model = parent * local).
std::vector<Eigen::Affine3f> worldOf(const core::Skeleton& s, const core::Vec3* pos,
                                     const core::Vec3* rot)
{
    std::vector<Eigen::Affine3f> w(s.size());
    for (std::size_t j = 0; j < s.size(); ++j) {
        Eigen::Affine3f l = Eigen::Affine3f::Identity();
        l.linear() = (Eigen::AngleAxisf(rot[j].z(), core::Vec3::UnitZ()) *
                      Eigen::AngleAxisf(rot[j].y(), core::Vec3::UnitY()) *
                      Eigen::AngleAxisf(rot[j].x(), core::Vec3::UnitX()))
                         .toRotationMatrix();
        l.translation() = pos[j];
        w[j] = s.parents[j] == core::kNoJoint ? l : w[static_cast<std::size_t>(s.parents[j])] * l;
    }
    return w;
}

bool close(const Eigen::Affine3f& a, const core::Mat3& axes, const core::Vec3& t)
{
    return (a.linear() - axes).cwiseAbs().maxCoeff() < 1e-4f &&
           (a.translation() - t).cwiseAbs().maxCoeff() < 1e-4f;
}

QByteArray fileBytes(const QString& p)
{
    QFile f(p);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TstConvert : public QObject {
    Q_OBJECT

private slots:
    void euler()
    {
        for (const core::Vec3& e :
             {core::Vec3(0.1f, -0.7f, 2.5f), core::Vec3(-3.0f, 1.2f, 0.3f), core::Vec3(0, 0, 0),
              core::Vec3(0.4f, 1.5707964f, 0.0f), core::Vec3(0.4f, -1.5707964f, 0.0f)}) {
            const core::Mat3 r = core::eulerToMatrix(e);
            const core::Mat3 back = core::eulerToMatrix(core::matrixToEuler(r.cast<double>()));
            QVERIFY((back - r).cwiseAbs().maxCoeff() < 1e-5f);
        }
        // R = Rz*Ry*Rx: a pure Z rotation of 90° maps X to Y.
        const core::Mat3 z = core::eulerToMatrix(core::Vec3(0, 0, static_cast<float>(M_PI / 2)));
        QVERIFY((z * core::Vec3::UnitX() - core::Vec3::UnitY()).norm() < 1e-6f);
    }

    void xmodelToSmdBones()
    {
        const core::Model cod = readText(u"xmodel/valid/cube_v6.xmodel_export"_qs);
        core::DiagnosticSink sink("cube");
        const core::Model smd = core::toSmdFamily(cod, sink);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(smd)), QString());
        QCOMPARE(smd.skeleton.bindKind, core::PoseKind::LocalEulerXYZ);
        QCOMPARE(smd.animations.size(), std::size_t(1));
        QCOMPARE(smd.animations[0].times, std::vector<double>{0});
        const auto w = worldOf(smd.skeleton, smd.skeleton.bindPositions.data(),
                               smd.skeleton.bindRotations.data());
        for (std::size_t j = 0; j < cod.skeleton.size(); ++j) {
            QVERIFY2(close(w[j], cod.skeleton.bindAxes[j], cod.skeleton.bindPositions[j]),
                     cod.skeleton.names[j].c_str());
        }
        // bone 2 is parent-relative: (0, 5, 12.5) under a bone at (0, 0, 10) rotated 90° about Z.
        QVERIFY((smd.skeleton.bindPositions[2] - core::Vec3(5, 0, 2.5f)).norm() < 1e-5f);
        // And back: the CoD model-space matrices are recovered.
        core::DiagnosticSink sink2("back");
        const core::Model again = core::toCodFamily(smd, false, sink2);
        for (std::size_t j = 0; j < cod.skeleton.size(); ++j) {
            QVERIFY((again.skeleton.bindAxes[j] - cod.skeleton.bindAxes[j]).cwiseAbs().maxCoeff() <
                    1e-4f);
            QVERIFY((again.skeleton.bindPositions[j] - cod.skeleton.bindPositions[j])
                        .cwiseAbs()
                        .maxCoeff() < 1e-4f);
        }
    }

    void xmodelToSmdMesh()
    {
        const core::Model cod = readText(u"xmodel/valid/cube_v7.xmodel_export"_qs);
        core::DiagnosticSink sink("cube_v7");
        const core::Model smd = core::toSmdFamily(cod, sink);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(smd)), QString());
        const core::Mesh& a = cod.mesh;
        const core::Mesh& b = smd.mesh;
        QCOMPARE(b.pointCount(), b.cornerCount()); // point i == corner i
        QCOMPARE(b.cornerCount(), a.cornerCount());
        QVERIFY(b.cornerColors.empty());
        QVERIFY(b.triangleObjects.empty());
        QCOMPARE(b.uvSetCount, 1u);
        for (std::size_t t = 0; t < a.triangleCount(); ++t) {
            const std::size_t order[3] = {0, 2, 1}; // CoD clockwise -> SMD counter-clockwise
            for (std::size_t k = 0; k < 3; ++k) {
                const std::size_t ca = 3 * t + order[k];
                const std::size_t cb = 3 * t + k;
                QCOMPARE(b.pointPositions[cb], a.pointPositions[a.cornerPoints[ca]]);
                QCOMPARE(b.cornerUvs[cb].x(), a.cornerUvs[ca].x());
                QCOMPARE(b.cornerUvs[cb].y(), 1.0f - a.cornerUvs[ca].y()); // v down -> v up
                QCOMPARE(b.influenceCount(cb), a.influenceCount(a.cornerPoints[ca]));
            }
        }
        QStringList messages = test::formatted(sink.diagnostics());
        QVERIFY(messages.join(u'\n').contains(u"1 extra UV set dropped"_qs));
        QVERIFY(messages.join(u'\n').contains(u"shading parameters dropped"_qs));
        // Vertex colours and scale are reported too.
        core::DiagnosticSink sink2("color");
        core::toSmdFamily(readText(u"xmodel/valid/color_range.xmodel_export"_qs), sink2);
        QVERIFY(test::formatted(sink2.diagnostics()).join(u'\n').contains(u"vertex colours"_qs));
        core::DiagnosticSink sink3("scale");
        core::toSmdFamily(readText(u"xmodel/valid/non_unit_scale.xmodel_export"_qs), sink3);
        QVERIFY(
            test::formatted(sink3.diagnostics()).join(u'\n').contains(u"[cod.non-unit-scale]"_qs));
    }

    void xanimToSmd()
    {
        const core::Model cod = readText(u"xanim/valid/walk_perpart.xanim_export"_qs);
        core::DiagnosticSink sink("walk");
        const core::Model smd = core::toSmdFamily(cod, sink);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(smd)), QString());
        const core::Animation& a = smd.animations[0];
        QCOMPARE(a.kind, core::PoseKind::LocalEulerXYZ);
        QCOMPARE(a.times, (std::vector<double>{100, 101, 102}));
        const core::Animation& src = cod.animations[0];
        for (std::size_t f = 0; f < a.frameCount(); ++f) {
            const auto w = worldOf(smd.skeleton, &a.positions[f * 2], &a.rotations[f * 2]);
            for (std::size_t j = 0; j < 2; ++j) {
                QVERIFY(close(w[j], src.axes[src.key(f, j)], src.positions[src.key(f, j)]));
            }
        }
        QVERIFY(
            test::formatted(sink.diagnostics()).join(u'\n').contains(u"notetrack keys dropped"_qs));
        // SMD-family animation back to XANIM keys.
        core::DiagnosticSink sink2("back");
        const core::Model back = core::toCodFamily(smd, true, sink2);
        QCOMPARE(QString::fromStdString(core::verifyInvariants(back)), QString());
        const core::WriteResult w = core::writeXanim(back, {});
        QVERIFY(w.ok());
        QVERIFY(w.bytes.find("FRAME 101\r\n") != std::string::npos);
    }

    void cliRefusesAndWritesAtomically()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString in = dir.filePath(u"cube.xmodel_export"_qs);
        QVERIFY(QFile::copy(test::fixturesDir() + u"/xmodel/valid/cube_v6.xmodel_export"_qs, in));
        const QString out = dir.filePath(u"cube.xmodel_bin"_qs);

        test::ProcessResult r = test::runCli({u"convert"_qs, in, out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("text to binary is lossy"));
        QVERIFY(r.err.contains("[write.data-dropped]")); // a conversion's loss (issue 15)
        const QByteArray first = fileBytes(out);
        QVERIFY(first.startsWith("*LZ4*"));
        QVERIFY(!core::readXbin(
                     std::string(first.constData(), static_cast<std::size_t>(first.size())), {})
                     .hasErrors());
        // No temporary files are left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);

        // Existing output: refused without --force, untouched.
        QFile marker(out);
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.write("keep");
        marker.close();
        r = test::runCli({u"convert"_qs, in, out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--force"));
        QCOMPARE(fileBytes(out), QByteArray("keep"));
        r = test::runCli({u"convert"_qs, in, out, u"--force"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(fileBytes(out), first);

        // Never over its own input, even with --force and another spelling of the path.
        const QByteArray before = fileBytes(in);
        r = test::runCli(
            {u"convert"_qs, in, dir.path() + u"/./cube.xmodel_export"_qs, u"--force"_qs});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("input"));
        QCOMPARE(fileBytes(in), before);

        // Usage and I/O errors exit 2.
        QCOMPARE(test::runCli({u"convert"_qs, in}).exitCode, 2);
        QCOMPARE(test::runCli({u"convert"_qs, dir.filePath(u"missing.xmodel_export"_qs),
                               dir.filePath(u"x.smd"_qs)})
                     .exitCode,
                 2);
        QCOMPARE(test::runCli({u"convert"_qs, in, dir.filePath(u"x.unknown"_qs)}).exitCode, 2);
        QCOMPARE(test::runCli({u"convert"_qs, u"--bogus"_qs, in, out}).exitCode, 2);
    }

    void cliFormats()
    {
        QTemporaryDir dir;
        // bin -> text, text anim -> bin anim, anim -> NT_EXPORT; an XANIM picks up its NT_EXPORT.
        const QString bin = test::fixturesDir() + u"/xbin/valid/cube_v6.xmodel_bin"_qs;
        test::ProcessResult r =
            test::runCli({u"convert"_qs, bin, dir.filePath(u"cube.xmodel_export"_qs)});
        QCOMPARE(r.exitCode, 0);
        const core::ReadResult text = test::readPath(dir.filePath(u"cube.xmodel_export"_qs));
        QVERIFY(!text.hasErrors());
        QCOMPARE(text.model.mesh.triangleCount(), std::size_t(2));

        const QString anim = test::fixturesDir() + u"/xanim/valid/walk_nonotes.xanim_export"_qs;
        r = test::runCli({u"convert"_qs, anim, dir.filePath(u"walk.nt_export"_qs)});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(fileBytes(dir.filePath(u"walk.nt_export"_qs)),
                 QByteArray("FIRSTFRAME 100\r\nNUMFRAMES 3\r\nNUMKEYS 2\r\nFRAME 100 "
                            "\"start\"\r\nFRAME 102 \"land\"\r\n"));
        r = test::runCli({u"convert"_qs, anim, dir.filePath(u"walk.xanim_bin"_qs)});
        QCOMPARE(r.exitCode, 0);
        const QByteArray ab = fileBytes(dir.filePath(u"walk.xanim_bin"_qs));
        const core::ReadResult back =
            core::readXbin(std::string(ab.constData(), static_cast<std::size_t>(ab.size())), {});
        QCOMPARE(back.model.animations[0].notes.size(), std::size_t(2));
        // --to overrides the extension.
        r = test::runCli(
            {u"convert"_qs, anim, dir.filePath(u"walk.out"_qs), u"--to=xanim_export"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(fileBytes(dir.filePath(u"walk.out"_qs)).startsWith("// Export filename"));
    }
};

QTEST_APPLESS_MAIN(TstConvert)
#include "tst_convert.moc"
