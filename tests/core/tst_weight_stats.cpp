#include <cmath>

#include <QtTest/QtTest>

#include "core/pose/weight_stats.h"

using namespace rigscope::core;

namespace {

// One point per entry: {joints, weights, state}; parent field 0.
struct PointSpec {
    std::vector<JointIndex> joints;
    std::vector<float> weights;
    LinkState state = LinkState::List;
    JointIndex parent = 0;
};

Mesh meshOf(const std::vector<PointSpec>& points)
{
    Mesh m;
    m.influenceOffsets.push_back(0);
    for (const PointSpec& p : points) {
        m.pointPositions.push_back(Vec3::Zero());
        m.pointParents.push_back(p.parent);
        m.pointLinkState.push_back(p.state);
        m.influenceJoints.insert(m.influenceJoints.end(), p.joints.begin(), p.joints.end());
        m.influenceWeights.insert(m.influenceWeights.end(), p.weights.begin(), p.weights.end());
        m.influenceOffsets.push_back(std::uint32_t(m.influenceJoints.size()));
    }
    return m;
}

} // namespace

class TstWeightStats : public QObject {
    Q_OBJECT
private slots:
    void countsLimitsAndProblems()
    {
        const Mesh m = meshOf({
            {{}, {}, LinkState::Absent},                // 0 rigid
            {{1, 2}, {0.6f, 0.4f}},                     // 1 two links
            {{1, 2, 3, 4}, {0.4f, 0.3f, 0.2f, 0.1f}},   // 2 four: over 3
            {{1, 2, 3, 4}, {0.4f, 0.3f, 0.28f, 0.02f}}, // 3 four, one culled
            {{1, 2}, {0.0f, 0.0f}},                     // 4 zero sum
            {{1, 2}, {std::nanf(""), 1.0f}},            // 5 NaN
            {{7, 7}, {0.6f, 0.3f}},                     // 6 duplicate merged
            {{}, {}, LinkState::Absent, kNoJoint},      // 7 rigid, no parent
        });
        const WeightStats s = weightStats(m, 8, Profile::Source);
        QCOMPARE(s.limit, std::size_t(3));
        const std::vector<std::uint8_t> counts{1, 2, 4, 4, 0, 1, 1, 1};
        QCOMPARE(s.linkCount, counts);
        const std::vector<std::uint8_t> over{0, 0, 1, 0, 0, 0, 0, 0};
        QCOMPARE(s.overLimit, over);
        QCOMPARE(s.problem[0], WeightProblem::None);
        QCOMPARE(s.problem[4], WeightProblem::ZeroSum);
        QCOMPARE(s.problem[5], WeightProblem::NonFinite);
        // Rigid with no parent still binds to the fallback joint 0 when there is a skeleton.
        QCOMPARE(s.problem[7], WeightProblem::None);
        QCOMPARE(weightStats(m, 0, Profile::Source).problem[7], WeightProblem::Unweighted);

        // Weight change: point 2 loses bone 4 (0.1) and renormalises 0.9 -> 1:
        // |0.4-0.444| + |0.3-0.333| + |0.2-0.222| + 0.1 = 0.2.
        QVERIFY(std::abs(s.change[2] - 0.2f) < 1e-4f);
        QCOMPARE(s.change[0], 0.0f);
        QCOMPARE(s.change[1], 0.0f);
        QVERIFY(s.change[3] > 0.0f);
        QCOMPARE(s.change[5], 2.0f); // NaN compiled weights: clamped to the maximum

        // goldsrc keeps one link (the parent field): any point with two links is over.
        const WeightStats g = weightStats(m, 8, Profile::GoldSrc);
        QCOMPARE(g.limit, std::size_t(1));
        QCOMPARE(g.overLimit[1], std::uint8_t(1));
        QCOMPARE(g.overLimit[0], std::uint8_t(0));
        // cod: no limit, no compiled view.
        const WeightStats c = weightStats(m, 8, Profile::Cod);
        QCOMPARE(c.limit, std::size_t(0));
        QCOMPARE(c.overLimit[2], std::uint8_t(0));
        QCOMPARE(c.change[2], 0.0f);
    }
};

QTEST_APPLESS_MAIN(TstWeightStats)
#include "tst_weight_stats.moc"
