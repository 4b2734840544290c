// DMX reader and writer (docs/dmx.md): the header, keyvalues2 and binary 1-5 / 9 from our own
// writer (committed fixtures pin each version's bytes), round trips, model semantics (skeleton,
// mesh, flex, animation) against the SMD / VTA twins, the corpus, encodings per profile, and
// hostile input (huge counts, cycles, deep nesting, every truncation).
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <Eigen/Geometry>

#include <map>
#include <set>

#include "core/build/flex_match.h"
#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/formats/smd/smd_reader.h"
#include "core/ops/check.h"
#include "core/ops/convert.h"
#include "core/model/rotation.h"
#include "core/ops/info.h"
#include "core/pose/pose_rig.h"
#include "core/pose/sample.h"
#include "tests/support/test_support.h"

#include "tests/support/alloc_probe.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

ReadResult readBytesAs(const std::string& bytes, const std::string& name, Profile p = Profile::Auto)
{
    ReadContext ctx;
    ctx.fileName = name;
    ctx.profile = p;
    return readDmx(bytes, ctx);
}

bool hasId(const std::vector<Diagnostic>& d, std::string_view id, Severity s = Severity::Error)
{
    for (const auto& x : d) {
        if (x.id == id && x.severity == s) {
            return true;
        }
    }
    return false;
}

// The bundled sample as one DMX-shaped model: the reference, its VTA's shapes (ids are the
// reference's corners) and, separately, its animation.
Model sampleReference()
{
    const QString dir = test::samplesDir();
    ReadContext ctx;
    ctx.fileName = "sample_ref.smd";
    Model ref = readSmd(test::readBytes(dir + QStringLiteral("/sample_ref.smd")), ctx).model;
    ctx.fileName = "sample_flex.vta";
    const Model vta = readSmd(test::readBytes(dir + QStringLiteral("/sample_flex.vta")), ctx).model;
    ref.vertexFrames = vta.vertexFrames;
    deriveFlexShapes(ref);
    return ref;
}

Model sampleAnimation()
{
    ReadContext ctx;
    ctx.fileName = "sample_anim.smd";
    return readSmd(test::readBytes(test::samplesDir() + QStringLiteral("/sample_anim.smd")), ctx)
        .model;
}

std::vector<Eigen::Affine3f> worldBind(const Skeleton& s)
{
    std::vector<Eigen::Affine3f> w(s.size());
    for (std::size_t j = 0; j < s.size(); ++j) {
        Eigen::Affine3f local = Eigen::Affine3f::Identity();
        local.translate(s.bindPositions[j]);
        local.rotate(Mat3(bindRotationD(s, j).cast<float>()));
        w[j] = s.parents[j] == kNoJoint ? local : w[static_cast<std::size_t>(s.parents[j])] * local;
    }
    return w;
}

struct Variant {
    const char* file;
    DmxWriteOptions opt;
};

std::vector<Variant> variants()
{
    std::vector<Variant> v;
    v.push_back({"kv2_model1", {false, 2, 1}});
    v.push_back({"kv2_model22", {false, 2, 22}});
    for (int b : {1, 2, 3, 4, 5}) {
        static const char* names[] = {"", "binary1", "binary2", "binary3", "binary4", "binary5"};
        v.push_back({names[b], {true, b, b >= 3 ? 18 : 1}});
    }
    v.push_back({"binary9", {true, 9, 22}});
    return v;
}

// Models equal up to what DMX cannot say: SMD points become per-position pool entries (the
// writer keeps points), link state "absent" becomes a weight of 1 on the parent, materials keep
// names.
void compareModels(const Model& a, const Model& b)
{
    QCOMPARE(b.skeleton.names, a.skeleton.names);
    QCOMPARE(b.skeleton.parents, a.skeleton.parents);
    for (std::size_t j = 0; j < a.skeleton.size(); ++j) {
        QVERIFY((a.skeleton.bindPositions[j] - b.skeleton.bindPositions[j]).cwiseAbs().maxCoeff() <
                1e-5f);
        const Mat3d ra = bindRotationD(a.skeleton, j);
        const Mat3d rb = bindRotationD(b.skeleton, j);
        QVERIFY((ra - rb).cwiseAbs().maxCoeff() < 1e-5);
    }
    QCOMPARE(b.mesh.triangleCount(), a.mesh.triangleCount());
    QCOMPARE(b.mesh.materials.size(), a.mesh.materials.size());
    for (std::size_t c = 0; c < a.mesh.cornerCount(); ++c) {
        const Vec3& pa = a.mesh.pointPositions[a.mesh.cornerPoints[c]];
        const Vec3& pb = b.mesh.pointPositions[b.mesh.cornerPoints[c]];
        QVERIFY2(sameBits(pa, pb), qPrintable(QStringLiteral("corner %1").arg(c)));
        QVERIFY(sameBits(a.mesh.cornerNormals[c], b.mesh.cornerNormals[c]));
        QVERIFY(sameBits(a.mesh.cornerUvs[c], b.mesh.cornerUvs[c]));
    }
    for (std::size_t t = 0; t < a.mesh.triangleCount(); ++t) {
        QCOMPARE(b.mesh.materials[b.mesh.triangleMaterials[t]].name,
                 a.mesh.materials[a.mesh.triangleMaterials[t]].name);
    }
    QCOMPARE(b.flexShapes.size(), a.flexShapes.size());
    for (std::size_t s = 0; s < a.flexShapes.size(); ++s) {
        QCOMPARE(b.flexShapes[s].name, a.flexShapes[s].name);
        QCOMPARE(b.flexShapes[s].ids.size(), a.flexShapes[s].ids.size());
        for (std::size_t k = 0; k < a.flexShapes[s].ids.size(); ++k) {
            QCOMPARE(b.flexShapes[s].ids[k], a.flexShapes[s].ids[k]);
            QVERIFY((a.flexShapes[s].deltaPositions[k] - b.flexShapes[s].deltaPositions[k])
                        .cwiseAbs()
                        .maxCoeff() < 1e-5f);
        }
    }
}

} // namespace

class TstDmx : public QObject {
    Q_OBJECT

private slots:
    void header_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<int>("ev");
        QTest::addColumn<int>("fv");
        QTest::newRow("kv2") << "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
                             << true << "keyvalues2" << 1 << 1;
        QTest::newRow("binary9") << "<!-- dmx encoding binary 9 format model 22 -->\n"
                                 << true << "binary" << 9 << 22;
        QTest::newRow("tex") << "<!--dmx encoding binary 2 format tex 1-->" << true << "binary" << 2
                             << 1;
        QTest::newRow("no format") << "<!-- dmx encoding binary 2 -->" << false << "" << 0 << 0;
        QTest::newRow("not a number")
            << "<!-- dmx encoding binary two format model 1 -->" << false << "" << 0 << 0;
        QTest::newRow("unterminated")
            << "<!-- dmx encoding binary 2 format model 1" << false << "" << 0 << 0;
        QTest::newRow("smd") << "version 1\n" << false << "" << 0 << 0;
    }
    void header()
    {
        QFETCH(QString, line);
        QFETCH(bool, ok);
        DmxHeader h;
        const std::string bytes = line.toStdString();
        QCOMPARE(dmx::parseHeader(bytes, h) > 0, ok);
        if (ok) {
            QTEST(QString::fromStdString(h.encoding), "encoding");
            QTEST(h.encodingVersion, "ev");
            QTEST(h.formatVersion, "fv");
            QCOMPARE(sniffDmx(bytes), 100);
        }
    }

    // tests/fixtures/dmx/{valid,invalid}: diagnostics exactly as in <case>.expected.
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::fixturesDir() + QStringLiteral("/dmx");
        for (const QString& f : test::filesUnder(dir, {QStringLiteral("dmx")})) {
            QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
        }
    }
    void fixtures()
    {
        QFETCH(QString, path);
        const ReadResult r = test::readPath(path, test::fixturesDir());
        QVERIFY2(verifyInvariants(r.model).empty(), verifyInvariants(r.model).c_str());
        const QStringList got = test::formatted(r.diagnostics);
        QCOMPARE(got, test::expectedFor(path, got));
        QCOMPARE(r.hasErrors(), path.contains(QStringLiteral("/invalid/")));
        QCOMPARE(r.model.format, std::string("dmx"));
    }

    // Our writer's bytes for each encoding are committed (tests/fixtures/dmx/valid/sample_*):
    // they pin every version's layout; RIGSCOPE_BLESS=1 rewrites them.
    void writerVersions_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("anim");
        const auto v = variants();
        for (std::size_t i = 0; i < v.size(); ++i) {
            QTest::newRow((std::string("ref_") + v[i].file).c_str()) << int(i) << false;
            QTest::newRow((std::string("anim_") + v[i].file).c_str()) << int(i) << true;
        }
    }
    void writerVersions()
    {
        QFETCH(int, index);
        QFETCH(bool, anim);
        const Variant var = variants()[std::size_t(index)];
        const Model src = anim ? sampleAnimation() : sampleReference();
        const std::string name =
            std::string("sample_") + (anim ? "anim_" : "ref_") + var.file + ".dmx";
        WriteContext wctx;
        wctx.fileName = name;
        const WriteResult w = writeDmxWith(src, wctx, var.opt);
        QVERIFY(w.ok());
        const QString path =
            test::fixturesDir() + QStringLiteral("/dmx/valid/") + QString::fromStdString(name);
        if (test::blessing()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(w.bytes.data(), qint64(w.bytes.size()));
        }
        QVERIFY2(test::readBytes(path) == w.bytes,
                 "writer output differs from the committed fixture");

        const ReadResult r = readBytesAs(w.bytes, name);
        QVERIFY(r.hasModel);
        QVERIFY2(!r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        QVERIFY2(verifyInvariants(r.model).empty(), verifyInvariants(r.model).c_str());
        QCOMPARE(r.model.dmx.encoding, std::string(var.opt.binary ? "binary" : "keyvalues2"));
        QCOMPARE(r.model.dmx.encodingVersion, var.opt.binary ? var.opt.binaryVersion : 1);
        QCOMPARE(r.model.dmx.formatVersion, var.opt.formatVersion);
        compareModels(src, r.model);
        if (anim) {
            QCOMPARE(r.model.kind, ModelKind::Animation);
            QCOMPARE(r.model.animations.size(), std::size_t(1));
            const Animation& a = src.animations.front();
            const Animation& b = r.model.animations.front();
            QCOMPARE(b.frameCount(), a.frameCount());
            QCOMPARE(b.fps, a.fps);
            for (std::size_t k = 0; k < a.positions.size(); ++k) {
                QVERIFY((a.positions[k] - b.positions[k]).cwiseAbs().maxCoeff() < 1e-4f);
                QVERIFY((keyRotationD(a, k) - keyRotationD(b, k)).cwiseAbs().maxCoeff() < 1e-4);
            }
        } else {
            QCOMPARE(r.model.kind, ModelKind::Reference);
            QCOMPARE(r.model.flexShapes.size(), std::size_t(3));
            QCOMPARE(r.model.flexControllers.size(), std::size_t(3));
            QCOMPARE(r.model.flexControllers[1].name, std::string("squash"));
        }
        // write(read(write(m))) == write(m): byte for byte for models; an animation's
        // quaternions come back through Euler angles, so equal to float rounding (docs/dmx.md).
        const WriteResult w2 = writeDmxWith(r.model, wctx, var.opt);
        if (!anim) {
            QVERIFY(w2.bytes == w.bytes);
        } else {
            QCOMPARE(w2.bytes.size() > 0, true);
            const ReadResult r2 = readBytesAs(w2.bytes, name);
            const Animation& a = r.model.animations.front();
            const Animation& b = r2.model.animations.front();
            QCOMPARE(b.frameCount(), a.frameCount());
            for (std::size_t k = 0; k < a.positions.size(); ++k) {
                QVERIFY(sameBits(a.positions[k], b.positions[k]));
                QVERIFY(sameBits(a.quaternions[k], b.quaternions[k]));
            }
        }
    }

    // The corpus DMX files against their SMD twins: counts, materials, bind pose in model space.
    void corpusTwins_data()
    {
        QTest::addColumn<QString>("dmx");
        QTest::addColumn<QString>("smd");
        const QString c = test::corpusDir();
        if (c.isEmpty() || !QFileInfo::exists(c + QStringLiteral("/dmx"))) {
            QTest::newRow("absent") << QString() << QString();
            return;
        }
        QTest::newRow("Cube_Armature") << c + QStringLiteral("/dmx/bst_Cube_Armature_Cube.dmx")
                                       << c + QStringLiteral("/smd/bst_Cube_Armature.smd");
        QTest::newRow("Cube_NoArmature") << c + QStringLiteral("/dmx/bst_Cube_NoArmature_Cube.dmx")
                                         << c + QStringLiteral("/smd/bst_Cube_NoArmature.smd");
        QTest::newRow("Curve_Armature")
            << c + QStringLiteral("/dmx/bst_Curve_Armature_BezierCurve.dmx")
            << c + QStringLiteral("/smd/bst_Curve_Armature.smd");
        QTest::newRow("ActionFilter") << c + QStringLiteral("/dmx/bst_ActionFilter_X_Axis.dmx")
                                      << c + QStringLiteral("/smd/bst_ActionFilter_X_Axis.smd");
    }
    void corpusTwins()
    {
        QFETCH(QString, dmx);
        QFETCH(QString, smd);
        if (dmx.isEmpty()) {
            QSKIP("corpus not present");
        }
        const ReadResult d = test::readPath(dmx);
        const ReadResult s = test::readPath(smd);
        QVERIFY(d.hasModel && s.hasModel);
        QVERIFY2(!d.hasErrors(),
                 qPrintable(test::formatted(d.diagnostics).join(QLatin1Char('\n'))));
        QVERIFY(verifyInvariants(d.model).empty());
        QCOMPARE(d.model.skeleton.size(), s.model.skeleton.size());
        QCOMPARE(d.model.mesh.triangleCount(), s.model.mesh.triangleCount());
        QCOMPARE(d.model.mesh.materials.size(), s.model.mesh.materials.size());
        for (std::size_t i = 0; i < s.model.mesh.materials.size(); ++i) {
            QCOMPARE(d.model.mesh.materials[i].name, s.model.mesh.materials[i].name);
        }
        // Bind pose in model space, joint by joint (names differ only for the implicit root).
        const auto wd = worldBind(d.model.skeleton);
        const auto ws = worldBind(s.model.skeleton);
        for (std::size_t j = 0; j < ws.size(); ++j) {
            QVERIFY2((wd[j].matrix() - ws[j].matrix()).cwiseAbs().maxCoeff() < 1e-4f,
                     qPrintable(QStringLiteral("joint %1").arg(j)));
        }
        // The same surface: studiomdl splits a quad along its shorter diagonal, Blender (the
        // SMD) may take the other, so compare the points used and the total area.
        auto surface = [](const Model& m, std::vector<Vec3>& points) {
            double area = 0;
            for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
                Vec3 p[3];
                for (std::size_t k = 0; k < 3; ++k) {
                    p[k] = m.mesh.pointPositions[m.mesh.cornerPoints[3 * t + k]];
                    points.push_back(p[k]);
                }
                area += 0.5 * double((p[1] - p[0]).cross(p[2] - p[0]).norm());
            }
            return area;
        };
        std::vector<Vec3> pd, ps;
        const double ad = surface(d.model, pd);
        const double as = surface(s.model, ps);
        auto covered = [](const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
            for (const Vec3& p : a) {
                if (std::none_of(b.begin(), b.end(), [&](const Vec3& q) {
                        return (p - q).cwiseAbs().maxCoeff() <= 2e-6f + 1e-6f * p.norm();
                    })) {
                    return false;
                }
            }
            return true;
        };
        QVERIFY(covered(pd, ps) && covered(ps, pd));
        QVERIFY2(std::fabs(ad - as) <= 1e-3 * std::max(1.0, as),
                 qPrintable(QStringLiteral("%1 vs %2").arg(ad).arg(as)));
        if (s.model.kind == ModelKind::Animation) {
            QCOMPARE(d.model.kind, ModelKind::Animation);
            const Animation& a = d.model.animations.front();
            const Animation& b = s.model.animations.front();
            QCOMPARE(a.frameCount(), b.frameCount());
            for (std::size_t k = 0; k < b.positions.size(); ++k) {
                QVERIFY((a.positions[k] - b.positions[k]).cwiseAbs().maxCoeff() < 1e-4f);
            }
        }
    }

    void corpusAll_data()
    {
        test::addPathRows(test::corpusDir().isEmpty() ? QString()
                                                      : test::corpusDir() + QStringLiteral("/dmx"),
                          {QStringLiteral("dmx")});
    }
    void corpusAll()
    {
        QFETCH(QString, path);
        if (path.isEmpty()) {
            QSKIP("corpus not present");
        }
        const ReadResult r = test::readPath(path);
        QVERIFY(r.hasModel);
        QVERIFY2(!r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        QVERIFY(verifyInvariants(r.model).empty());
    }

    void encodingPerProfile_data()
    {
        QTest::addColumn<int>("binaryVersion"); // 0: keyvalues2
        QTest::addColumn<int>("formatVersion");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<bool>("error");
        QTest::newRow("b2 m1 source") << 2 << 1 << "source" << false;
        QTest::newRow("kv2 m1 source") << 0 << 1 << "source" << false;
        QTest::newRow("b5 m18 source") << 5 << 18 << "source" << true;
        QTest::newRow("b5 m18 source256") << 5 << 18 << "source256" << false;
        QTest::newRow("b9 m22 source256") << 9 << 22 << "source256" << true;
        QTest::newRow("b9 m22 auto") << 9 << 22 << "auto" << false;
        QTest::newRow("b2 m1 goldsrc") << 2 << 1 << "goldsrc" << true;
        QTest::newRow("kv2 m1 cod") << 0 << 1 << "cod" << true;
    }
    void encodingPerProfile()
    {
        QFETCH(int, binaryVersion);
        QFETCH(int, formatVersion);
        QFETCH(QString, profile);
        QFETCH(bool, error);
        WriteContext wctx;
        wctx.fileName = "p.dmx";
        const WriteResult w = writeDmxWith(sampleReference(), wctx,
                                           {binaryVersion > 0, binaryVersion, formatVersion});
        const ReadResult r = readBytesAs(w.bytes, "p.dmx", *parseProfile(profile.toStdString()));
        QCOMPARE(hasId(r.diagnostics, ids::kDmxEncodingUnsupported), error);
        QVERIFY(r.hasModel); // the model is read whatever the profile says
    }

    void convertBothWays()
    {
        // DMX -> SMD and VTA -> back: the same mesh, skeleton and shapes.
        WriteContext wctx;
        wctx.fileName = "s.dmx";
        const Model src = sampleReference();
        const ReadResult d = readBytesAs(writeDmx(src, wctx).bytes, "s.dmx");
        std::string smd, vta;
        const ConvertResult cs = convertModel(d, "s.dmx", "s.smd", std::string(), smd);
        QCOMPARE(cs.exitCode, 0);
        const ConvertResult cv = convertModel(d, "s.dmx", "s.vta", std::string(), vta);
        QCOMPARE(cv.exitCode, 0);
        bool shapesDropped = false;
        for (const Diagnostic& x : cs.diagnostics) {
            shapesDropped =
                shapesDropped || x.message.find("3 flex shapes dropped") != std::string::npos;
        }
        QVERIFY(shapesDropped);
        ReadContext ctx;
        ctx.fileName = "s.smd";
        Model back = readSmd(smd, ctx).model;
        ctx.fileName = "s.vta";
        const Model backVta = readSmd(vta, ctx).model;
        QCOMPARE(backVta.kind, ModelKind::Flex);
        back.vertexFrames = backVta.vertexFrames;
        deriveFlexShapes(back);
        compareModels(src, back);
        // SMD -> DMX through convert, binary 2.
        ReadResult fromSmd;
        fromSmd.model = src;
        fromSmd.hasModel = true;
        std::string bin;
        const ConvertResult cb = convertModel(fromSmd, "s.smd", "s.dmx", "dmx-binary", bin);
        QCOMPARE(cb.exitCode, 0);
        QVERIFY(bin.starts_with("<!-- dmx encoding binary 2 format model 1 -->\n"));
        compareModels(src, readBytesAs(bin, "s.dmx").model);
    }

    // An SMD converted to DMX keeps studiomdl's vertex count (issue 30, "one truth"): the writer
    // shares one position, normal and texture coordinate index among equal values, so the DMX's
    // index triples (dmxsupport.cpp DefineUniqueVertices) make the vertices the SMD's weld makes
    // (v1support.cpp lookup_index): resources/samples/sample_ref.smd 126 both ways (a DMX
    // written with an index per corner counted 516, one per corner).
    void smdToDmxKeepsVertexCount_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("keyvalues2") << QString();
        QTest::newRow("binary") << QStringLiteral("dmx-binary");
    }
    void smdToDmxKeepsVertexCount()
    {
        QFETCH(QString, encoding);
        const std::string smdPath =
            (test::samplesDir() + QStringLiteral("/sample_ref.smd")).toStdString();
        ReadContext ctx;
        ctx.fileName = smdPath;
        const std::string text = test::readBytes(QString::fromStdString(smdPath));
        QVERIFY(!text.empty());
        ReadResult smd = readSmd(text, ctx);
        QVERIFY(smd.hasModel);
        const auto vertices = [](const std::string& file, const ReadResult& r) {
            CheckOptions opt;
            opt.profile = Profile::Source;
            const CheckedFile f = checkReadResult(file, r, nullptr, std::string(), opt);
            for (const BudgetMeter& b : f.budget) {
                if (b.name == "vertices") {
                    return b.used;
                }
            }
            return std::size_t(0);
        };
        QCOMPARE(vertices("sample_ref.smd", smd), std::size_t(126));
        std::string dmx;
        QCOMPARE(convertModel(smd, "sample_ref.smd", "sample_ref.dmx", encoding.toStdString(), dmx)
                     .exitCode,
                 0);
        const ReadResult back = readBytesAs(dmx, "sample_ref.dmx", Profile::Source);
        QVERIFY(back.hasModel);
        QCOMPARE(vertices("sample_ref.dmx", back), std::size_t(126));
        QCOMPARE(infoFromResult("sample_ref.dmx", back, Profile::Source).vertices,
                 std::size_t(126));
        compareModels(smd.model, back.model);
    }

    // DmxWriteOptions::shareIndices false (rigscope-bench's keyvalues2 input): one index per
    // point and per corner, so studiomdl makes a vertex of each corner (516 for the sample's 172
    // triangles) where the shared form keeps the SMD's 126; the model read back is the same.
    void perCornerIndicesGiveAVertexPerCorner()
    {
        const std::string smdPath =
            (test::samplesDir() + QStringLiteral("/sample_ref.smd")).toStdString();
        ReadContext ctx;
        ctx.fileName = smdPath;
        const ReadResult smd = readSmd(test::readBytes(QString::fromStdString(smdPath)), ctx);
        QVERIFY(smd.hasModel);
        DmxWriteOptions perCorner;
        perCorner.shareIndices = false;
        const WriteResult w = writeDmxWith(smd.model, {"sample_ref.dmx"}, perCorner);
        QVERIFY(w.ok());
        const WriteResult shared = writeDmxWith(smd.model, {"sample_ref.dmx"}, DmxWriteOptions{});
        QVERIFY(w.bytes.size() > shared.bytes.size() * 2);
        const ReadResult back = readBytesAs(w.bytes, "sample_ref.dmx", Profile::Source);
        QVERIFY(back.hasModel);
        QCOMPARE(infoFromResult("sample_ref.dmx", back, Profile::Source).vertices,
                 std::size_t(516));
        compareModels(smd.model, back.model);
    }

    // tests/fixtures/dmx/valid/gimbal_weapon.dmx (written by tests/fixtures/dmx/gimbal_weapon.py):
    // a grip bone near -90° pitch and, under it, a weapon bone whose quaternion is the exact
    // inverse of the grip's, so the weapon's world axes are the hand's; its children sit at or
    // near pitch -90° and a 6-frame clip turns the weapon through pitch -90°. The reference is the
    // file's numbers composed with double quaternions here. The bind pose, every key, and the SMD
    // that `convert` writes and reads back agree with it to 1e-5 (issue 27: they were 25° off).
    void nearGimbalRotations()
    {
        struct Bone {
            const char* name;
            int parent;
            Eigen::Vector3d position;
            Eigen::Quaterniond rotation; // (w, x, y, z)
        };
        const std::vector<Bone> bones = {
            {"hand", -1, {1.5, -2.0, 40.0}, Eigen::Quaterniond(0.927, 0.2, -0.3, 0.1)},
            {"grip", 0, {3.0, 0.5, -1.0}, Eigen::Quaterniond(0.5011, 0.4989, 0.5011, 0.4989)},
            {"weapon_bone",
             1,
             {0.2, 1.5, 0.0},
             Eigen::Quaterniond(0.5011, -0.4989, -0.5011, -0.4989)},
            {"weapon_muzzle", 2, {10.0, 2.0, -4.0}, Eigen::Quaterniond(1, 0, 0, 0)},
            {"weapon_mag",
             2,
             {-3.0, 0.0, 1.0},
             Eigen::Quaterniond(0.5003, 0.5003, -0.4997, 0.4997)},
            // (p, q, p, -q) is pitch -90° exactly: only x - z is defined.
            {"sight", 2, {2.0, 0.0, 3.0}, Eigen::Quaterniond(0.8, 0.3, -0.8, 0.3)},
            {"stock", 2, {-8.0, 0.5, 0.0}, Eigen::Quaterniond(-0.2, -0.61, 0.2, -0.61)},
            {"rail", 5, {4.0, 0.0, 0.5}, Eigen::Quaterniond(-0.55, 0.12, 0.55, 0.12)},
        };
        // The file's float values, composed in double.
        const auto fileQ = [](const Eigen::Quaterniond& q) {
            return Eigen::Quaterniond(double(float(q.w())), double(float(q.x())),
                                      double(float(q.y())), double(float(q.z())))
                .normalized();
        };
        const auto fileV = [](const Eigen::Vector3d& v) { return v.cast<float>().cast<double>(); };
        std::vector<Eigen::Affine3d> world(bones.size());
        for (std::size_t b = 0; b < bones.size(); ++b) {
            Eigen::Affine3d local = Eigen::Affine3d::Identity();
            local.linear() = fileQ(bones[b].rotation).toRotationMatrix();
            local.translation() = fileV(bones[b].position);
            world[b] = bones[b].parent < 0 ? local : world[std::size_t(bones[b].parent)] * local;
        }
        // The weapon's world axes are the hand's (the fixture is what the issue describes).
        QVERIFY((world[2].linear() - world[0].linear()).cwiseAbs().maxCoeff() < 1e-6);

        const auto checkBind = [&](const Skeleton& s, const char* what) {
            QCOMPARE(s.size(), bones.size());
            const PoseRig rig = makePoseRig(s);
            for (std::size_t b = 0; b < bones.size(); ++b) {
                const JointIndex j = s.findByName(bones[b].name);
                QVERIFY(j != kNoJoint);
                const Xform& got = rig.bindModel[std::size_t(j)];
                const double dr =
                    (got.linear().cast<double>() - world[b].linear()).cwiseAbs().maxCoeff();
                const double dt =
                    (got.translation().cast<double>() - world[b].translation()).norm();
                QVERIFY2(dr < 1e-5 && dt < 1e-5,
                         qPrintable(QStringLiteral("%1 %2: axes off by %3, origin by %4")
                                        .arg(QLatin1String(what), QLatin1String(bones[b].name))
                                        .arg(dr)
                                        .arg(dt)));
            }
            const Xform& weapon = rig.bindModel[std::size_t(s.findByName("weapon_bone"))];
            const Xform& hand = rig.bindModel[std::size_t(s.findByName("hand"))];
            QVERIFY((weapon.linear() - hand.linear()).cwiseAbs().maxCoeff() < 1e-5f);
        };
        // Keys of the clip on the weapon bone: local rotation and position per frame.
        const std::vector<Eigen::Quaterniond> keys = {
            Eigen::Quaterniond(0.5011, -0.4989, -0.5011, -0.4989),
            Eigen::Quaterniond(0.5001, -0.4999, -0.5001, -0.4999),
            Eigen::Quaterniond(0.5, -0.5, -0.5, -0.5),
            Eigen::Quaterniond(0.8, 0.3, -0.8, 0.3),
            Eigen::Quaterniond(-0.2, -0.61, 0.2, -0.61),
            Eigen::Quaterniond(-0.55, 0.12, 0.55, 0.12)};
        const auto checkKeys = [&](const Model& m, const char* what) {
            QVERIFY(!m.animations.empty());
            const Animation& a = m.animations.back();
            QCOMPARE(a.frameCount(), keys.size());
            const auto w = std::size_t(m.skeleton.findByName("weapon_bone"));
            std::vector<Xform> out(a.jointCount);
            for (std::size_t f = 0; f < keys.size(); ++f) {
                QVERIFY(makeSampleJob(a, {f, f, 0.0f}, Interpolation::Stepped, out).run());
                const double dr =
                    (out[w].linear().cast<double>() - fileQ(keys[f]).toRotationMatrix())
                        .cwiseAbs()
                        .maxCoeff();
                const Eigen::Vector3d p(0.2, 1.5, 0.5 * double(f));
                const double dt = (out[w].translation().cast<double>() - p).norm();
                QVERIFY2(dr < 1e-6 && dt < 1e-6,
                         qPrintable(QStringLiteral("%1 frame %2: rotation off by %3, position %4")
                                        .arg(QLatin1String(what))
                                        .arg(f)
                                        .arg(dr)
                                        .arg(dt)));
            }
        };

        const QString path = test::fixturesDir() + QStringLiteral("/dmx/valid/gimbal_weapon.dmx");
        const ReadResult r = test::readPath(path, test::fixturesDir());
        QVERIFY2(r.hasModel && !r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        QVERIFY2(verifyInvariants(r.model).empty(), verifyInvariants(r.model).c_str());
        checkBind(r.model.skeleton, "dmx");
        checkKeys(r.model, "dmx");

        // `convert` to SMD writes the rotations, not the error: read back, the same world.
        std::string smd;
        const ConvertResult c =
            convertModel(r, "gimbal_weapon.dmx", "gimbal_weapon.smd", ConvertOptions{}, smd);
        QCOMPARE(c.exitCode, 0);
        ReadContext ctx;
        ctx.fileName = "gimbal_weapon.smd";
        const ReadResult back = readSmd(smd, ctx);
        QVERIFY(back.hasModel && !back.hasErrors());
        checkBind(back.model.skeleton, "smd");
        checkKeys(back.model, "smd");

        // DMX -> DMX keeps the file's numbers.
        std::string dmx;
        QCOMPARE(convertModel(r, "gimbal_weapon.dmx", "again.dmx", ConvertOptions{}, dmx).exitCode,
                 0);
        const ReadResult again = readBytesAs(dmx, "again.dmx");
        QVERIFY(again.model.skeleton == r.model.skeleton);
        const Animation& a0 = r.model.animations.back();
        const Animation& a1 = again.model.animations.back();
        QCOMPARE(a1.kind, PoseKind::LocalQuaternion);
        QVERIFY(a1.quaternions.size() == a0.quaternions.size() &&
                std::equal(a0.quaternions.begin(), a0.quaternions.end(), a1.quaternions.begin(),
                           [](const Vec4& x, const Vec4& y) { return sameBits(x, y); }));
        QVERIFY(a1.positions.size() == a0.positions.size() &&
                std::equal(a0.positions.begin(), a0.positions.end(), a1.positions.begin(),
                           [](const Vec3& x, const Vec3& y) { return sameBits(x, y); }));
    }

    // studiomdl's vertices are a mesh's index triples after its normals are collapsed within
    // 2 degrees (dmxsupport.cpp DefineUniqueVertices, CDmeMesh::CollapseRedundantNormals).
    // Positions 0 and 4 are equal but written apart: two vertices. Normals (one per face
    // vertex): z, 1.5 degrees off, z, 3 degrees off, z, z, z, z, z. Without delta states each
    // joins the first kept normal within 2 degrees (the 3-degree one is kept apart: 6
    // vertices); with one, only the normals of one position are compared (position 1's 3-degree
    // normal joins its 1.5-degree one: 5 vertices).
    static std::string indexTriplesMesh(bool delta)
    {
        return "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
               "\"DmElement\" {\n \"model\" \"DmeModel\" {\n  \"children\" \"element_array\" [\n"
               "  \"DmeDag\" {\n   \"shape\" \"DmeMesh\" {\n    \"bindState\" \"DmeVertexData\" {\n"
               "     \"positions\" \"vector3_array\" [\"0 0 0\", \"1 0 0\", \"0 1 0\", \"1 1 0\", "
               "\"0 0 0\"]\n"
               "     \"positionsIndices\" \"int_array\" [\"0\", \"1\", \"2\", \"1\", \"3\", \"2\", "
               "\"4\", \"1\", \"2\"]\n"
               "     \"normals\" \"vector3_array\" [\"0 0 1\", \"0 0.02617695 0.99965732\", "
               "\"0 0 1\", \"0 0.05233596 0.99862953\", \"0 0 1\", \"0 0 1\", \"0 0 1\", "
               "\"0 0 1\", \"0 0 1\"]\n"
               "     \"normalsIndices\" \"int_array\" [\"0\", \"1\", \"2\", \"3\", \"4\", \"5\", "
               "\"6\", \"7\", \"8\"]\n"
               "     \"textureCoordinates\" \"vector2_array\" [\"0 0\"]\n"
               "     \"textureCoordinatesIndices\" \"int_array\" [\"0\", \"0\", \"0\", \"0\", "
               "\"0\", \"0\", \"0\", \"0\", \"0\"]\n"
               "     \"jointCount\" \"int\" \"0\"\n    }\n" +
               std::string(delta ? "    \"deltaStates\" \"element_array\" [ "
                                   "\"DmeVertexDeltaData\" {\n     \"name\" \"string\" \"up\"\n"
                                   "     \"positions\" \"vector3_array\" [\"0 0 1\"]\n"
                                   "     \"positionsIndices\" \"int_array\" [\"3\"]\n    } ]\n"
                                 : "") +
               "    \"faceSets\" \"element_array\" [ \"DmeFaceSet\" {\n"
               "     \"material\" \"DmeMaterial\" { \"mtlName\" \"string\" \"m\" }\n"
               "     \"faces\" \"int_array\" [\"0\", \"1\", \"2\", \"-1\", \"3\", \"4\", \"5\", "
               "\"-1\", \"6\", \"7\", \"8\", \"-1\"]\n    } ]\n   }\n  }\n  ]\n }\n}\n";
    }
    void studiomdlVerticesAreIndexTriples_data()
    {
        QTest::addColumn<bool>("delta");
        QTest::addColumn<QList<int>>("vertices");
        QTest::newRow("no delta") << false << QList<int>{0, 1, 2, 3, 4, 2, 5, 1, 2};
        QTest::newRow("delta") << true << QList<int>{0, 1, 2, 1, 3, 2, 4, 1, 2};
    }
    void studiomdlVerticesAreIndexTriples()
    {
        QFETCH(bool, delta);
        QFETCH(QList<int>, vertices);
        const std::string text = indexTriplesMesh(delta);
        const ReadResult r = readBytesAs(text, "triples.dmx");
        QVERIFY2(!r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        QCOMPARE(r.model.mesh.cornerCount(), std::size_t(9));
        const std::vector<std::uint32_t>& v = r.model.mesh.cornerVertices;
        QList<int> got;
        for (const std::uint32_t x : v) {
            got << static_cast<int>(x);
        }
        QCOMPARE(got, vertices);
    }

    // An unskinned mesh whose DAG no listed node is above (a child of the DmeModel, which a
    // model 1 file does not list) is on its own DAG's bone, as studiomdl's LoadMeshes skins it
    // (nBoneAssign), not on the first joint (a Blender Source Tools `blender_implicit`).
    void unskinnedMeshOnItsOwnBone()
    {
        const std::string text =
            "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
            "\"DmElement\" {\n \"model\" \"DmeModel\" {\n  \"children\" \"element_array\" [\n"
            "  \"DmeJoint\" { \"name\" \"string\" \"blender_implicit\"\n"
            "   \"transform\" \"DmeTransform\" { \"id\" \"elementid\" "
            "\"11111111-1111-1111-1111-111111111111\" \"name\" \"string\" \"blender_implicit\" "
            "}\n  },\n"
            "  \"DmeDag\" { \"name\" \"string\" \"gun\"\n"
            "   \"transform\" \"DmeTransform\" { \"id\" \"elementid\" "
            "\"22222222-2222-2222-2222-222222222222\" \"name\" \"string\" \"gun\"\n"
            "    \"position\" \"vector3\" \"0 0 2\" }\n"
            "   \"shape\" \"DmeMesh\" {\n    \"bindState\" \"DmeVertexData\" {\n"
            "     \"positions\" \"vector3_array\" [\"0 0 0\", \"1 0 0\", \"0 1 0\"]\n"
            "     \"positionsIndices\" \"int_array\" [\"0\", \"1\", \"2\"]\n"
            "     \"jointCount\" \"int\" \"0\"\n    }\n"
            "    \"faceSets\" \"element_array\" [ \"DmeFaceSet\" {\n"
            "     \"material\" \"DmeMaterial\" { \"mtlName\" \"string\" \"m\" }\n"
            "     \"faces\" \"int_array\" [\"0\", \"1\", \"2\", \"-1\"]\n    } ]\n   }\n  }\n  ]\n"
            "  \"jointTransforms\" \"element_array\" "
            "[\"element\" \"11111111-1111-1111-1111-111111111111\", "
            "\"element\" \"22222222-2222-2222-2222-222222222222\"]\n }\n}\n";
        const ReadResult r = readBytesAs(text, "gun.dmx");
        QVERIFY2(!r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        const Skeleton& sk = r.model.skeleton;
        QCOMPARE(sk.size(), std::size_t(2));
        QCOMPARE(sk.names[0], std::string("blender_implicit"));
        QCOMPARE(sk.names[1], std::string("gun"));
        QCOMPARE(r.model.mesh.pointParents.size(), std::size_t(3));
        for (const JointIndex j : r.model.mesh.pointParents) {
            QCOMPARE(j, JointIndex(1));
        }
        QCOMPARE(sk.bindPositions[1].z(), 2.0f);
    }

    // studiomdl's fan: from the corner whose diagonals are shortest (a kite's short diagonal).
    void ngonFan()
    {
        const std::string text =
            "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
            "\"DmElement\" {\n \"model\" \"DmeModel\" {\n  \"children\" \"element_array\" [\n"
            "  \"DmeDag\" {\n   \"shape\" \"DmeMesh\" {\n    \"bindState\" \"DmeVertexData\" {\n"
            "     \"positions\" \"vector3_array\" [\"0 0 0\", \"1 1 0\", \"0 3 0\", \"-1 1 0\", "
            "\"5 0 0\", \"6 0 0\", \"7 1 0\", \"6 2 0\", \"5 1 0\"]\n"
            "     \"positionsIndices\" \"int_array\" [\"0\", \"1\", \"2\", \"3\", \"4\", \"5\", "
            "\"6\", "
            "\"7\", \"8\"]\n"
            "     \"jointCount\" \"int\" \"0\"\n    }\n"
            "    \"faceSets\" \"element_array\" [ \"DmeFaceSet\" {\n"
            "     \"material\" \"DmeMaterial\" { \"mtlName\" \"string\" \"m\" }\n"
            "     \"faces\" \"int_array\" [\"0\", \"1\", \"2\", \"3\", \"-1\", \"4\", \"5\", "
            "\"6\", "
            "\"7\", \"8\", \"-1\"]\n    } ]\n   }\n  }\n  ]\n }\n}\n";
        const ReadResult r = readBytesAs(text, "fan.dmx");
        QVERIFY2(!r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        const Mesh& me = r.model.mesh;
        QCOMPARE(me.triangleCount(), std::size_t(2 + 3));
        auto corner = [&](std::size_t c) {
            const Vec3& p = me.pointPositions[me.cornerPoints[c]];
            return QString::number(double(p.x())) + QLatin1Char(',') +
                   QString::number(double(p.y()));
        };
        // Kite 0-3: diagonal 1-3 (length 2) beats 0-2 (length 3): fan from corner 1.
        QCOMPARE(corner(0), QStringLiteral("1,1"));
        QCOMPARE(corner(1), QStringLiteral("0,3"));
        QCOMPARE(corner(2), QStringLiteral("-1,1"));
        QCOMPARE(corner(3), QStringLiteral("1,1"));
        QCOMPARE(corner(5), QStringLiteral("0,0"));
        // Pentagon 4-8: every triangle shares the apex.
        for (std::size_t t = 2; t < 5; ++t) {
            QCOMPARE(corner(3 * t), corner(6));
        }
    }

    // ---- keyvalues2 numeric arrays ------------------------------------------------------------
    // Numeric arrays are read in place (the fast path) until an item it declines; the token
    // path reads the rest. Both must give the same values and the same locations.
    void kv2NumericArrays()
    {
        const std::string text = "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
                                 "\"DmElement\"\n{\n"
                                 "\t\"v\" \"vector3_array\"\n\t[\n"
                                 "\t\t\"1 2 3\",\n"
                                 "\t\t\"-0.5 1e3 0.000001\",\n"  // fast
                                 "\t\t\"2.5e30 +1 4\",\n"        // declined: token path
                                 "\t\t\"7\t8 9\" // a comment\n" // tab, comment, no comma
                                 "\t\t\"10 11 12\"\n\t]\n"
                                 "\t\"i\" \"int_array\" [ \"1\", \"-2\",\"3\" , 4, \"5\" ]\n"
                                 "\t\"e\" \"float_array\" [ ]\n"
                                 "\t\"t\" \"float_array\" [ \"1\", , \"2\" ]\n"
                                 "\t\"w\" \"vector2_array\" [ \"1 2\", \"3 x\" ]\n"
                                 "}\n";
        dmx::Document doc;
        DiagnosticSink sink("n.dmx");
        DmxHeader h;
        const std::size_t start = dmx::parseHeader(text, h);
        QVERIFY(dmx::parseKeyValues2(text, start, doc, sink));
        QCOMPARE(doc.elements.size(), std::size_t(1));
        const dmx::Element& e = doc.elements[0];
        const dmx::Attribute* v = e.find("v");
        QVERIFY(v);
        QCOMPARE(v->count, std::size_t(5));
        const std::vector<float> wantV{1, 2, 3, -0.5f, 1000, 0.000001f, 2.5e30f, 1,
                                       4, 7, 8, 9,     10,   11,        12};
        QCOMPARE(v->floats, wantV);
        const dmx::Attribute* i = e.find("i");
        QVERIFY(i);
        QCOMPARE(i->ints, (std::vector<std::int32_t>{1, -2, 3, 4, 5}));
        QCOMPARE(e.find("e")->count, std::size_t(0));
        QCOMPARE(e.find("t")->floats, (std::vector<float>{1, 2}));
        // The bad item is reported where it stands, after a fast start on the same line.
        const QStringList got = test::formatted(sink.diagnostics());
        QCOMPARE(got, QStringList{QStringLiteral(
                          "n.dmx:15:31: error: attribute 'w' (vector2): expected 2 numbers, got "
                          "'3 x' [dmx.attribute-type]")});
        QCOMPARE(e.find("w")->floats, (std::vector<float>{1, 2, 0, 0}));
    }

    // ---- binary locations --------------------------------------------------------------------
    // Mesh diagnostics of a binary DMX point at the bytes of the item they are about
    // (`FILE:@0x...`), for the reader's dmx.face-index and for the model checks alike.
    void binaryMeshLocations()
    {
        const ReadResult tiny = test::readPath(
            test::fixturesDir() + QStringLiteral("/dmx/valid/tiny_kv2.dmx"), test::fixturesDir());
        QVERIFY(tiny.hasModel && !tiny.hasErrors());
        WriteContext wctx;
        wctx.fileName = "t.dmx";
        const std::string bin = writeDmxWith(tiny.model, wctx, {true, 2, 1}).bytes;
        auto i32 = [](std::int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
        auto f32 = [](float v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
        // The face set's `faces` items 0 1 2 -1, found in the bytes (not through the reader).
        const std::size_t faces = bin.find(i32(0) + i32(1) + i32(2) + i32(-1));
        QVERIFY(faces != std::string::npos &&
                bin.find(i32(0) + i32(1) + i32(2) + i32(-1), faces + 1) == std::string::npos);
        char hex[32];

        // A corner index out of range: the error is at that item.
        std::string bad = bin;
        bad.replace(faces + 8, 4, i32(7));
        const ReadResult r = readBytesAs(bad, "t.dmx");
        std::snprintf(hex, sizeof hex, "%04zX", faces + 8);
        const QStringList got = test::formatted(r.diagnostics);
        QVERIFY2(got.contains(QStringLiteral("t.dmx:@0x%1: error: mesh 't': face set "
                                             "'skin.tga': corner 7 outside the 3 face vertices "
                                             "[dmx.face-index]")
                                  .arg(QLatin1String(hex))),
                 qPrintable(got.join(QLatin1Char('\n'))));
        QCOMPARE(r.model.mesh.triangleCount(), std::size_t(0));

        // A zero-area triangle (third position on the second): the check's note is at the
        // triangle's first corner in `faces`, and every corner location is its item.
        const std::size_t positions = bin.find(f32(0) + f32(0) + f32(0) + f32(1) + f32(0) + f32(0) +
                                               f32(0) + f32(1) + f32(0));
        QVERIFY(positions != std::string::npos);
        std::string flat = bin;
        flat.replace(positions + 24, 12, f32(1) + f32(0) + f32(0));
        const ReadResult z = readBytesAs(flat, "t.dmx");
        QVERIFY(z.hasModel && !z.hasErrors());
        QCOMPARE(z.model.mesh.cornerWhere.size(), std::size_t(3));
        for (std::size_t c = 0; c < 3; ++c) {
            QCOMPARE(z.model.mesh.cornerWhere[c].offset, std::uint64_t(faces + 4 * c));
            QCOMPARE(z.model.mesh.pointWhere[c].offset, std::uint64_t(positions + 12 * c));
        }
        const CheckedFile checked = checkReadResult("t.dmx", z, nullptr, {}, CheckOptions{});
        bool found = false;
        std::snprintf(hex, sizeof hex, "t.dmx:@0x%04zX:", faces);
        for (const Diagnostic& d : checked.diagnostics) {
            if (d.id == ids::kMeshDegenerateTriangle) {
                found = true;
                QVERIFY2(formatDiagnostic(d).starts_with(hex), formatDiagnostic(d).c_str());
            }
        }
        QVERIFY(found);
    }

    // ---- stereo, wrinkle, dominators ----------------------------------------------------------
    // tests/fixtures/dmx/valid/stereo_face.dmx: a stereo control at left 1, right 0.5, a mono
    // one at 0.25 (its right value ignored), a domination rule, a balance per vertex.
    void stereoControls()
    {
        const ReadResult r =
            test::readPath(test::fixturesDir() + QStringLiteral("/dmx/valid/stereo_face.dmx"),
                           test::fixturesDir());
        QVERIFY(r.hasModel && !r.hasErrors());
        const Model& m = r.model;
        QCOMPARE(m.flexControllers.size(), std::size_t(2));
        const FlexController& smile = m.flexControllers[0];
        QVERIFY(smile.stereo);
        QCOMPARE(smile.value, 1.0f);
        QCOMPARE(smile.balance, 0.25f); // right is half of left
        QCOMPARE(smile.wrinkleScales, std::vector<float>{0.5f});
        const FlexController& blink = m.flexControllers[1];
        QVERIFY(!blink.stereo);
        QCOMPARE(blink.value, 0.25f);
        QCOMPARE(blink.balance, 0.5f);
        QCOMPARE(m.flexDominators.size(), std::size_t(1));
        QCOMPARE(m.flexDominators[0].dominators, std::vector<std::string>{"blink"});
        QCOMPARE(m.flexDominators[0].suppressed, std::vector<std::string>{"smile"});
        // One balance per point (two triangles of the quad: 6 points), as the file's vertices.
        QCOMPARE(m.pointBalance.size(), m.mesh.pointCount());
        QCOMPARE(m.mesh.pointCount(), std::size_t(6));
        for (std::size_t p = 0; p < m.pointBalance.size(); ++p) {
            const Vec3& x = m.mesh.pointPositions[p];
            const float want = x.x() < 0 ? (x.y() > 0 ? 0.5f : 0.0f) : 1.0f;
            QCOMPARE(m.pointBalance[p], want);
        }

        // The writer keeps all of it, in keyvalues2 and binary 2.
        for (const bool binary : {false, true}) {
            WriteContext wctx;
            wctx.fileName = "s.dmx";
            const WriteResult w = writeDmxWith(m, wctx, {binary, 2, 1});
            const ReadResult back = readBytesAs(w.bytes, "s.dmx");
            QVERIFY(back.hasModel && !back.hasErrors());
            QVERIFY(back.model.skeleton == m.skeleton);
            QVERIFY(back.model.mesh == m.mesh);
            QVERIFY(back.model.vertexFrames == m.vertexFrames);
            QVERIFY(back.model.flexControllers == m.flexControllers);
            QCOMPARE(back.model.flexDominators, m.flexDominators);
            QCOMPARE(back.model.pointBalance, m.pointBalance);
            for (std::size_t c = 0; c < 2; ++c) {
                QCOMPARE(back.model.flexControllers[c].value, m.flexControllers[c].value);
                QCOMPARE(back.model.flexControllers[c].balance, m.flexControllers[c].balance);
                QCOMPARE(back.model.flexControllers[c].wrinkleScales,
                         m.flexControllers[c].wrinkleScales);
            }
        }

        // DMX -> SMD says what it drops.
        std::string bytes;
        const ConvertResult c = convertModel(r, "f.dmx", "f.smd", std::string(), bytes);
        std::size_t notes = 0;
        for (const Diagnostic& d : c.diagnostics) {
            notes += d.id == ids::kWriteDataDropped &&
                             (d.message.find("domination rules dropped") != std::string::npos ||
                              d.message.find("stereo split") != std::string::npos)
                         ? 1
                         : 0;
        }
        QCOMPARE(notes, std::size_t(2));
    }

    // ---- wrinkle deltas and attachments --------------------------------------------------------
    // tests/fixtures/dmx/valid/wrinkle_attach_face.dmx (hand-written in Valve's layout) read;
    // then written by our writer as keyvalues2 and binary 2 (committed:
    // wrinkle_attach_{kv2,binary2}.dmx; RIGSCOPE_BLESS=1 rewrites them) and read back the same.
    void wrinkleAndAttachments()
    {
        const ReadResult r = test::readPath(
            test::fixturesDir() + QStringLiteral("/dmx/valid/wrinkle_attach_face.dmx"),
            test::fixturesDir());
        QVERIFY2(r.hasModel && !r.hasErrors(),
                 qPrintable(test::formatted(r.diagnostics).join(QLatin1Char('\n'))));
        const Model& m = r.model;
        // Bones: the DmeModel, root, head; the attachment's DAG is no bone.
        QCOMPARE(m.skeleton.size(), std::size_t(3));
        QCOMPARE(m.skeleton.findByName("eyes_dag"), kNoJoint);
        QCOMPARE(m.attachments.size(), std::size_t(1));
        const Attachment& a = m.attachments[0];
        QCOMPARE(a.name, std::string("eyes"));
        QCOMPARE(a.joint, m.skeleton.findByName("head"));
        QVERIFY((a.position - Vec3(1, 2, 3)).cwiseAbs().maxCoeff() < 1e-6f);
        QVERIFY((a.rotation - Vec3(0, 0, float(M_PI / 2))).cwiseAbs().maxCoeff() < 1e-6f);
        QVERIFY(a.rigid);
        QVERIFY(!a.worldAligned);

        // "frown": the two corners of position 2 move up by 1; the corner with texture
        // coordinate 4 (position 3) gets wrinkle 0.5 and the one with texture coordinate 1
        // (position 1) -0.25, without moving.
        QCOMPARE(m.vertexFrames.size(), std::size_t(2));
        const VertexFrame& f = m.vertexFrames[1];
        QCOMPARE(f.name, std::string("frown"));
        QCOMPARE(f.ids.size(), std::size_t(4));
        QCOMPARE(f.wrinkles.size(), f.ids.size());
        QCOMPARE(m.flexShapes.size(), std::size_t(1));
        QCOMPARE(m.flexShapes[0].deltaWrinkles, f.wrinkles);
        int moved = 0;
        for (std::size_t k = 0; k < f.ids.size(); ++k) {
            const auto c = static_cast<std::size_t>(f.ids[k]);
            const Vec3 p = m.mesh.pointPositions[m.mesh.cornerPoints[c]];
            const float want = p.isApprox(Vec3(-1, 1, 0))  ? 0.5f
                               : p.isApprox(Vec3(1, 0, 0)) ? -0.25f
                                                           : 0.0f;
            QCOMPARE(f.wrinkles[k], want);
            const float dz = m.flexShapes[0].deltaPositions[k].z();
            QCOMPARE(dz, p.isApprox(Vec3(1, 1, 0)) ? 1.0f : 0.0f);
            moved += dz != 0.0f ? 1 : 0;
        }
        QCOMPARE(moved, 2);

        // info lists both (text and JSON).
        const InfoReport info = infoFromResult("face.dmx", r, Profile::Auto);
        QCOMPARE(info.wrinkles.size(), std::size_t(1));
        QCOMPARE(info.wrinkles[0].shape, std::string("frown"));
        QCOMPARE(info.wrinkles[0].values, std::size_t(4));
        QCOMPARE(info.wrinkles[0].maxAbs, 0.5f);
        QCOMPARE(info.attachments.size(), std::size_t(1));
        QCOMPARE(info.attachments[0].bone, std::string("head"));
        QVERIFY(std::abs(info.attachments[0].rotation.z() - 90.0f) < 1e-4f);
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(infoJson({info})))
                                  .array()
                                  .at(0)
                                  .toObject();
        const QJsonArray wr = j.value(QStringLiteral("wrinkles")).toArray();
        QCOMPARE(wr.size(), 1);
        QCOMPARE(wr[0].toObject().value(QStringLiteral("shape")).toString(),
                 QStringLiteral("frown"));
        QCOMPARE(wr[0].toObject().value(QStringLiteral("values")).toInt(), 4);
        QCOMPARE(wr[0].toObject().value(QStringLiteral("maxAbs")).toDouble(), 0.5);
        const QJsonArray at = j.value(QStringLiteral("attachments")).toArray();
        QCOMPARE(at.size(), 1);
        const QJsonObject eyes = at[0].toObject();
        QCOMPARE(eyes.value(QStringLiteral("name")).toString(), QStringLiteral("eyes"));
        QCOMPARE(eyes.value(QStringLiteral("bone")).toString(), QStringLiteral("head"));
        QCOMPARE(eyes.value(QStringLiteral("position")).toArray(), (QJsonArray{1, 2, 3}));
        QVERIFY(std::abs(eyes.value(QStringLiteral("rotation")).toArray()[2].toDouble() - 90.0) <
                1e-4);
        QCOMPARE(eyes.value(QStringLiteral("rigid")).toBool(), true);
        QCOMPARE(eyes.value(QStringLiteral("worldAligned")).toBool(), false);
        QVERIFY(infoText(info, false).find("eyes on head at 1 2 3") != std::string::npos);

        // Our writer keeps both, in keyvalues2 and binary 2, and its output is stable.
        for (const bool binary : {false, true}) {
            const std::string name =
                std::string("wrinkle_attach_") + (binary ? "binary2" : "kv2") + ".dmx";
            WriteContext wctx;
            wctx.fileName = name;
            const WriteResult w = writeDmxWith(m, wctx, {binary, 2, 1});
            QVERIFY(w.ok());
            const QString path =
                test::fixturesDir() + QStringLiteral("/dmx/valid/") + QString::fromStdString(name);
            if (test::blessing()) {
                QFile out(path);
                QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
                out.write(w.bytes.data(), qint64(w.bytes.size()));
            }
            QVERIFY2(test::readBytes(path) == w.bytes,
                     "writer output differs from the committed fixture");
            const ReadResult back = readBytesAs(w.bytes, name);
            QVERIFY2(back.hasModel && !back.hasErrors(),
                     qPrintable(test::formatted(back.diagnostics).join(QLatin1Char('\n'))));
            QVERIFY(back.model.skeleton == m.skeleton);
            QVERIFY(back.model.vertexFrames == m.vertexFrames); // wrinkles bit for bit
            QCOMPARE(back.model.flexShapes[0].deltaWrinkles, m.flexShapes[0].deltaWrinkles);
            QCOMPARE(back.model.attachments.size(), std::size_t(1));
            const Attachment& b = back.model.attachments[0];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.joint, a.joint);
            QVERIFY(b.rigid && !b.worldAligned);
            QVERIFY((b.position - a.position).cwiseAbs().maxCoeff() < 1e-6f);
            QVERIFY((b.rotation - a.rotation).cwiseAbs().maxCoeff() < 1e-6f);
            QVERIFY(writeDmxWith(back.model, wctx, {binary, 2, 1}).bytes == w.bytes);
        }

        // DMX -> SMD / VTA say what they drop.
        for (const char* to : {"f.smd", "f.vta"}) {
            std::string bytes;
            const ConvertResult c = convertModel(r, "f.dmx", to, std::string(), bytes);
            std::size_t attachmentNotes = 0, wrinkleNotes = 0;
            for (const Diagnostic& d : c.diagnostics) {
                attachmentNotes += d.message.find("1 attachment dropped") != std::string::npos;
                wrinkleNotes += d.message.find("wrinkle deltas dropped") != std::string::npos;
            }
            QCOMPARE(attachmentNotes, std::size_t(1));
            QCOMPARE(wrinkleNotes, std::size_t(std::string(to) == "f.vta" ? 1 : 0));
        }
    }

    // ---- SMD + VTA -> one DMX (convert --flex) -------------------------------------------------
    void convertWithFlex_data()
    {
        QTest::addColumn<bool>("renumber"); // VTA ids reversed: matched by position, not by id
        QTest::addColumn<QString>("to");
        QTest::newRow("direct, keyvalues2") << false << QString();
        QTest::newRow("renumbered, binary 2") << true << QStringLiteral("dmx-binary");
    }
    void convertWithFlex()
    {
        QFETCH(bool, renumber);
        QFETCH(QString, to);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = test::samplesDir();
        const std::string ref = (tmp.path() + QStringLiteral("/ref.smd")).toStdString();
        const std::string vta = (tmp.path() + QStringLiteral("/shapes.vta")).toStdString();
        const std::string out = (tmp.path() + QStringLiteral("/head.dmx")).toStdString();
        QVERIFY(QFile::copy(dir + QStringLiteral("/sample_ref.smd"), QString::fromStdString(ref)));
        QString text =
            QString::fromLatin1(test::readBytes(dir + QStringLiteral("/sample_flex.vta")));
        if (renumber) {
            // Reverse the ids of every vertex line: id i -> n - 1 - i.
            QStringList lines = text.split(QLatin1Char('\n'));
            for (int pass = 0, n = 0; pass < 2; ++pass) {
                bool inBlock = false;
                for (QString& l : lines) {
                    inBlock =
                        inBlock ? l != QLatin1String("end") : l == QLatin1String("vertexanimation");
                    const qsizetype sp = l.indexOf(QLatin1Char(' '));
                    if (inBlock && sp > 0 && l.at(0).isDigit()) {
                        const int id = l.left(sp).toInt();
                        if (pass == 0) {
                            n = std::max(n, id + 1);
                        } else {
                            l = QString::number(n - 1 - id) + l.mid(sp);
                        }
                    }
                }
            }
            text = lines.join(QLatin1Char('\n'));
        }
        QFile f(QString::fromStdString(vta));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toLatin1());
        f.close();

        ConvertOptions opt;
        opt.flexPath = vta;
        opt.toFormat = to.toStdString();
        const ConvertResult conv = convertFile(ref, out, opt);
        QVERIFY2(
            conv.written && conv.exitCode == 0,
            (conv.error + test::formatted(conv.diagnostics).join(QLatin1Char('\n')).toStdString())
                .c_str());
        for (const Diagnostic& d : conv.diagnostics) {
            QVERIFY2(d.severity == Severity::Note, formatDiagnostic(d).c_str());
        }

        // What studiomdl would build: the VTA matched onto the reference's corners.
        ReadContext ctx;
        ctx.fileName = ref;
        const Model refModel = readSmd(test::readBytes(QString::fromStdString(ref)), ctx).model;
        ctx.fileName = vta;
        const Model vtaModel = readSmd(text.toLatin1().toStdString(), ctx).model;
        const FlexMatchResult want = matchFlex(vtaModel, refModel);
        QCOMPARE(want.shapes.size(), std::size_t(3));
        QCOMPARE(want.direct, !renumber);

        const ReadResult back = test::readPath(QString::fromStdString(out), tmp.path());
        QVERIFY(back.hasModel && !back.hasErrors());
        QCOMPARE(back.model.dmx.encoding, std::string(to.isEmpty() ? "keyvalues2" : "binary"));
        QCOMPARE(back.model.mesh.triangleCount(), refModel.mesh.triangleCount());
        QCOMPARE(back.model.flexControllers.size(), std::size_t(3));
        QCOMPARE(back.model.vertexFrames.size(), std::size_t(4)); // base + 3 shapes
        const Mesh& me = back.model.mesh;
        for (std::size_t k = 0; k < 3; ++k) {
            const FlexCornerShape& s = want.shapes[k];
            const VertexFrame& got = back.model.vertexFrames[k + 1];
            QCOMPARE(got.name, s.name);
            QCOMPARE(back.model.flexControllers[k].rawControls, std::vector<std::string>{s.name});
            // Every corner the VTA moves moves by its delta; no other corner moves.
            std::map<std::int32_t, Vec3> moved;
            for (std::size_t i = 0; i < s.corners.size(); ++i) {
                if (s.deltaPositions[i].norm() > 0) {
                    moved[static_cast<std::int32_t>(s.corners[i])] = s.deltaPositions[i];
                }
            }
            QVERIFY(!moved.empty());
            std::size_t seen = 0;
            for (std::size_t i = 0; i < got.ids.size(); ++i) {
                const auto c = static_cast<std::size_t>(got.ids[i]);
                const Vec3 base = me.pointPositions[me.cornerPoints[c]];
                const Vec3 d = got.positions[i] - base;
                const auto it = moved.find(got.ids[i]);
                if (it == moved.end()) {
                    QVERIFY2(d.norm() < 1e-5f, qPrintable(QString::number(c)));
                } else {
                    ++seen;
                    QVERIFY2((d - it->second).norm() < 1e-5f, qPrintable(QString::number(c)));
                }
            }
            QCOMPARE(seen, moved.size());
        }

        // DMX output only; an existing output is kept.
        opt.toFormat.clear();
        const ConvertResult smd =
            convertFile(ref, (tmp.path() + QStringLiteral("/x.smd")).toStdString(), opt);
        QCOMPARE(smd.exitCode, 2);
        QVERIFY(smd.error.find("--flex needs a .dmx output") != std::string::npos);
        QCOMPARE(convertFile(ref, out, opt).exitCode, 2);
    }

    // ---- hostile input -----------------------------------------------------------------------
    void hostileCounts_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray head =
            QByteArrayLiteral("<!-- dmx encoding binary 5 format model 18 -->\n");
        auto i32 = [](qint32 v) { return QByteArray(reinterpret_cast<const char*>(&v), 4); };
        QByteArray b = head + '\0';
        QTest::newRow("string table 2^31-1") << (b + i32(0x7fffffff) + QByteArray(64, 'a'));
        QTest::newRow("string table negative") << (b + i32(-5) + QByteArray(64, 'a'));
        QTest::newRow("elements 2^31-1")
            << (b + i32(1) + QByteArray("DmElement\0", 10) + i32(0x7fffffff) + QByteArray(64, 0));
        // one element, one int array attribute claiming 2^30 items
        QByteArray one = b + i32(2) + QByteArray("DmElement\0x\0", 12) + i32(1) + i32(0) + i32(1) +
                         QByteArray(16, 0) + i32(1) + i32(1) + char(15) + i32(0x40000000) +
                         QByteArray(32, 0);
        QTest::newRow("array 2^30") << one;
        QByteArray attrs = b + i32(1) + QByteArray("DmElement\0", 10) + i32(1) + i32(0) + i32(0) +
                           QByteArray(16, 0) + i32(0x7ffffff0) + QByteArray(32, 0);
        QTest::newRow("attributes 2^31") << attrs;
    }
    void hostileCounts()
    {
        QFETCH(QByteArray, bytes);
        g_largestAlloc = 0;
        const ReadResult r = readBytesAs(bytes.toStdString(), "h.dmx");
        QVERIFY(g_largestAlloc < std::size_t(1) << 20);
        QVERIFY(r.hasErrors());
        QVERIFY(verifyInvariants(r.model).empty());
        for (const Diagnostic& d : r.diagnostics) {
            if (d.severity == Severity::Error) {
                QVERIFY2(d.where.offset > 0 && d.binary, formatDiagnostic(d).c_str());
            }
        }
    }

    void referenceCycle()
    {
        const std::string text =
            "<!-- dmx encoding keyvalues2 1 format model 1 -->\n"
            "\"DmElement\"\n{\n\t\"id\" \"elementid\" \"r\"\n\t\"skeleton\" \"element\" \"a\"\n}\n"
            "\"DmeModel\"\n{\n\t\"id\" \"elementid\" \"a\"\n\t\"name\" \"string\" \"a\"\n"
            "\t\"children\" \"element_array\" [ \"element\" \"b\" ]\n}\n"
            "\"DmeJoint\"\n{\n\t\"id\" \"elementid\" \"b\"\n\t\"name\" \"string\" \"b\"\n"
            "\t\"children\" \"element_array\" [ \"element\" \"a\", \"element\" \"zz\" ]\n}\n";
        const ReadResult r = readBytesAs(text, "c.dmx");
        QVERIFY(verifyInvariants(r.model).empty());
        const QStringList got = test::formatted(r.diagnostics);
        QVERIFY2(
            got.contains(QStringLiteral("c.dmx:17:2: error: attribute 'children' refers to element "
                                        "id 'zz', which no element has [dmx.bad-reference]")),
            qPrintable(got.join(QLatin1Char('\n'))));
        QVERIFY(hasId(r.diagnostics, ids::kDmxBadReference));
        QCOMPARE(r.model.skeleton.size(), std::size_t(2)); // no jointList: the DAGs without shapes
    }

    void deepNesting()
    {
        std::string text = "<!-- dmx encoding keyvalues2 1 format model 1 -->\n\"DmElement\" {\n";
        for (int i = 0; i < 100000; ++i) {
            text += "\"c\" \"DmElement\" {\n";
        }
        const ReadResult r = readBytesAs(text, "d.dmx");
        QVERIFY(hasId(r.diagnostics, ids::kDmxSyntax));
        QVERIFY(verifyInvariants(r.model).empty());
    }

    // Every prefix of every encoding of the sample: an error, a sound model, no crash.
    void truncation_data()
    {
        QTest::addColumn<int>("index");
        const auto v = variants();
        for (std::size_t i = 0; i < v.size(); ++i) {
            QTest::newRow(v[i].file) << int(i);
        }
    }
    void truncation()
    {
        QFETCH(int, index);
        const Variant var = variants()[std::size_t(index)];
        Model small = sampleAnimation();
        WriteContext wctx;
        wctx.fileName = "t.dmx";
        const std::string full = writeDmxWith(small, wctx, var.opt).bytes;
        const std::size_t step = var.opt.binary ? 1 : 7;
        for (std::size_t n = 0; n + 1 < full.size(); n += step) {
            const ReadResult r = readBytesAs(full.substr(0, n), "t.dmx");
            const std::string bad = verifyInvariants(r.model);
            QVERIFY2(bad.empty(), bad.c_str());
            if (var.opt.binary) {
                QVERIFY2(r.hasErrors(),
                         qPrintable(QStringLiteral("prefix %1 read without error").arg(n)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TstDmx)
#include "tst_dmx.moc"
