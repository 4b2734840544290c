#include <cmath>

#include <QtTest/QtTest>

#include "core/pose/effective_weights.h"

using namespace rigscope::core;

namespace {

using Links = std::vector<Link>;

// Raw links in the notation of CHECKS.md section 5: {bone, weight} pairs; empty = `links 0`.
RawLinks raw(const std::vector<JointIndex>& joints, const std::vector<float>& weights,
             JointIndex parent = 0)
{
    RawLinks r;
    r.joints = joints;
    r.weights = weights;
    r.state = joints.empty() ? LinkState::Zero : LinkState::List;
    r.parent = parent;
    return r;
}

QByteArray show(const Links& links)
{
    QByteArray s;
    for (const Link& l : links) {
        s += QByteArray::number(l.joint) + ':' + QByteArray::number(double(l.weight), 'g', 6) + ' ';
    }
    return s;
}

bool same(const Links& a, const Links& b, float tol = 5e-4f)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].joint != b[i].joint) {
            return false;
        }
        if (std::isnan(b[i].weight) ? !std::isnan(a[i].weight)
                                    : std::abs(a[i].weight - b[i].weight) > tol) {
            return false;
        }
    }
    return true;
}

const float kNan = std::nanf("");

} // namespace

Q_DECLARE_METATYPE(std::vector<JointIndex>)
Q_DECLARE_METATYPE(std::vector<float>)
Q_DECLARE_METATYPE(Links)

class TstEffectiveWeights : public QObject {
    Q_OBJECT
private slots:
    // Every row of the CHECKS.md section 5 table (compiled, source).
    void sourceTable_data()
    {
        QTest::addColumn<std::vector<JointIndex>>("joints");
        QTest::addColumn<std::vector<float>>("weights");
        QTest::addColumn<JointIndex>("parent");
        QTest::addColumn<Links>("expected");
        QTest::newRow("0 (parent 4)")
            << std::vector<JointIndex>{} << std::vector<float>{} << 4 << Links{{4, 1.0f}};
        QTest::newRow("2 7 0.6 7 0.3") << std::vector<JointIndex>{7, 7}
                                       << std::vector<float>{0.6f, 0.3f} << 0 << Links{{7, 1.0f}};
        QTest::newRow("3 1 0.5 2 0.46 3 0.04")
            << std::vector<JointIndex>{1, 2, 3} << std::vector<float>{0.5f, 0.46f, 0.04f} << 0
            << Links{{1, 0.521f}, {2, 0.479f}};
        QTest::newRow("4 1 0.4 2 0.3 3 0.2 4 0.1")
            << std::vector<JointIndex>{1, 2, 3, 4} << std::vector<float>{0.4f, 0.3f, 0.2f, 0.1f}
            << 0 << Links{{1, 0.444f}, {2, 0.333f}, {3, 0.222f}};
        QTest::newRow("2 1 0.03 2 0.02")
            << std::vector<JointIndex>{1, 2} << std::vector<float>{0.03f, 0.02f} << 0
            << Links{{1, 1.0f}};
        QTest::newRow("2 1 0.0 2 0.0") << std::vector<JointIndex>{1, 2}
                                       << std::vector<float>{0.0f, 0.0f} << 0 << Links{{1, 1.0f}};
        QTest::newRow("2 1 -0.5 2 1.5") << std::vector<JointIndex>{1, 2}
                                        << std::vector<float>{-0.5f, 1.5f} << 0 << Links{{2, 1.0f}};
        QTest::newRow("2 1 nan 2 1.0")
            << std::vector<JointIndex>{1, 2} << std::vector<float>{kNan, 1.0f} << 0
            << Links{{1, kNan}, {2, kNan}};
        // beyond the table: ties keep file order; sorting is descending
        QTest::newRow("ties keep order")
            << std::vector<JointIndex>{5, 3, 9} << std::vector<float>{0.25f, 0.5f, 0.25f} << 0
            << Links{{3, 0.5f}, {5, 0.25f}, {9, 0.25f}};
    }
    void sourceTable()
    {
        QFETCH(std::vector<JointIndex>, joints);
        QFETCH(std::vector<float>, weights);
        QFETCH(JointIndex, parent);
        QFETCH(Links, expected);
        Links out;
        compiledSourceLinks(raw(joints, weights, parent), 0, out);
        QVERIFY2(same(out, expected), show(out) + "!= " + show(expected));
        // the dispatcher agrees for source, source256 and auto
        for (Profile p : {Profile::Source, Profile::Source256, Profile::Auto}) {
            Links via;
            effectiveLinks(raw(joints, weights, parent), p, WeightView::Compiled, 0, via);
            QVERIFY(same(via, expected));
        }
    }

    void authored_data()
    {
        QTest::addColumn<std::vector<JointIndex>>("joints");
        QTest::addColumn<std::vector<float>>("weights");
        QTest::addColumn<JointIndex>("parent");
        QTest::addColumn<Links>("expected");
        QTest::newRow("links 0 -> parent")
            << std::vector<JointIndex>{} << std::vector<float>{} << 4 << Links{{4, 1.0f}};
        QTest::newRow("merged, divided by sum")
            << std::vector<JointIndex>{7, 2, 7} << std::vector<float>{0.2f, 0.4f, 0.2f} << 0
            << Links{{7, 0.5f}, {2, 0.5f}};
        QTest::newRow("no cull, no clip")
            << std::vector<JointIndex>{1, 2, 3, 4, 5}
            << std::vector<float>{0.4f, 0.3f, 0.2f, 0.06f, 0.04f} << 0
            << Links{{1, 0.4f}, {2, 0.3f}, {3, 0.2f}, {4, 0.06f}, {5, 0.04f}};
        QTest::newRow("nan and negative left out")
            << std::vector<JointIndex>{1, 2, 3} << std::vector<float>{kNan, -0.5f, 2.0f} << 0
            << Links{{3, 1.0f}};
        QTest::newRow("all zero -> parent")
            << std::vector<JointIndex>{1, 2} << std::vector<float>{0.0f, 0.0f} << 6
            << Links{{6, 1.0f}};
    }
    void authored()
    {
        QFETCH(std::vector<JointIndex>, joints);
        QFETCH(std::vector<float>, weights);
        QFETCH(JointIndex, parent);
        QFETCH(Links, expected);
        Links out;
        authoredLinks(raw(joints, weights, parent), 0, out);
        QVERIFY2(same(out, expected, 1e-6f), show(out) + "!= " + show(expected));
        // cod has only the authored view, even when "compiled" is asked for
        Links cod;
        effectiveLinks(raw(joints, weights, parent), Profile::Cod, WeightView::Compiled, 0, cod);
        QVERIFY(same(cod, expected, 1e-6f));
    }

    void goldsrcUsesParentField()
    {
        const std::vector<JointIndex> joints{1, 2};
        const std::vector<float> weights{0.5f, 0.5f};
        Links out;
        effectiveLinks(raw(joints, weights, 3), Profile::GoldSrc, WeightView::Compiled, 0, out);
        QVERIFY(same(out, Links{{3, 1.0f}}));
        // the authored view of the same vertex reads the links
        effectiveLinks(raw(joints, weights, 3), Profile::GoldSrc, WeightView::Authored, 0, out);
        QVERIFY(same(out, Links{{1, 0.5f}, {2, 0.5f}}));
    }

    void meshInfluencesAndRemap()
    {
        Mesh m;
        m.pointPositions.assign(3, Vec3::Zero());
        m.pointParents = {2, 0, kNoJoint};
        m.pointLinkState = {LinkState::Absent, LinkState::List, LinkState::Zero};
        m.influenceOffsets = {0, 0, 4, 4};
        m.influenceJoints = {1, 2, 3, 4};
        m.influenceWeights = {0.4f, 0.3f, 0.2f, 0.1f};
        const Influences compiled =
            effectiveInfluences(m, 5, Profile::Source, WeightView::Compiled);
        QCOMPARE(compiled.offsets, (std::vector<std::uint32_t>{0, 1, 4, 5}));
        QCOMPARE(compiled.joints, (std::vector<JointIndex>{2, 1, 2, 3, 0}));
        QCOMPARE(compiled.maxLinks(), std::size_t{3});
        const Influences authored =
            effectiveInfluences(m, 5, Profile::Source, WeightView::Authored);
        QCOMPARE(authored.maxLinks(), std::size_t{4});
        const std::vector<std::uint32_t> vertexPoint{1, 1, 0};
        const Influences perVertex = remapInfluences(compiled, vertexPoint);
        QCOMPARE(perVertex.offsets, (std::vector<std::uint32_t>{0, 3, 6, 7}));
        QCOMPARE(perVertex.joints.back(), JointIndex{2});
    }
};

QTEST_APPLESS_MAIN(TstEffectiveWeights)
#include "tst_effective_weights.moc"
