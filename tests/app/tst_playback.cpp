// The playhead (app/document/playback): frames clamped, the fraction between frames only while
// interpolating, what each change reports, and the pose it evaluates.
#include <QtTest/QtTest>

#include "app/document/playback.h"
#include "core/model/model.h"
#include "core/pose/animation_binding.h"
#include "core/pose/pose_rig.h"

using namespace rigscope;

class TstPlayback : public QObject {
    Q_OBJECT
private slots:
    void framesAreClamped()
    {
        app::Playback p;
        QVERIFY(!p.setAnimation(-1)); // the rest pose already
        QVERIFY(p.setAnimation(2));
        QVERIFY(p.setFrame(50, 10));
        QCOMPARE(p.frame(), 9);
        QVERIFY(!p.setFrame(12, 10)); // still the last frame: nothing changed
        QVERIFY(p.setFrame(-3, 10));
        QCOMPARE(p.frame(), 0);
        QVERIFY(p.setAnimation(1)); // another animation starts at its first frame
        QCOMPARE(p.frame(), 0);
    }

    void fractionOnlyWhileInterpolating()
    {
        app::Playback p;
        p.setAnimation(0);
        QVERIFY(p.setPlayhead(3.75, 10));
        QCOMPARE(p.playhead(), 3.0); // stepped: whole frames
        QVERIFY(!p.setPlayhead(3.2, 10));
        bool poseChanged = true;
        QVERIFY(p.setInterpolate(true, poseChanged));
        QVERIFY(!poseChanged);
        QVERIFY(p.setPlayhead(3.75, 10));
        QCOMPARE(p.playhead(), 3.75);
        QVERIFY(p.setPlayhead(std::numeric_limits<double>::quiet_NaN(), 10));
        QCOMPARE(p.playhead(), 0.0);
        p.setPlayhead(20.5, 10); // past the end: the last frame, no fraction
        QCOMPARE(p.playhead(), 9.0);
        p.setPlayhead(4.5, 10);
        QVERIFY(p.setInterpolate(false, poseChanged));
        QVERIFY(poseChanged); // back onto frame 4
        QCOMPARE(p.playhead(), 4.0);
        QVERIFY(!p.setInterpolate(false, poseChanged));
        p.restore(3, 7);
        QCOMPARE(p.animation(), 3);
        QCOMPARE(p.playhead(), 7.0);
    }

    void poseAndBoundsFollowTheKeys()
    {
        // One root bone moving 10 units along X per frame over 3 frames.
        core::Model m;
        m.skeleton.addJoint("root", core::kNoJoint, 0, {1, 1, 0});
        core::Animation a;
        a.kind = core::PoseKind::LocalEulerXYZ;
        a.jointCount = 1;
        for (int f = 0; f < 3; ++f) {
            const std::size_t of = a.appendFrame(double(f), {std::uint32_t(5 + f), 1, 0});
            a.positions[a.key(of, 0)] = core::Vec3(10.0f * float(f), 0, 0);
        }
        const core::PoseRig rig = core::makePoseRig(m.skeleton);
        const core::AnimationBinding binding = core::bindAnimation(m.skeleton, m.skeleton, a.kind);
        app::Playback p;
        p.setAnimation(0);
        bool changed = false;
        p.setInterpolate(true, changed);
        p.setPlayhead(1.5, 3);
        const std::vector<Eigen::Affine3f> pose = p.pose(rig, a, binding);
        QCOMPARE(pose.size(), std::size_t(1));
        QVERIFY(std::abs(pose[0].translation().x() - 15.0f) < 1e-4f);
        core::Bounds mesh;
        mesh.valid = true;
        mesh.min = core::Vec3(-1, -2, 0);
        mesh.max = core::Vec3(1, 2, 3);
        const core::Bounds b = app::Playback::bounds(rig, a, binding, 3, mesh);
        QVERIFY(b.valid);
        QVERIFY(std::abs(b.min.x() + 1.0f) < 1e-4f);  // frame 0, padded by the mesh
        QVERIFY(std::abs(b.max.x() - 21.0f) < 1e-4f); // frame 2
        QVERIFY(std::abs(b.max.z() - 3.0f) < 1e-4f);
    }
};

QTEST_GUILESS_MAIN(TstPlayback)
#include "tst_playback.moc"
