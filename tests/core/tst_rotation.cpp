// core/model/rotation.h: the one Euler convention (R = Rz * Ry * Rx), its way back in double and
// gimbal-safe near ±90° pitch, DMX quaternions as written, and the angle between two rotations.
#include <QtTest/QtTest>

#include <cmath>
#include <random>

#include "core/model/model.h"
#include "core/model/rotation.h"

using namespace rigscope::core;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Rz * Ry * Rx from Eigen's angle-axis product, in double: an independent reference.
Mat3d reference(const Vec3& e)
{
    const Eigen::Vector3d d = e.cast<double>();
    return (Eigen::AngleAxisd(d.z(), Eigen::Vector3d::UnitZ()) *
            Eigen::AngleAxisd(d.y(), Eigen::Vector3d::UnitY()) *
            Eigen::AngleAxisd(d.x(), Eigen::Vector3d::UnitX()))
        .toRotationMatrix();
}

double maxDiff(const Mat3d& a, const Mat3d& b)
{
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TstRotation : public QObject {
    Q_OBJECT
private slots:
    void eulerToMatrixIsRzRyRx()
    {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> angle(-3.2f, 3.2f);
        for (int i = 0; i < 1000; ++i) {
            const Vec3 e(angle(rng), angle(rng), angle(rng));
            QVERIFY(maxDiff(eulerToMatrixD(e), reference(e)) < 1e-14);
            QVERIFY(maxDiff(eulerToMatrix(e).cast<double>(), reference(e)) < 1e-7);
            QVERIFY(maxDiff(eulerToQuaternion(e).toRotationMatrix(), reference(e)) < 1e-14);
        }
        // X is applied first: rx = 90 then rz = 90 sends X to Y.
        const Mat3d m = eulerToMatrixD(Vec3(float(kPi / 2), 0, float(kPi / 2)));
        QVERIFY((m * Eigen::Vector3d::UnitX() - Eigen::Vector3d::UnitY()).norm() < 1e-7);
    }

    // Matrix -> Euler -> matrix at and near ±90° pitch, where X and Z share an axis: the float
    // angles written back give the same rotation to float rounding (issue 27: 25° off before).
    void eulerRoundTripNearGimbal_data()
    {
        QTest::addColumn<double>("pitch");
        for (const double sign : {1.0, -1.0}) {
            for (const double off : {0.0, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}) {
                const double p = sign * (kPi / 2 - off);
                QTest::newRow(qPrintable(QStringLiteral("%1").arg(p, 0, 'g', 12))) << p;
            }
        }
        QTest::newRow("-1.570796 as SMD writes it") << double(-1.570796f);
        QTest::newRow("1.570796 as SMD writes it") << double(1.570796f);
    }
    void eulerRoundTripNearGimbal()
    {
        QFETCH(double, pitch);
        for (const float x : {0.0f, 0.3f, -2.9f, 1.2f}) {
            for (const float z : {0.0f, -0.7f, 2.5f, 3.1f}) {
                const Vec3 e(x, float(pitch), z);
                const Mat3d r = eulerToMatrixD(e);
                const Vec3 back = matrixToEuler(r);
                QVERIFY(back.allFinite());
                QVERIFY2(maxDiff(eulerToMatrixD(back), r) < 1e-6,
                         qPrintable(QStringLiteral("x %1 z %2: off by %3")
                                        .arg(x)
                                        .arg(z)
                                        .arg(maxDiff(eulerToMatrixD(back), r))));
                QVERIFY(std::abs(back.y()) <= float(kPi / 2) + 1e-6f);
            }
        }
    }

    void matrixToEulerRandom()
    {
        std::mt19937 rng(11);
        std::normal_distribution<double> n(0, 1);
        for (int i = 0; i < 2000; ++i) {
            const Quatd q = Quatd(n(rng), n(rng), n(rng), n(rng)).normalized();
            const Mat3d r = q.toRotationMatrix();
            QVERIFY(maxDiff(eulerToMatrixD(matrixToEuler(r)), r) < 1e-6);
            QVERIFY(maxDiff(eulerToMatrixD(quaternionToEuler(q)), r) < 1e-6);
        }
    }

    // DMX quaternions near (±½, ±½, ±½, ±½): pitch ±90° within a few thousandths.
    void quaternionToEulerNearHalves()
    {
        for (const Vec4& v :
             {Vec4(-0.4989f, -0.5011f, -0.4989f, 0.5011f), Vec4(0.4989f, 0.5011f, 0.4989f, 0.5011f),
              Vec4(0.5003f, -0.4997f, 0.4997f, 0.5003f), Vec4(-0.5f, -0.5f, -0.5f, 0.5f),
              Vec4(0.5f, 0.5f, -0.5f, 0.5f), Vec4(0.7071068f, 0, 0.7071068f, 0),
              Vec4(0, 0.7071068f, 0, 0.7071068f)}) {
            const Quatd q = quaternionOf(v);
            const Vec3 e = quaternionToEuler(q);
            QVERIFY2(
                maxDiff(eulerToMatrixD(e), q.toRotationMatrix()) < 1e-6,
                qPrintable(
                    QStringLiteral("(%1 %2 %3 %4)").arg(v.x()).arg(v.y()).arg(v.z()).arg(v.w())));
        }
    }

    void quaternionAsWritten()
    {
        QVERIFY(quaternionOf(Vec4(0, 0, 0, 0)).isApprox(Quatd::Identity()));
        QVERIFY(quaternionOf(Vec4(NAN, 0, 0, 1)).isApprox(Quatd::Identity()));
        QVERIFY(quaternionOf(Vec4(0, 0, 0, 2)).isApprox(Quatd::Identity()));
        const Quatd q = quaternionOf(Vec4(1, 2, 3, 4));
        QVERIFY(std::abs(q.norm() - 1) < 1e-15);
        QCOMPARE(q.w() * std::sqrt(30.0), 4.0);
        QVERIFY(sameBits(xyzwOf(quaternionOf(Vec4(0.5f, -0.5f, 0.5f, 0.5f))),
                         Vec4(0.5f, -0.5f, 0.5f, 0.5f)));
    }

    // The angle between two rotations, exact near zero (an acos of the trace in float reads
    // 0.03° where there is none).
    void angleBetweenNearZero()
    {
        const Mat3d a = eulerToMatrixD(Vec3(0.3f, -1.570796f, 0.2f));
        QCOMPARE(angleBetween(a, a), 0.0);
        for (const double t : {1e-9, 1e-7, 1e-5, 1e-2, 1.0, 3.0}) {
            const Mat3d b =
                a * Eigen::AngleAxisd(t, Eigen::Vector3d(1, 2, -1).normalized()).toRotationMatrix();
            QVERIFY2(std::abs(angleBetween(a, b) - t) < 1e-12 + 1e-9 * t,
                     qPrintable(QString::number(angleBetween(a, b) - t)));
        }
    }

    // A DMX skeleton and clip rewritten as Euler for the SMD family, in double.
    void quaternionsToEulerModel()
    {
        Model m;
        m.skeleton.bindKind = PoseKind::LocalQuaternion;
        m.skeleton.addJoint("a", kNoJoint, 0, {});
        m.skeleton.addJoint("b", 0, 1, {});
        QCOMPARE(m.skeleton.bindQuaternions.size(), std::size_t(2));
        m.skeleton.bindQuaternions[1] = Vec4(-0.4989f, -0.5011f, -0.4989f, 0.5011f);
        Animation a;
        a.kind = PoseKind::LocalQuaternion;
        a.jointCount = 2;
        a.appendFrame(0, {});
        a.appendFrame(1, {});
        QCOMPARE(a.quaternions.size(), std::size_t(4));
        QVERIFY(a.rotations.empty());
        a.quaternions[3] = Vec4(0.5f, 0.5f, 0.5f, -0.5f);
        m.animations.push_back(a);
        QCOMPARE(QString::fromStdString(verifyInvariants(m)), QString());
        QVERIFY(hasQuaternions(m));
        const Mat3d before = bindRotationD(m.skeleton, 1);
        const Mat3d key = keyRotationD(m.animations[0], 3);
        quaternionsToEuler(m);
        QVERIFY(!hasQuaternions(m));
        QCOMPARE(QString::fromStdString(verifyInvariants(m)), QString());
        QCOMPARE(m.skeleton.bindKind, PoseKind::LocalEulerXYZ);
        QVERIFY(m.skeleton.bindQuaternions.empty());
        QVERIFY(maxDiff(bindRotationD(m.skeleton, 1), before) < 1e-6);
        QVERIFY(maxDiff(keyRotationD(m.animations[0], 3), key) < 1e-6);
        QCOMPARE(m.animations[0].rotations.size(), std::size_t(4));
    }
};

QTEST_APPLESS_MAIN(TstRotation)
#include "tst_rotation.moc"
