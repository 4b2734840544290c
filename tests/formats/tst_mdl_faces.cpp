// Source compiled faces and IK (issue 29): flex rules decoded into expressions, the meshes'
// vertex animations (stereo and wrinkle) played through Model flex shapes, IK chains and
// locks, with located diagnostics for broken programs and indices; real L4D survivors and
// HL2 characters from RIGSCOPE_TESTDATA (default /work/data) when present.
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/formats/mdl/compiled_model.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using core::Vec3;

namespace {

core::CompiledReadResult read(const test::SourceMdlSpec& spec)
{
    const test::SourceMdlBytes m = test::writeSourceMdl(spec);
    core::SourceMdlFiles in;
    in.mdl = {m.mdl, "m.mdl", true};
    in.vvd = {m.vvd, "m.vvd", true};
    in.vtx = {m.vtx, "m.dx90.vtx", true};
    in.ani = {m.ani, "m.ani", !m.ani.empty()};
    core::CompiledReadOptions o;
    o.animations = false;
    return core::readSourceMdl(in, {}, o);
}

QStringList formatted(const std::vector<core::Diagnostic>& diags)
{
    QStringList out;
    for (const core::Diagnostic& d : diags) {
        out << QString::fromStdString(core::formatDiagnostic(d));
    }
    return out;
}

bool near(const Vec3& a, const Vec3& b, float tol)
{
    return (a - b).cwiseAbs().maxCoeff() <= tol;
}

test::MdlFlexOp op(std::int32_t code, std::int32_t index)
{
    return {code, index, 0};
}
test::MdlFlexOp constant(float v)
{
    return {1, 0, v};
}

// The sample model with three controllers, four descriptors, rules of every kind, a stereo
// and a wrinkle vertex animation on the head mesh (its .vvd vertices 4, 5, 6) and one IK chain.
test::SourceMdlSpec faceSpec()
{
    test::SourceMdlSpec s = test::sampleSourceSpec();
    s.flexControllers = {"blink", "smile", "lid"};
    s.flexDescs = {"blink", "smileL", "smileR", "both"};
    s.flexRules = {
        {0, {op(2, 0)}},                                            // %blink = blink
        {1, {op(2, 1), constant(1), op(2, 0), op(5, 0), op(6, 0)}}, // smile * (1 - blink)
        {3, {op(3, 1), constant(0.5f), op(13, 0), op(2, 1), op(8, 0), op(4, 0)}},
        {2, {op(2, 1), op(2, 2), op(18, 2), op(2, 0), op(19, 1)}}, // combo, dominated
        {3, {constant(0), constant(0.25f), constant(0.5f), constant(1), constant(2), op(17, 1)}},
    };
    test::MdlMesh& head = s.bodyparts[0].models[0].meshes[1];
    test::MdlVertexAnimation stereo;
    stereo.desc = 1;
    stereo.pair = 2;
    stereo.deltas = {{0, Vec3(0, 0, 1), Vec3::Zero(), 0, 0},
                     {1, Vec3(1, 0, 0), Vec3::Zero(), 255, 0}};
    test::MdlVertexAnimation wrinkle;
    wrinkle.desc = 0;
    wrinkle.wrinkle = true;
    wrinkle.deltas = {{2, Vec3(0, 2, 0), Vec3(0, 0, -0.5f), 0, 0.5f}};
    head.flexes = {stereo, wrinkle};
    s.ikChains = {{"lhand", {0, 1}}};
    s.ikLocks = {0};
    return s;
}

} // namespace

class TstMdlFaces : public QObject {
    Q_OBJECT
private slots:
    void flexRules();
    void vertexAnimations();
    void ikChains();
    void brokenPrograms();
    void realFaces();
};

void TstMdlFaces::flexRules()
{
    const auto r = read(faceSpec());
    QCOMPARE(formatted(r.diagnostics), QStringList());
    const auto& rules = r.info.flexRuleList;
    QCOMPARE(rules.size(), std::size_t(5));
    QCOMPARE(r.info.flexRules, 5);
    QCOMPARE(rules[0].expression, std::string("%blink = blink"));
    QCOMPARE(rules[1].expression, std::string("%smileL = (smile * (1 - blink))"));
    QCOMPARE(rules[2].expression, std::string("%both = (max(%smileL, 0.5) + -smile)"));
    QCOMPARE(rules[3].expression, std::string("%smileR = ((smile * lid) * (1 - blink))"));
    QCOMPARE(rules[4].expression, std::string("%both = nway(lid, smile, 0, 0.25, 0.5, 1)"));
    QCOMPARE(rules[1].ops.size(), std::size_t(5));
    QCOMPARE(rules[1].ops[1].op, 1);
    QCOMPARE(rules[1].ops[1].value, 1.0f);
    QCOMPARE(rules[1].ops[2].index, 0);
}

void TstMdlFaces::vertexAnimations()
{
    const auto r = read(faceSpec());
    QCOMPARE(formatted(r.diagnostics), QStringList());
    const auto& flexes = r.info.flexes;
    QCOMPARE(flexes.size(), std::size_t(2));
    QCOMPARE(flexes[0].desc, 1);
    QCOMPARE(flexes[0].pair, 2);
    QCOMPARE(flexes[0].mesh, 1);
    QCOMPARE(flexes[0].deltas.size(), std::size_t(2));
    QCOMPARE(flexes[0].deltas[0].vertex, 4); // the head mesh starts at .vvd vertex 4
    QCOMPARE(flexes[0].deltas[1].vertex, 5);
    QCOMPARE(flexes[0].deltas[1].side, std::uint8_t(255));
    QVERIFY(near(flexes[0].deltas[1].position, Vec3(1, 0, 0), 0));
    QCOMPARE(flexes[1].type, 1);
    QCOMPARE(flexes[1].deltas[0].wrinkle, 0.5f);
    QVERIFY(near(flexes[1].deltas[0].normal, Vec3(0, 0, -0.5f), 0));
    // Played: one shape per moved descriptor, the stereo one split by side.
    const core::Model& m = r.model;
    QCOMPARE(core::verifyInvariants(m), std::string());
    QCOMPARE(m.vertexFrames.size(), std::size_t(4)); // base + blink, smileL, smileR
    QCOMPARE(m.flexShapes.size(), std::size_t(3));
    QCOMPARE(m.flexShapes[0].name, std::string("blink"));
    QCOMPARE(m.flexShapes[1].name, std::string("smileL"));
    QCOMPARE(m.flexShapes[2].name, std::string("smileR"));
    const auto pointOf = [&](std::int32_t corner) {
        return m.mesh.cornerPoints[static_cast<std::size_t>(corner)];
    };
    QCOMPARE(m.flexShapes[1].ids.size(), std::size_t(1)); // point 4 has one corner
    QCOMPARE(pointOf(m.flexShapes[1].ids[0]), std::uint32_t(4));
    QVERIFY2(near(m.flexShapes[1].deltaPositions[0], Vec3(0, 0, 1), 1e-6f),
             qPrintable(QStringLiteral("%1 %2 %3")
                            .arg(m.flexShapes[1].deltaPositions[0].x())
                            .arg(m.flexShapes[1].deltaPositions[0].y())
                            .arg(m.flexShapes[1].deltaPositions[0].z())));
    QCOMPARE(pointOf(m.flexShapes[2].ids[0]), std::uint32_t(5));
    QVERIFY(near(m.flexShapes[2].deltaPositions[0], Vec3(1, 0, 0), 1e-6f));
    QCOMPARE(pointOf(m.flexShapes[0].ids[0]), std::uint32_t(6));
    QVERIFY(near(m.flexShapes[0].deltaPositions[0], Vec3(0, 2, 0), 1e-6f));
    QVERIFY(near(m.flexShapes[0].deltaNormals[0], Vec3(0, 0, -0.5f), 1e-6f));
    QCOMPARE(m.flexShapes[0].deltaWrinkles, std::vector<float>{0.5f});
    // Without vertex animations the model has no shapes.
    QVERIFY(read(test::sampleSourceSpec()).model.flexShapes.empty());
}

void TstMdlFaces::ikChains()
{
    const auto r = read(faceSpec());
    QCOMPARE(r.info.ikChainList.size(), std::size_t(1));
    QCOMPARE(r.info.ikChainList[0].name, std::string("lhand"));
    QCOMPARE(r.info.ikChainList[0].bones, (std::vector<std::int32_t>{0, 1}));
    QVERIFY(near(r.info.ikChainList[0].kneeDirections[1], Vec3(0, 0, 1), 0));
    QCOMPARE(r.info.ikChains, 1);
    QCOMPARE(r.info.ikLockList.size(), std::size_t(1));
    QCOMPARE(r.info.ikLockList[0].chain, 0);
    QCOMPARE(r.info.ikLockList[0].positionWeight, 1.0f);
}

void TstMdlFaces::brokenPrograms()
{
    test::SourceMdlSpec spec = faceSpec();
    spec.flexRules.push_back({0, {constant(1), op(4, 0)}}); // + with one value
    spec.flexRules.push_back({7, {constant(1)}});           // flex 7 of 4
    spec.flexRules.push_back({0, {op(99, 0)}});             // unknown code
    spec.ikChains[0].bones.push_back(9);                    // bone 9 of 2
    spec.ikLocks.push_back(3);                              // chain 3 of 1
    spec.bodyparts[0].models[0].meshes[1].flexes[0].deltas.push_back(
        {3, Vec3(1, 1, 1), Vec3::Zero(), 0, 0}); // vertex 3 of a mesh of 3
    const test::SourceMdlBytes bytes = test::writeSourceMdl(spec);
    const auto r = read(spec);
    QStringList got = formatted(r.diagnostics);
    QCOMPARE(got.size(), 6);
    QVERIFY2(got[0].contains(u"flex rule 5: operation 1 takes 2 values, the stack holds 1 "
                             u"[compiled.corrupt]"_qs),
             qPrintable(got.join(u'\n')));
    QVERIFY2(got[1].contains(u"flex rule 6 sets flex 7 of 4"_qs), qPrintable(got[1]));
    QVERIFY2(got[2].contains(u"flex rule 7: operation 0 has the unknown code 99"_qs),
             qPrintable(got[2]));
    QVERIFY2(got[3].contains(u"IK chain 'lhand' links bone 9 of 2"_qs), qPrintable(got[3]));
    QVERIFY2(got[4].contains(u"IK lock 1 names chain 3 of 1"_qs), qPrintable(got[4]));
    QVERIFY2(got[5].contains(u"a vertex animation moves vertex 3 of a mesh of 3"_qs),
             qPrintable(got[5]));
    // Located: the broken + is the second op of rule 5, at the rule's op offset + 8.
    const core::Diagnostic& first = r.diagnostics[0];
    const auto ruleAt = static_cast<std::int64_t>(r.info.flexRuleList[5].offset);
    const core::Diagnostic* d = &first;
    const std::int64_t opIndex =
        static_cast<std::uint8_t>(bytes.mdl[std::size_t(ruleAt + 8)]) |
        (static_cast<std::uint8_t>(bytes.mdl[std::size_t(ruleAt + 9)]) << 8);
    QCOMPARE(d->where.offset, std::uint64_t(ruleAt + opIndex + 8));
    // What decodes is kept: the rule list is whole, the IK chain keeps its good links.
    QCOMPARE(r.info.flexRuleList.size(), std::size_t(8));
    QCOMPARE(r.info.flexRuleList[5].expression, std::string());
    QCOMPARE(r.info.ikChainList[0].bones.size(), std::size_t(2));
    QCOMPARE(core::verifyInvariants(r.model), std::string());
}

void TstMdlFaces::realFaces()
{
    const QString root = test::publicDataDir();
    const QString namvet =
        root + u"/xDShot+alastor-playermodel/addondir/models/survivors/survivor_namvet"_qs;
    const QString alyx = root + u"/ScaryPancake+DayHard/models/alyx"_qs;
    if (!QFileInfo(namvet + u".mdl"_qs).isFile()) {
        QSKIP("the public compiled models (RIGSCOPE_TESTDATA) are not here");
    }
    const auto slurp = [](const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return std::string();
        }
        const QByteArray all = f.readAll();
        return std::string(all.constData(), static_cast<std::size_t>(all.size()));
    };
    for (const QString& stem : {namvet, alyx}) {
        const std::string mdl = slurp(stem + u".mdl"_qs);
        const std::string vvd = slurp(stem + u".vvd"_qs);
        const std::string vtx = slurp(stem + u".dx90.vtx"_qs);
        core::SourceMdlFiles in;
        in.mdl = {mdl, (stem + u".mdl"_qs).toStdString(), true};
        in.vvd = {vvd, (stem + u".vvd"_qs).toStdString(), !vvd.empty()};
        in.vtx = {vtx, (stem + u".dx90.vtx"_qs).toStdString(), !vtx.empty()};
        core::CompiledReadOptions o;
        o.animations = false;
        const auto r = core::readSourceMdl(in, {}, o);
        for (const core::Diagnostic& d : r.diagnostics) {
            qWarning("%s", core::formatDiagnostic(d).c_str());
        }
        QCOMPARE(r.diagnostics.size(), std::size_t(0));
        const auto& info = r.info;
        QCOMPARE(info.flexRuleList.size(), static_cast<std::size_t>(info.flexRules));
        for (const core::CompiledFlexRule& rule : info.flexRuleList) {
            QVERIFY2(!rule.expression.empty(), qPrintable(QString::number(rule.flex)));
        }
        QCOMPARE(info.ikChainList.size(), static_cast<std::size_t>(info.ikChains));
        QVERIFY(!info.flexes.empty());
        QVERIFY(!r.model.flexShapes.empty());
        QCOMPARE(core::verifyInvariants(r.model), std::string());
        qInfo("%s: %zu rules (e.g. %s), %zu vertex animations -> %zu shapes, %zu IK chains",
              qPrintable(stem.section(u'/', -1)), info.flexRuleList.size(),
              info.flexRuleList.empty() ? "" : info.flexRuleList.back().expression.c_str(),
              info.flexes.size(), r.model.flexShapes.size(), info.ikChainList.size());
    }
}

QTEST_APPLESS_MAIN(TstMdlFaces)
#include "tst_mdl_faces.moc"
