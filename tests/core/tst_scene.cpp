// Issue 28: core's scene pipeline (core/ops/scene.h, core/pose/scene_evaluator.h): the one
// reference rule, the animations and shapes a scene lists, the diagnostic -> element mapping,
// and the evaluator's morph (stereo split, domination) and skinning (weights divided by their
// sum).
#include <QtTest/QtTest>

#include <cmath>
#include <limits>

#include "core/formats/registry.h"
#include "core/ops/scene.h"
#include "core/pose/skin_job.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// Two bones along +X; a triangle whose first vertex is weighted 0.25 + 0.25 (sum 0.5) to both.
constexpr const char* kRef = R"(version 1
nodes
0 "root" -1
1 "arm" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 0
end
triangles
skin
0 2 0 0 0 0 1 0 0 2 0 0.25 1 0.25
0 2 1 0 0 0 1 0 1 1 1 1
0 2 0 1 0 0 1 1 0 1 1 1
end
)";

// The arm turned 90 degrees about Z.
constexpr const char* kAnim = R"(version 1
nodes
0 "root" -1
1 "arm" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 1.5707963267948966
end
)";

// Another rig: "arm" under "hips", and a bone the first rig lacks.
constexpr const char* kOther = R"(version 1
nodes
0 "hips" -1
1 "arm" 0
2 "tail" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 0
2 0 1 0 0 0 0
end
triangles
skin
0 0 0 0 0 0 1 0 0 1 0 1
0 0 1 0 0 0 1 0 1 1 2 1
0 0 0 1 0 0 1 1 0 1 2 1
end
)";

// An animation of the other rig.
constexpr const char* kOtherAnim = R"(version 1
nodes
0 "hips" -1
1 "arm" 0
2 "tail" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 0
2 0 1 0 0 0 0
end
)";

std::shared_ptr<const core::Model> read(const char* text, const char* name)
{
    core::ReadContext ctx;
    ctx.fileName = name;
    core::ReadResult r = core::readAny(text, ctx);
    return r.hasModel ? std::make_shared<const core::Model>(std::move(r.model)) : nullptr;
}

} // namespace

class TstScene : public QObject {
    Q_OBJECT

private slots:
    void referenceIsTheFirstFileWithTriangles()
    {
        const auto ref = read(kRef, "ref.smd");
        const auto anim = read(kAnim, "walk.smd");
        QVERIFY(ref && anim);
        QCOMPARE(core::chooseReference({{"walk.smd", anim, {}}, {"ref.smd", ref, {}}}), 1);
        QCOMPARE(core::chooseReference({{"walk.smd", anim, {}}}), 0);
        QCOMPARE(core::chooseReference({{"gone.smd", nullptr, {}}}), -1);
    }

    // docs/cli.md "Which reference": the one rule `check`, `info`, the scene and the window's
    // folder attach share.
    void pairingFollowsTheOneRule()
    {
        const auto ref = read(kRef, "ref.smd");
        const auto anim = read(kAnim, "walk.smd");
        const auto other = read(kOther, "other.smd");
        QVERIFY(ref && anim && other);
        using V = std::vector<int>;
        // The reference itself wants none; an animation named with it pairs.
        QCOMPARE(core::pairReferences({{"d/ref.smd", ref, {}}, {"d/walk.smd", anim, {}}}),
                 (V{-1, 0}));
        // Most shared bones wins over the first given; the same stem wins over both.
        QCOMPARE(
            core::pairReferences(
                {{"d/other.smd", other, {}}, {"d/ref.smd", ref, {}}, {"d/walk.smd", anim, {}}}),
            (V{-1, -1, 1}));
        QCOMPARE(core::pairReferences(
                     {{"d/ref.smd", ref, {}}, {"d/walk.smd", other, {}}, {"d/walk.smd", anim, {}}}),
                 (V{-1, -1, 1}));
        // Found in a folder: half of its bones under the same parents, else nothing. "other"'s
        // one bone named "arm" sits under another parent.
        QCOMPARE(
            core::pairReferences({{"d/other.smd", other, {}}, {"d/walk.smd", anim, {}, false}}),
            (V{-1, -1}));
        QCOMPARE(core::pairReferences({{"d/other.smd", other, {}}, {"d/walk.smd", anim, {}, true}}),
                 (V{-1, 0}));
        // Another folder: only a named file looks there, and only at named references.
        QCOMPARE(core::pairReferences({{"a/ref.smd", ref, {}}, {"b/walk.smd", anim, {}}}),
                 (V{-1, 0}));
        QCOMPARE(core::pairReferences({{"a/ref.smd", ref, {}}, {"b/walk.smd", anim, {}, false}}),
                 (V{-1, -1}));
    }

    // A scene shows the first reference and only what pairs with it.
    void sceneBindsOnlyWhatPairsWithItsReference()
    {
        const core::Scene s =
            core::assembleScene({{"d/ref.smd", read(kRef, "ref.smd"), {}},
                                 {"d/other.smd", read(kOther, "other.smd"), {}},
                                 {"d/walk.smd", read(kAnim, "walk.smd"), {}},
                                 {"d/other_walk.smd", read(kOtherAnim, "other_walk.smd"), {}}},
                                core::Profile::Source);
        QCOMPARE(s.reference, 0);
        QCOMPARE(s.animations.size(), std::size_t(1));
        QCOMPARE(s.animations[0].file, 2);
    }

    void sceneListsAnimationsByFileName()
    {
        const core::Scene s = core::assembleScene({{"dir/ref.smd", read(kRef, "ref.smd"), {}},
                                                   {"dir/walk.fast.smd", read(kAnim, "w"), {}}},
                                                  core::Profile::Source);
        QCOMPARE(s.reference, 0);
        QCOMPARE(s.animations.size(), std::size_t(1)); // the reference's one frame is its bind pose
        QCOMPARE(s.animations[0].name, std::string("walk.fast"));
        QCOMPARE(s.animations[0].file, 1);
        QCOMPARE(s.weightedVertexCounts, (std::vector<int>{1, 3}));
        QCOMPARE(s.materialTriangleCounts, (std::vector<int>{1}));
    }

    void diagnosticElementsMapToTheReference()
    {
        const core::Scene s = core::assembleScene(
            {{"ref.smd", read(kRef, "ref.smd"), {}}, {"walk.smd", read(kAnim, "w"), {}}},
            core::Profile::Source);
        using K = core::SceneElement::Kind;
        using EK = core::ElementRef::Kind;
        // A bone of the animation maps by name.
        QCOMPARE(int(s.elementFor(1, {EK::Joint, 1}).kind), int(K::Joint));
        QCOMPARE(s.elementFor(1, {EK::Joint, 1}).index, 1);
        // An SMD vertex is corner 3t+c.
        const core::SceneElement v = s.elementFor(0, {EK::Vertex, 2});
        QCOMPARE(int(v.kind), int(K::Triangle));
        QCOMPARE(v.index, 0);
        QCOMPARE(v.corner, 2);
        // A frame of the animation selects it.
        const core::SceneElement f = s.elementFor(1, {EK::Frame, 0});
        QCOMPARE(int(f.kind), int(K::Frame));
        QCOMPARE(f.index, 0);
        // Out of range: nothing.
        QCOMPARE(int(s.elementFor(0, {EK::Material, 5}).kind), int(K::None));
    }

    // docs/architecture.md "Weights": a vertex's weights are divided by their sum.
    void skinningDividesByTheWeightSum()
    {
        const core::SkinMatrix twice = (core::Xform(Eigen::Translation3f(1, 0, 0))).affine();
        const std::vector<core::SkinMatrix> skin{twice, twice};
        const std::vector<std::uint32_t> offsets{0, 2};
        const std::vector<core::JointIndex> joints{0, 1};
        const std::vector<float> weights{0.25f, 0.25f};
        const std::vector<core::Vec3> in{core::Vec3(2, 0, 0)};
        std::vector<core::Vec3> out(1);
        std::vector<core::Mat3> linear(1);
        core::SkinJob job;
        job.skin = skin;
        job.offsets = offsets;
        job.joints = joints;
        job.weights = weights;
        job.positions = in;
        job.outPositions = out;
        job.outLinear = linear;
        QVERIFY(job.run());
        QVERIFY(out[0].isApprox(core::Vec3(3, 0, 0))); // not (1.5, 0, 0)
        QVERIFY(linear[0].isApprox(core::Mat3::Identity()));
    }

    void evaluatorSkinsAndTurnsNormals()
    {
        const core::Scene s = core::assembleScene(
            {{"ref.smd", read(kRef, "ref.smd"), {}}, {"walk.smd", read(kAnim, "w"), {}}},
            core::Profile::Source);
        QVERIFY(s.evaluator);
        const core::Animation& a = s.animation(0);
        core::PoseBuffers buffers;
        buffers.resize(2, a.jointCount, 0, false, 0);
        QVERIFY(core::evaluatePose(s.evaluator->rig(), &a, &s.animations[0].binding,
                                   core::frameAtIndex(a, 0), core::Interpolation::Stepped,
                                   buffers));
        core::SceneFrame frame;
        s.evaluator->evaluate(buffers.model, {}, {}, frame);
        QVERIFY(frame.posed);
        QCOMPARE(frame.positions.size(), std::size_t(3));
        // Point 1 (weight 1 on the arm at x = 1): (2, 1, 0) turns about (1, 0, 0) to (0, 1, 0).
        QVERIFY((frame.positions[1] - core::Vec3(0, 1, 0)).norm() < 1e-5f);
        // Point 0, half weight on each bone (sum 0.5, divided by it): halfway, (1.5, 0.5, 0).
        QVERIFY((frame.positions[0] - core::Vec3(1.5f, 0.5f, 0)).norm() < 1e-5f);
        // The normal (0, 0, 1) is along the turn's axis: unchanged and unit.
        QVERIFY((frame.cornerNormals[1] - core::Vec3(0, 0, 1)).norm() < 1e-5f);
        // Rest pose: the written positions.
        s.evaluator->evaluate({}, {}, {}, frame);
        QVERIFY(!frame.posed);
        QVERIFY(frame.positions[1].isApprox(core::Vec3(2, 1, 0)));
    }

    // A DMX-like flex file: two shapes, a stereo split per point, one dominating the other.
    void morphAppliesTheStereoSplitAndDomination()
    {
        auto ref = read(kRef, "ref.smd");
        QVERIFY(ref);
        auto flex = std::make_shared<core::Model>();
        flex->pointBalance = {0.0f, 1.0f, 0.5f}; // point 0 all left, point 1 all right
        flex->flexDominators.push_back({{"a"}, {"b"}, {}});
        core::FlexSet set;
        set.model = flex;
        set.targets.names = {"a", "b"};
        set.targets.shapeOffsets = {0, 3, 4};
        set.targets.targets = {0, 1, 2, 2};
        set.targets.deltaPositions = {core::Vec3(0, 0, 1), core::Vec3(0, 0, 1), core::Vec3(0, 0, 1),
                                      core::Vec3(0, 0, 10)};
        const core::SceneEvaluator ev(ref, {set}, core::Profile::Source);
        core::FlexSetting setting;
        setting.left = {0.2f, 1.0f};
        setting.right = {0.8f, std::numeric_limits<float>::quiet_NaN()};
        const std::vector<core::Vec3> off = ev.morphOffsets(setting);
        QCOMPARE(off.size(), std::size_t(3));
        QVERIFY(std::abs(off[0].z() - 0.2f) < 1e-6f); // left side
        QVERIFY(std::abs(off[1].z() - 0.8f) < 1e-6f); // right side
        // Point 2: a at balance 0.5 (0.5) plus b, dominated by a: 10 * (1 - a) per side.
        const std::vector<core::SideWeights> w = ev.shapeWeights(setting);
        QVERIFY(std::abs(w[1].left - 0.8f) < 1e-6f);
        QVERIFY(std::abs(w[1].right - 0.2f) < 1e-6f);
        QVERIFY(std::abs(off[2].z() - (0.5f + 10.0f * 0.5f)) < 1e-5f);
        // Every value zero: no offsets at all.
        QVERIFY(ev.morphOffsets(core::FlexSetting{{0.0f, 0.0f}, {}}).empty());
    }
};

QTEST_GUILESS_MAIN(TstScene)
#include "tst_scene.moc"
