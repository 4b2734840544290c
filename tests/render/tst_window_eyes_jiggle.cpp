// Issue 32 in the window: the eyes ride the animated head, the eyes' target marker is dragged
// in the viewport (the Flex dock's sliders follow), and a Ctrl+drag of a bone swings its
// jiggle bone, which then settles. Mouse events are synthesized on the Qt3D window.
#include <QtTest/QtTest>
#include <QtGui/QAction>
#include <QtWidgets/QSlider>

#include "app/document/document.h"
#include "app/widgets/viewport_widget.h"
#include "app/widgets/window_grab.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

QString fixture(const char* rel)
{
    return test::fixturesDir() + QLatin1Char('/') + QLatin1String(rel);
}

bool activate(app::MainWindow& w)
{
    if (!QTest::qWaitForWindowExposed(&w)) {
        return false;
    }
    w.activateWindow();
    return true;
}

// How far (degrees) the jiggle bone is turned from where its parent's pose wants it (the rest
// orientation: the drag only moves the root).
float tailAngle(const render::Viewport& vp, const Eigen::Matrix3f& goal)
{
    const Eigen::Matrix3f r = goal.transpose() * vp.scene()->jointWorld()[1].linear();
    return Eigen::AngleAxisf(r).angle() * 57.29578f;
}

} // namespace

class TstWindowEyesJiggle : public QObject {
    Q_OBJECT
private slots:
    // The head nods 30 degrees down and turns 20 degrees at frame 2: the eyes drawn follow it
    // (centre, look direction and up turned with the head bone).
    void eyesRideTheAnimatedHead()
    {
        test::TestWindow win(QStringLiteral("tst_eyes_ride.ini"), QSize(1000, 700));
        QVERIFY(activate(win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({fixture("qc/face/face.qc")});
        QVERIFY(doc->waitForLoaded());
        render::Viewport* vp = win.w.viewportWidget()->viewport();
        QTRY_VERIFY(vp->eyeScene() && vp->eyeScene()->eyes().size() == 2);
        const render::EyeDrawing rest = vp->eyeScene()->eyes()[0];
        QVERIFY((rest.centre - QVector3D(-1, -4, 10)).length() < 1e-5f);
        const int nod = doc->findAnimation(QStringLiteral("nod"));
        QVERIFY(nod >= 0);
        doc->setCurrentAnimation(nod);
        doc->setCurrentFrame(2);
        const Eigen::Affine3f head =
            Eigen::Affine3f(Eigen::AngleAxisf(0.349066f, Eigen::Vector3f::UnitZ()) *
                            Eigen::AngleAxisf(-0.523599f, Eigen::Vector3f::UnitX()));
        const Eigen::Vector3f c = head * Eigen::Vector3f(-1, -4, 10);
        QTRY_VERIFY((vp->eyeScene()->eyes()[0].centre - QVector3D(c.x(), c.y(), c.z())).length() <
                    1e-3f);
        const render::EyeDrawing posed = vp->eyeScene()->eyes()[0];
        const Eigen::Vector3f f =
            head.linear() * Eigen::Vector3f(rest.forward.x(), rest.forward.y(), rest.forward.z());
        QVERIFY((posed.forward - QVector3D(f.x(), f.y(), f.z())).length() < 1e-3f);
        const Eigen::Vector3f u =
            head.linear() * Eigen::Vector3f(rest.up.x(), rest.up.y(), rest.up.z());
        QVERIFY((posed.up - QVector3D(u.x(), u.y(), u.z())).length() < 1e-3f);
        // A fixed target: as the head nods, the eye's pitch relative to it changes and the lid
        // with it (lid_down, shape 3).
        core::QcEyeTarget t;
        t.set = true;
        t.point = core::Vec3(-1, -104, 10); // level, straight ahead of the rest head
        doc->setEyeTarget(t);
        doc->setCurrentFrame(0);
        (void)doc->currentPose();
        const float lidRest = doc->flexWeight(3);
        doc->setCurrentFrame(2);
        (void)doc->currentPose();
        QVERIFY2(std::fabs(doc->flexWeight(3) - lidRest) > 0.1f,
                 qPrintable(QStringLiteral("%1 %2").arg(lidRest).arg(doc->flexWeight(3))));
    }

    // The target marker dragged with the mouse: the target follows the cursor in the view
    // plane, the eyes turn to it, and the Flex dock's sliders show the new direction.
    void dragTheTargetMarker()
    {
        test::TestWindow win(QStringLiteral("tst_eyes_drag.ini"), QSize(1000, 700));
        QVERIFY(activate(win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({fixture("qc/face/face.qc")});
        QVERIFY(doc->waitForLoaded());
        render::Viewport* vp = win.w.viewportWidget()->viewport();
        QTRY_VERIFY(vp->eyeScene() && vp->eyeHandle());
        vp->setPreset(render::CameraPreset::Front);
        vp->frameAll();
        render::OrbitCamera far = vp->camera3d(); // the marker in front of the face in view
        far.distance *= 5;
        vp->setCamera3d(far);
        QVERIFY(!doc->eyeTarget().set);
        // No target yet: the marker waits straight ahead of the eyes (30 radii, at least 10).
        const QVector3D handle = *vp->eyeHandle();
        QVERIFY(std::fabs(handle.x()) < 1e-3f && std::fabs(handle.z() - 10) < 1e-3f);
        QVERIFY(std::fabs(handle.y() - (-4 - 15)) < 1e-3f);
        const QPoint at = vp->screenPoint(handle).toPoint();
        QVERIFY(QRect(0, 0, vp->width(), vp->height()).contains(at));
        const render::OrbitCamera cam = vp->camera3d();
        const QPoint to = at + QPoint(60, 40); // right and down on screen
        QTest::mousePress(vp, Qt::LeftButton, {}, at);
        QTest::mouseMove(vp, at + QPoint(10, 5));
        QTest::mouseMove(vp, to);
        QTest::mouseRelease(vp, Qt::LeftButton, {}, to);
        QVERIFY(doc->eyeTarget().set);
        // The camera did not orbit; the target is where the cursor let go, in the view plane.
        QVERIFY((vp->camera3d().eye() - cam.eye()).length() < 1e-4f);
        const QVector3D want = vp->viewPlanePoint(to, handle);
        const core::Vec3 got = doc->eyeTarget().point;
        QVERIFY2((QVector3D(got.x(), got.y(), got.z()) - want).length() < 1e-3f,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(got.x()).arg(got.y()).arg(got.z())));
        QVERIFY2(got.x() > 1.0f && got.z() < 9.0f, // model +X is screen right from the front
                 qPrintable(QStringLiteral("%1 %2 %3").arg(got.x()).arg(got.y()).arg(got.z())));
        QVERIFY(std::fabs(got.y() - handle.y()) < 1e-3f);
        // The eyes look at it (within the iris's yaw offset) and the marker moved there.
        QVERIFY((*vp->eyeHandle() - want).length() < 1e-3f);
        const render::EyeDrawing e = vp->eyeScene()->eyes()[1];
        const QVector3D toTarget = (want - e.centre).normalized();
        QVERIFY(QVector3D::dotProduct(e.forward, toTarget) > 0.98f);
        // The Flex dock's sliders follow: yaw to the right, pitch down.
        auto* yaw = win.w.findChild<QSlider*>(QStringLiteral("eyeYaw"));
        auto* pitch = win.w.findChild<QSlider*>(QStringLiteral("eyePitch"));
        QVERIFY(yaw && pitch);
        QTRY_VERIFY(yaw->value() > 2 && pitch->value() < -1);
        // A drag elsewhere still orbits.
        const QPoint away(vp->width() / 8, vp->height() / 8);
        QTest::mousePress(vp, Qt::LeftButton, {}, away);
        QTest::mouseMove(vp, away + QPoint(10, 0));
        QTest::mouseMove(vp, away + QPoint(40, 0));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, away + QPoint(40, 0));
        QVERIFY((vp->camera3d().eye() - cam.eye()).length() > 1e-2f);
        QVERIFY((QVector3D(doc->eyeTarget().point.x(), doc->eyeTarget().point.y(),
                           doc->eyeTarget().point.z()) -
                 want)
                    .length() < 1e-3f);
    }

    // A DMX's DmeEyeballs are drawn like a QC's eyeballs, on the joint above them.
    void dmxEyesAreDrawn()
    {
        test::TestWindow win(QStringLiteral("tst_eyes_dmx.ini"), QSize(1000, 700));
        QVERIFY(activate(win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({fixture("dmx/eyes/eyes_head.dmx")});
        QVERIFY(doc->waitForLoaded());
        QCOMPARE(doc->eyes().size(), std::size_t(2));
        QCOMPARE(doc->eyes()[0].bone, std::string("head"));
        render::Viewport* vp = win.w.viewportWidget()->viewport();
        QTRY_VERIFY(vp->eyeScene() && vp->eyeScene()->eyes().size() == 2);
        const render::EyeDrawing& r = vp->eyeScene()->eyes()[0];
        QVERIFY((r.centre - QVector3D(-1.5f, -3, 12)).length() < 1e-4f);
        QCOMPARE(r.radius, 0.6f);
        QVERIFY(r.forward.y() < -0.99f); // straight ahead, turned by the 3 degree yaw twice
        QVERIFY(std::fabs(r.forward.x()) > 0.09f && std::fabs(r.forward.x()) < 0.11f);
        QVERIFY(vp->eyeHandle().has_value());
    }

    // Ctrl+drag the tail's root sideways (across its tip, which points up): the jiggle bone lags
    // (its tip swings away from where the root wants it), then settles back on it; the root stays
    // where it was dropped.
    void dragABoneSwingsTheJiggleBone()
    {
        test::TestWindow win(QStringLiteral("tst_jiggle_drag.ini"), QSize(1000, 700));
        QVERIFY(activate(win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({fixture("qc/jiggle/tail.qc")});
        QVERIFY(doc->waitForLoaded());
        render::Viewport* vp = win.w.viewportWidget()->viewport();
        QTRY_VERIFY(vp->scene() != nullptr);
        QCOMPARE(doc->jiggleJoints().size(), std::size_t(1));
        vp->setPreset(render::CameraPreset::Front);
        vp->frameAll();
        const Eigen::Matrix3f goal = vp->scene()->jointWorld()[1].linear();
        // Grab the jiggle bone itself: its parent (the root) moves.
        const QPoint at = vp->screenPoint(QVector3D(0, 0, 10)).toPoint();
        QCOMPARE(vp->jointAt(at, 14.0f), 1);
        const QPoint to = at + QPoint(120, 0);
        QTest::mousePress(vp, Qt::LeftButton, Qt::ControlModifier, at);
        QTest::mouseMove(vp, at + QPoint(10, 0));
        QTest::mouseMove(vp, to);
        QCOMPARE(doc->boneDragJoint(), 0);
        const QVector3D moved = vp->viewPlanePoint(to, QVector3D(0, 0, 10)) - QVector3D(0, 0, 10);
        QVERIFY2(
            moved.x() > 5.0f && std::fabs(moved.y()) < 1e-3f && std::fabs(moved.z()) < 0.1f,
            qPrintable(QStringLiteral("%1 %2 %3").arg(moved.x()).arg(moved.y()).arg(moved.z())));
        QVERIFY((doc->boneDragOffset() - core::Vec3(moved.x(), moved.y(), moved.z())).norm() <
                1e-3f);
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::ControlModifier, to);
        QVERIFY(doc->liveJiggleRunning());
        // It swings: the tail's axis leaves the goal by several degrees while it runs...
        float most = 0;
        QElapsedTimer clock;
        clock.start();
        bool shot = false;
        while (doc->liveJiggleRunning() && clock.elapsed() < 15000) {
            most = std::max(most, tailAngle(*vp, goal));
            if (!shot && most > 5.0f) {
                // The whole window mid-swing (looked at for issue 32's note).
                shot = true;
                app::grabWindow(win.w).save(test::outputDir() +
                                            QStringLiteral("/jiggle_mid_swing.png"));
                qInfo("mid-swing shot at %.1f degrees", double(tailAngle(*vp, goal)));
            }
            QTest::qWait(10);
        }
        QVERIFY2(most > 5.0f, qPrintable(QString::number(double(most))));
        // ...then settles on it, the root staying where it was dropped.
        QVERIFY(!doc->liveJiggleRunning());
        QVERIFY2(tailAngle(*vp, goal) < 0.1f,
                 qPrintable(QString::number(double(tailAngle(*vp, goal)))));
        const Eigen::Vector3f root = vp->scene()->jointWorld()[0].translation();
        QVERIFY((root - Eigen::Vector3f(moved.x(), moved.y(), moved.z())).norm() < 1e-3f);
        // Playback ▸ Put Moved Bone Back: the frame-exact playback again.
        auto* putBack = win.w.findChild<QAction*>(QStringLiteral("putMovedBoneBack"));
        QVERIFY(putBack);
        putBack->trigger();
        QCOMPARE(doc->boneDragJoint(), -1);
        QTRY_VERIFY(vp->scene()->jointWorld()[0].translation().norm() < 1e-5f);
    }
};

QTEST_MAIN(TstWindowEyesJiggle)
#include "tst_window_eyes_jiggle.moc"
