// Model builder (orderSkeleton, bindFromFirstFrame, deriveFlexShapes, appendPoint,
// MaterialInterner) and VTA -> reference matching (flex_match, FORMATS.md §1.6).
#include <chrono>

#include <QtTest/QtTest>

#include "core/build/flex_match.h"
#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

Model chain(const std::vector<JointIndex>& parents)
{
    Model m;
    for (std::size_t i = 0; i < parents.size(); ++i) {
        m.skeleton.addJoint("b" + std::to_string(i), parents[i], static_cast<std::int32_t>(10 + i),
                            {static_cast<std::uint32_t>(i + 1), 1, 0});
    }
    Animation a;
    a.jointCount = parents.size();
    a.appendFrame(0, {});
    for (std::size_t i = 0; i < parents.size(); ++i) {
        a.positions[i] = Vec3(static_cast<float>(i), 0, 0);
        a.explicitKey[i] = 1;
    }
    m.animations.push_back(a);
    return m;
}

// A reference with `n` triangles in a row, one corner per position.
Model strip(std::size_t n)
{
    Model m;
    m.skeleton.addJoint("root", kNoJoint, 0, {});
    MaterialInterner mats;
    for (std::size_t t = 0; t < n; ++t) {
        const std::uint32_t mat = mats.intern(m.mesh, "skin", {});
        for (int c = 0; c < 3; ++c) {
            const Vec3 p(static_cast<float>(t), static_cast<float>(c), 0);
            appendPoint(m.mesh, p, 0, LinkState::Absent, nullptr, nullptr, 0, {});
            m.mesh.cornerPoints.push_back(static_cast<std::uint32_t>(m.mesh.pointCount() - 1));
            m.mesh.cornerNormals.push_back(Vec3(0, 0, 1));
            m.mesh.cornerUvs.push_back(Vec2::Zero());
            m.mesh.cornerWhere.push_back({});
        }
        m.mesh.triangleMaterials.push_back(mat);
        m.mesh.triangleWhere.push_back({});
    }
    return m;
}

} // namespace

class TstModelBuilder : public QObject {
    Q_OBJECT

private slots:
    void orderKeepsSortedSkeleton();
    void orderMovesParentsFirst();
    void orderBreaksCycles();
    void bindFromFrame();
    void flexShapes();
    void pointsAndInterner();
    void matchDirect();
    void matchByPosition();
    void matchUnmatched();
    void matchIsNotQuadratic();
    void corpusCube();
    void corpusHarrison();
};

void TstModelBuilder::orderKeepsSortedSkeleton()
{
    Model m = chain({-1, 0, 1, 0});
    DiagnosticSink sink;
    const Model before = m;
    orderSkeleton(m, sink);
    QVERIFY(m == before);
    QVERIFY(sink.diagnostics().empty());
}

void TstModelBuilder::orderMovesParentsFirst()
{
    Model m = chain({2, -1, 1}); // b0 -> b2 -> b1
    appendPoint(m.mesh, Vec3::Zero(), 0, LinkState::Absent, nullptr, nullptr, 0, {});
    DiagnosticSink sink;
    sink.error(ids::kSkeletonUnknownParent, {}, "x", {ElementRef::Kind::Joint, 0});
    orderSkeleton(m, sink);
    QCOMPARE(verifyInvariants(m), std::string());
    QCOMPARE(m.skeleton.names, (std::vector<std::string>{"b1", "b2", "b0"}));
    QCOMPARE(m.skeleton.sourceIds, (std::vector<std::int32_t>{11, 12, 10}));
    QCOMPARE(m.skeleton.parents, (std::vector<JointIndex>{-1, 0, 1}));
    QCOMPARE(m.mesh.pointParents[0], 2);
    QCOMPARE(m.animations[0].positions[2].x(), 0.0f);
    QCOMPARE(m.animations[0].positions[0].x(), 1.0f);
    QCOMPARE(sink.diagnostics()[0].element.index, 2);
}

void TstModelBuilder::orderBreaksCycles()
{
    Model m = chain({1, 2, 0, -1});
    DiagnosticSink sink;
    orderSkeleton(m, sink);
    QCOMPARE(verifyInvariants(m), std::string());
    QCOMPARE(sink.count(Severity::Error), std::size_t(1));
    QCOMPARE(sink.diagnostics()[0].id, ids::kSkeletonCycle);
    QCOMPARE(m.skeleton.rootCount(), std::size_t(2));
}

void TstModelBuilder::bindFromFrame()
{
    Model m = chain({-1, 0});
    m.animations[0].rotations[1] = Vec3(0, 0, 1.5f);
    bindFromFirstFrame(m);
    QCOMPARE(m.skeleton.bindPositions[1], Vec3(1, 0, 0));
    QCOMPARE(m.skeleton.bindRotations[1], Vec3(0, 0, 1.5f));
    QCOMPARE(m.skeleton.bindKind, PoseKind::LocalEulerXYZ);
    m.animations.clear();
    bindFromFirstFrame(m);
    QCOMPARE(m.skeleton.bindPositions[1], Vec3(0, 0, 0));
}

void TstModelBuilder::flexShapes()
{
    Model m;
    VertexFrame base;
    base.ids = {0, 1};
    base.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0)};
    base.normals = {Vec3(0, 0, 1), Vec3(0, 0, 1)};
    base.lineWhere.resize(2);
    VertexFrame s1;
    s1.time = 1;
    s1.name = "smile";
    s1.ids = {1, 7};
    s1.positions = {Vec3(1, 1, 0), Vec3(5, 5, 5)};
    s1.normals = {Vec3(0, 1, 0), Vec3(0, 1, 0)};
    s1.lineWhere.resize(2);
    VertexFrame s2;
    s2.time = 2;
    m.vertexFrames = {base, s1, s2};
    deriveFlexShapes(m);
    QCOMPARE(m.flexShapes.size(), std::size_t(2));
    QCOMPARE(m.flexShapes[0].name, std::string("smile"));
    QCOMPARE(m.flexShapes[0].ids, (std::vector<std::int32_t>{1}));
    QCOMPARE(m.flexShapes[0].deltaPositions[0], Vec3(0, 1, 0));
    QCOMPARE(m.flexShapes[0].deltaNormals[0], Vec3(0, 1, -1));
    QCOMPARE(m.flexShapes[1].name, std::string("frame 2"));
}

void TstModelBuilder::pointsAndInterner()
{
    Mesh me;
    const JointIndex j[2] = {0, 1};
    const float w[2] = {0.25f, 0.75f};
    appendPoint(me, Vec3(1, 2, 3), 0, LinkState::List, j, w, 2, {});
    appendPoint(me, Vec3::Zero(), 1, LinkState::Zero, nullptr, nullptr, 0, {});
    QCOMPARE(me.influenceOffsets, (std::vector<std::uint32_t>{0, 2, 2}));
    QCOMPARE(me.influenceCount(0), 2u);
    QCOMPARE(me.influenceWeights[1], 0.75f);
    MaterialInterner mats;
    QCOMPARE(mats.intern(me, "a", {}), 0u);
    QCOMPARE(mats.intern(me, "b", {}), 1u);
    QCOMPARE(mats.intern(me, "a", {}), 0u);
    QCOMPARE(me.materials.size(), std::size_t(2));
}

void TstModelBuilder::matchDirect()
{
    const Model ref = strip(2);
    Model vta;
    VertexFrame base;
    for (std::int32_t c = 0; c < 6; ++c) {
        base.ids.push_back(c);
        base.positions.push_back(ref.mesh.pointPositions[static_cast<std::size_t>(c)] +
                                 Vec3(0, 0, 5e-5f));
        base.normals.push_back(Vec3(0, 0, 1));
        base.lineWhere.push_back({});
    }
    VertexFrame shape;
    shape.time = 1;
    shape.name = "up";
    shape.ids = {4};
    shape.positions = {base.positions[4] + Vec3(0, 0, 1)};
    shape.normals = {Vec3(0, 0, 1)};
    shape.lineWhere.resize(1);
    vta.vertexFrames = {base, shape};
    DiagnosticSink sink("x.vta");
    const FlexMatchResult r = matchFlex(vta, ref, &sink);
    QVERIFY(r.direct);
    QCOMPARE(r.unmatched, std::size_t(0));
    QVERIFY(sink.diagnostics().empty());
    QCOMPARE(r.shapes.size(), std::size_t(1));
    QCOMPARE(r.shapes[0].name, std::string("up"));
    QCOMPARE(r.shapes[0].corners, (std::vector<std::uint32_t>{4}));
    QVERIFY((r.shapes[0].deltaPositions[0] - Vec3(0, 0, 1)).norm() < 1e-6f);
}

void TstModelBuilder::matchByPosition()
{
    // A welded VTA: 4 positions shared by 6 corners (two triangles on a quad).
    Model ref = strip(2);
    ref.mesh.pointPositions[3] = ref.mesh.pointPositions[0]; // corner 3 shares corner 0's spot
    Model vta;
    VertexFrame base;
    const std::vector<Vec3> pos = {Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 2, 0.1f), Vec3(1, 1, 0),
                                   Vec3(1, 2, 0)};
    for (std::size_t i = 0; i < pos.size(); ++i) {
        base.ids.push_back(static_cast<std::int32_t>(i));
        base.positions.push_back(pos[i]);
        base.normals.push_back(Vec3(0, 0, 1));
        base.lineWhere.push_back({});
    }
    VertexFrame shape;
    shape.time = 1;
    shape.ids = {0, 2};
    shape.positions = {Vec3(0, 0, 1), Vec3(0, 2, 0.1f)};
    shape.normals = {Vec3(0, 0, 1), Vec3(0, 0, 1)};
    shape.lineWhere.resize(2);
    vta.vertexFrames = {base, shape};
    DiagnosticSink sink("x.vta");
    const FlexMatchResult r = matchFlex(vta, ref, &sink);
    QVERIFY(!r.direct);
    QCOMPARE(r.unmatched, std::size_t(0));
    // Base 0 -> corners 0 and 3; base 2 (0.1 off) -> nearest corner 2.
    QCOMPARE(std::vector<std::uint32_t>(r.baseCorners.begin() + r.baseOffsets[0],
                                        r.baseCorners.begin() + r.baseOffsets[1]),
             (std::vector<std::uint32_t>{0, 3}));
    QCOMPARE(r.baseCorners[r.baseOffsets[2]], 2u);
    QCOMPARE(r.shapes[0].corners, (std::vector<std::uint32_t>{0, 3, 2}));
    QCOMPARE(r.shapes[0].name, std::string("frame 1"));
    QCOMPARE(sink.diagnostics().size(), std::size_t(1));
    QCOMPARE(sink.diagnostics()[0].id, ids::kXrefVtaVertexCount);
}

void TstModelBuilder::matchUnmatched()
{
    const Model ref = strip(1);
    Model vta;
    VertexFrame base;
    base.ids = {0, 1};
    base.positions = {Vec3(0, 0, 0), Vec3(0, 0, 0.2f)};
    base.normals = {Vec3(0, 0, 1), Vec3(0, 0, 1)};
    base.lineWhere = {{3, 1, 0}, {4, 1, 0}};
    vta.vertexFrames = {base};
    DiagnosticSink sink("x.vta");
    const FlexMatchResult r = matchFlex(vta, ref, &sink);
    QCOMPARE(r.unmatched, std::size_t(1));
    QCOMPARE(r.firstUnmatched, std::size_t(1));
    const Diagnostic* d = nullptr;
    for (const Diagnostic& x : sink.diagnostics()) {
        if (x.id == ids::kFlexUnmatchedVertices) {
            d = &x;
        }
    }
    QVERIFY(d);
    QCOMPARE(d->message,
             std::string("1 of 2 VTA vertices (50.0%) match no mesh vertex within 0.15; dropped"));
    QCOMPARE(d->where.line, 4u);
}

void TstModelBuilder::matchIsNotQuadratic()
{
    // 300k corners against 100k base vertices, all off by 0.01: a grid, not n*m.
    const Model ref = strip(100000);
    Model vta;
    VertexFrame base;
    for (std::size_t i = 0; i < ref.mesh.pointCount(); i += 3) {
        base.ids.push_back(static_cast<std::int32_t>(base.ids.size()));
        base.positions.push_back(ref.mesh.pointPositions[i] + Vec3(0.01f, 0, 0));
        base.normals.push_back(Vec3(0, 0, 1));
        base.lineWhere.push_back({});
    }
    vta.vertexFrames = {base};
    const auto t0 = std::chrono::steady_clock::now();
    const FlexMatchResult r = matchFlex(vta, ref);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(r.unmatched, std::size_t(0));
    QCOMPARE(r.baseCorners.size(), base.ids.size());
    QVERIFY2(s < 5.0, qPrintable(QString::number(s)));
}

void TstModelBuilder::corpusCube()
{
    const QString dir = test::corpusDir();
    if (dir.isEmpty()) {
        QSKIP("corpus not present");
    }
    ReadResult ref = test::readPath(dir + QStringLiteral("/smd/bst_Cube_NoArmature.smd"));
    ReadResult vta = test::readPath(dir + QStringLiteral("/vta/bst_Cube_NoArmature.vta"));
    QVERIFY(ref.hasModel && vta.hasModel);
    DiagnosticSink sink;
    const FlexMatchResult r = matchFlex(vta.model, ref.model, &sink);
    QVERIFY(r.direct);
    QCOMPARE(r.unmatched, std::size_t(0));
    QCOMPARE(r.baseCorners.size(), std::size_t(36));
    QVERIFY(sink.diagnostics().empty());
    QCOMPARE(r.shapes.size(), std::size_t(1));
    QCOMPARE(r.shapes[0].name, std::string("Key 1"));
}

void TstModelBuilder::corpusHarrison()
{
    const QString dir = test::corpusDir();
    if (dir.isEmpty()) {
        QSKIP("corpus not present");
    }
    ReadResult ref =
        test::readPath(dir + QStringLiteral("/smd/pathos_harrison_head_reference.smd"));
    ReadResult vta =
        test::readPath(dir + QStringLiteral("/vta/pathos_harrison_head_expressions.vta"));
    QVERIFY(ref.hasModel && vta.hasModel);
    QCOMPARE(vta.model.vertexFrames.front().ids.size(), std::size_t(911));
    DiagnosticSink sink;
    const FlexMatchResult r = matchFlex(vta.model, ref.model, &sink);
    QVERIFY(!r.direct);
    QCOMPARE(r.unmatched, std::size_t(0));
    QCOMPARE(r.baseOffsets.size(), std::size_t(912));
    QVERIFY(r.baseCorners.size() >= 911);
    QCOMPARE(r.shapes.size(), vta.model.vertexFrames.size() - 1);
    QCOMPARE(sink.diagnostics().size(), std::size_t(1));
    QCOMPARE(sink.diagnostics()[0].id, ids::kXrefVtaVertexCount);
}

QTEST_APPLESS_MAIN(TstModelBuilder)
#include "tst_model_builder.moc"
