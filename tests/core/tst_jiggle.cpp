// Issue 32 item 3: $jigglebone read as studiomdl compiles it (groups, defaults, clamps, degrees,
// the jiggle.* findings at their lines) and integrated as the engine does: a flexible tip under
// a step of its parent follows the analytic damped spring; constraints hold.
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include <cmath>

#include "core/formats/mdl/compiled_model.h"
#include "core/formats/qc/qc_reader.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "core/pose/jiggle_pose.h"
#include "core/pose/jiggle_sim.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QcProject readText(const std::string& text)
{
    QcReadOptions o;
    o.fileName = "p/main.qc";
    return readQc(text, o);
}

QStringList idsWithLines(const QcProject& p)
{
    QStringList out;
    for (const Diagnostic& d : p.diagnostics) {
        if (d.id.starts_with("jiggle.")) {
            out << QStringLiteral("%1:%2")
                       .arg(QString::fromUtf8(d.id.data(), qsizetype(d.id.size())))
                       .arg(d.where.line);
        }
    }
    return out;
}

} // namespace

class TstJiggle : public QObject {
    Q_OBJECT

private slots:
    void readsGroupsDefaultsAndUnits()
    {
        const QcProject p = readText("$jigglebone \"tail\"\n"               // 1
                                     "{\n"                                  // 2
                                     "  is_flexible\n"                      // 3
                                     "  {\n"                                // 4
                                     "    length 20 tip_mass 50\n"          // 5
                                     "    yaw_stiffness 80\n"               // 6
                                     "    yaw_constraint -30 45\n"          // 7
                                     "    angle_constraint 60\n"            // 8
                                     "    allow_length_flex\n"              // 9
                                     "  }\n"                                // 10
                                     "  has_base_spring { stiffness 40 }\n" // 11
                                     "}\n");
        QCOMPARE(p.jiggleBones.size(), std::size_t(1));
        const JiggleParams& j = p.jiggleBones[0].params;
        QCOMPARE(p.jiggleBones[0].bone, std::string("tail"));
        QCOMPARE(p.jiggleBones[0].at.where.line, 1u);
        QCOMPARE(j.flags, std::uint32_t(JiggleParams::Flexible | JiggleParams::YawConstraint |
                                        JiggleParams::AngleConstraint |
                                        JiggleParams::BaseSpring)); // allow_length_flex
        QCOMPARE(j.length, 20.0f);
        QCOMPARE(j.tipMass, 50.0f);
        QCOMPARE(j.yawStiffness, 80.0f);
        QCOMPARE(j.pitchStiffness, 100.0f); // studiomdl's default
        QVERIFY(std::abs(j.minYaw - float(-M_PI / 6)) < 1e-6f);
        QVERIFY(std::abs(j.maxYaw - float(M_PI / 4)) < 1e-6f);
        QVERIFY(std::abs(j.angleLimit - float(M_PI / 3)) < 1e-6f);
        QCOMPARE(j.baseStiffness, 40.0f);
        QCOMPARE(j.baseMinUp, -100.0f);
        QCOMPARE(j.kinds(), (std::vector<std::string>{"flexible", "base_spring"}));
        QCOMPARE(idsWithLines(p), QStringList());
    }

    void findingsAtTheirLines()
    {
        const QcProject p = readText("$jigglebone \"a\" { }\n"                             // 1
                                     "$jigglebone \"b\" {\n"                               // 2
                                     "  is_rigid { length 0 }\n"                           // 3
                                     "  is_flexible {\n"                                   // 4
                                     "    yaw_stiffness 5000\n"                            // 5
                                     "    yaw_constraint -120 120\n"                       // 6
                                     "    pitch_constraint 20 -20\n"                       // 7
                                     "  }\n"                                               // 8
                                     "}\n"                                                 // 9
                                     "$jigglebone \"c\" { is_flexible { stiffness 5 } }\n" // 10
                                     "$jigglebone \"d\" { is_wobbly { } }\n");             // 11
        QCOMPARE(idsWithLines(p),
                 (QStringList{u"jiggle.no-kind:1"_qs, u"jiggle.clamped:5"_qs,
                              u"jiggle.wide-constraint:6"_qs, u"jiggle.min-above-max:7"_qs,
                              u"jiggle.conflicting-kinds:2"_qs, u"jiggle.zero-length:2"_qs,
                              u"jiggle.unknown-parameter:10"_qs, u"jiggle.unknown-parameter:11"_qs,
                              u"jiggle.no-kind:11"_qs}));
        QCOMPARE(p.jiggleBones.size(), std::size_t(4));
        QCOMPARE(p.jiggleBones[1].params.yawStiffness, 1000.0f); // clamped as studiomdl does
    }

    // A flexible tip without its length constraint, no gravity: after the parent steps 1 unit
    // to the bone's left, the tip's lag behind its goal obeys x'' = -k x - c x'.
    void flexibleTipFollowsTheDampedSpring()
    {
        JiggleParams p;
        p.flags = JiggleParams::Flexible; // allow_length_flex: no length constraint
        p.length = 10;
        p.yawStiffness = 100;
        p.yawDamping = 4;
        JiggleState s;
        Eigen::Affine3d goal = Eigen::Affine3d::Identity();
        stepJiggle(p, s, goal, 0.0); // starts at rest on the goal
        goal.translation() = Eigen::Vector3d(1, 0, 0);
        const double k = 100, c = 4, dt = 0.001;
        const double w = std::sqrt(k), zeta = c / (2 * w), wd = w * std::sqrt(1 - zeta * zeta);
        double worst = 0;
        for (int i = 1; i <= 2000; ++i) {
            stepJiggle(p, s, goal, dt);
            const double t = i * dt;
            const double expected =
                std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t));
            const double lag = 1.0 - s.tipPos.x();
            worst = std::max(worst, std::abs(lag - expected));
            QVERIFY(std::abs(s.tipPos.z() - 10.0) < 1e-9); // nothing pulls along the bone
        }
        QVERIFY2(worst < 0.01, qPrintable(QString::number(worst))); // explicit Euler, 1 ms
        // The bone points from its base to the tip.
        const Eigen::Affine3d m = stepJiggle(p, s, goal, dt);
        QVERIFY((m.linear().col(2) - (s.tipPos - goal.translation()).normalized()).norm() < 1e-9);
        QVERIFY(std::abs(m.linear().determinant() - 1.0) < 1e-9);
    }

    // Gravity pulls a rigid tip down; the yaw / pitch limits and the length hold it.
    void constraintsHold()
    {
        JiggleParams p;
        p.flags =
            JiggleParams::Rigid | JiggleParams::LengthConstraint | JiggleParams::PitchConstraint;
        p.length = 10;
        p.tipMass = 1000;
        p.minPitch = float(-M_PI / 6);
        p.maxPitch = float(M_PI / 6);
        JiggleState s;
        // The bone points along world +X, its up axis is world +Z: gravity pulls the tip's pitch
        // toward -90 degrees; the limit stops it at -30.
        Eigen::Affine3d goal = Eigen::Affine3d::Identity();
        goal.linear().col(0) = Eigen::Vector3d(0, 1, 0); // left
        goal.linear().col(1) = Eigen::Vector3d(0, 0, 1); // up
        goal.linear().col(2) = Eigen::Vector3d(1, 0, 0); // forward
        stepJiggle(p, s, goal, 0.0);
        for (int i = 0; i < 3000; ++i) {
            stepJiggle(p, s, goal, 0.001);
        }
        QVERIFY(std::abs(s.tipPos.norm() - 10.0) < 1e-6);
        const double pitch = std::atan2(s.tipPos.z(), s.tipPos.x());
        QVERIFY2(std::abs(pitch + M_PI / 6) < 1e-3, qPrintable(QString::number(pitch)));
    }

    // is_boing: the base moves along +X at 60 units/s for a second and stops. The stop is an
    // impact (its speed changed by more than impact_speed): the bone squashes across the boing
    // axis and stretches along it by amplitude x cos(frequency t) x (1 - rate t)^4, t from the
    // impact. Stopped, the engine reads the move as (0, 0, 1), so the axis is world -Z.
    void boingSquashesAfterAnImpact()
    {
        JiggleParams p;
        p.flags = JiggleParams::Boing;
        p.boingImpactSpeed = 20;
        p.boingImpactAngle = 0.5f;
        p.boingDampingRate = 1;
        p.boingFrequency = 30;
        p.boingAmplitude = 0.25f;
        JiggleState s;
        Eigen::Affine3d goal = Eigen::Affine3d::Identity();
        stepJiggle(p, s, goal, 0.0);
        const double dt = 0.01;
        Eigen::Affine3d m;
        for (int i = 1; i <= 100; ++i) { // moving steadily: no impact, the goal's axes
            goal.translation().x() = 0.6 * i;
            m = stepJiggle(p, s, goal, dt);
        }
        QVERIFY((m.linear() - Eigen::Matrix3d::Identity()).norm() < 1e-9);
        m = stepJiggle(p, s, goal, dt); // the stop: t = 0, flex = amplitude
        QVERIFY(
            (m.linear() - Eigen::Vector3d(1.25, 1.25, 0.75).asDiagonal().toDenseMatrix()).norm() <
            1e-9);
        for (int i = 0; i < 10; ++i) {
            m = stepJiggle(p, s, goal, dt);
        }
        const double t = 10 * dt;
        const double flex = 0.25 * std::cos(30 * t) * std::pow(1 - t, 4);
        const Eigen::Matrix3d want = Eigen::Vector3d(1 + flex, 1 + flex, 1 - flex).asDiagonal();
        QVERIFY2((m.linear() - want).norm() < 1e-9, qPrintable(QString::number(flex)));
        QVERIFY((m.translation() - goal.translation()).norm() < 1e-12);
        for (int i = 0; i < 100; ++i) { // damped out after 1 / rate seconds: the goal
            m = stepJiggle(p, s, goal, dt);
        }
        QVERIFY((m.linear() - Eigen::Matrix3d::Identity()).norm() < 1e-12);
    }

    // On a whole pose: root -> tail (flexible, along +Z) -> tip child. An animation moves the
    // root one unit along X at frame 1 and holds it. The tail lags, carries its child, and the
    // pose at a frame is the same stepped frame by frame or asked for at once.
    void playerCarriesChildrenAndIsRepeatable()
    {
        Skeleton sk;
        sk.names = {"root", "tail", "tail_end"};
        sk.parents = {kNoJoint, 0, 1};
        JiggleParams p;
        p.flags = JiggleParams::Flexible;
        p.length = 10;
        p.yawStiffness = 100;
        p.yawDamping = 4;
        const std::vector<JiggleJoint> joints =
            jiggleJoints(sk, {{"TAIL", p}, {"nobody", p}}); // case-insensitive, absent left out
        QCOMPARE(joints.size(), std::size_t(1));
        QCOMPARE(joints[0].joint, JointIndex(1));
        auto poseAt = [](double frame) {
            std::vector<Eigen::Affine3f> w(3, Eigen::Affine3f::Identity());
            const float x = frame >= 1 ? 1.0f : 0.0f;
            w[0].translation() = Eigen::Vector3f(x, 0, 0);
            w[1].translation() = Eigen::Vector3f(x, 0, 2);
            w[2].translation() = Eigen::Vector3f(x, 0, 12);
            return w;
        };
        JigglePlayer a(joints, sk.parents);
        std::vector<Eigen::Affine3f> stepped;
        for (int f = 0; f <= 3; ++f) {
            stepped = a.poseAt(f, 30.0, poseAt);
        }
        JigglePlayer b(joints, sk.parents);
        const std::vector<Eigen::Affine3f> once = b.poseAt(3, 30.0, poseAt);
        QCOMPARE(once.size(), std::size_t(3));
        for (std::size_t j = 0; j < 3; ++j) {
            QVERIFY((once[j].matrix() - stepped[j].matrix()).norm() < 1e-6);
        }
        // The same as the single-bone integration at 1/60 s steps (30 fps, two per frame).
        JiggleState s;
        Eigen::Affine3d goal = Eigen::Affine3d::Identity();
        goal.translation() = Eigen::Vector3d(0, 0, 2);
        Eigen::Affine3d m = stepJiggle(p, s, goal, 0.0);
        goal.translation().x() = 1;
        for (int i = 0; i < 6; ++i) {
            m = stepJiggle(p, s, goal, 1.0 / 60.0);
        }
        QVERIFY((once[1].matrix().cast<double>() - m.matrix()).norm() < 1e-5);
        // A tenth of a second in, the tail still leans back toward where it was (its tip lags
        // on -X: e^{-ζωt}(cos ω_d t + ζω/ω_d sin ω_d t) = 0.59 of the step), and its child rides
        // on it: the child sits 10 units along the tail's jiggled forward axis.
        QVERIFY(once[1].linear().col(2).x() < -0.01f);
        const Eigen::Vector3f child = once[1].translation() + 10.0f * once[1].linear().col(2);
        QVERIFY((once[2].translation() - child).norm() < 1e-4f);
        // Going back restarts from frame 0: frame 0 is the animated pose.
        const std::vector<Eigen::Affine3f> back = a.poseAt(0, 30.0, poseAt);
        QVERIFY((back[2].translation() - Eigen::Vector3f(0, 0, 12)).norm() < 1e-6f);
    }

    // With the compiled prediction: a jiggle bone studiomdl drops, and one kept by $definebone
    // that no vertex follows; a chain of jiggle bones that moves vertices is fine.
    void skeletonFindings()
    {
        MemoryQcFileSystem fs;
        fs.files["p/ref.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"tail1\" 0\n"
                                "2 \"tail2\" 1\n3 \"loose\" 0\n4 \"antenna\" 0\nend\n"
                                "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\n"
                                "2 0 0 1 0 0 0\n3 1 0 0 0 0 0\n4 0 1 0 0 0 0\nend\n"
                                "triangles\nm\n0 0 0 0 0 0 1 0 0 1 2 1\n0 1 0 0 0 0 1 0 0\n"
                                "0 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/main.qc"] = "$body body \"ref.smd\"\n"                       // 1
                                "$definebone \"antenna\" \"root\" 0 1 0 0 0 0\n" // 2
                                "$jigglebone \"tail1\" { is_flexible { } }\n"    // 3
                                "$jigglebone \"tail2\" { is_flexible { } }\n"    // 4
                                "$jigglebone \"loose\" { is_rigid { } }\n"       // 5
                                "$jigglebone \"antenna\" { is_rigid { } }\n";    // 6
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY(r.compiled.hasModel);
        QStringList got;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id.starts_with("jiggle.")) {
                got << QStringLiteral("%1:%2")
                           .arg(QString::fromUtf8(d.id.data(), qsizetype(d.id.size())))
                           .arg(d.where.line);
            }
        }
        QCOMPARE(got, (QStringList{u"jiggle.dropped-bone:5"_qs, u"jiggle.moves-nothing:6"_qs}));
    }

    // Truth from outside: Valve's compiled L4D2 survivor (its mstudiojigglebone_t records) and
    // the QC it was compiled from (a public template of the same character) agree, parameter by
    // parameter, with what this reader makes of the QC. Reads RIGSCOPE_TESTDATA (default
    // /work/data) when present.
    void compiledSurvivorMatchesItsQc()
    {
        const std::string root = test::publicDataDir().toStdString();
        const std::string mdl = root + "/blackletum+terror/models/survivors/survivor_producer.mdl";
        const std::string qc = root + "/hedyl2+qctemplate-l4d2/survivor_producer/rochelle.qc";
        if (!QFileInfo::exists(QString::fromStdString(mdl)) ||
            !QFileInfo::exists(QString::fromStdString(qc))) {
            QSKIP("the public L4D2 survivor and its QC (RIGSCOPE_TESTDATA) are not here");
        }
        const OpenedInput compiled = openInput(mdl, Profile::Auto, {});
        QVERIFY(compiled.compiled);
        const QcReport source = qcReportFromFile(qc, Profile::Auto);
        QVERIFY(source.readable);
        int compared = 0;
        for (const CompiledBone& b : compiled.compiled->bones) {
            if (!b.jiggle) {
                continue;
            }
            const QcJiggleBone* q = nullptr;
            for (const QcJiggleBone& j : source.project.jiggleBones) {
                q = j.bone == b.name ? &j : q;
            }
            QVERIFY2(q, b.name.c_str());
            const JiggleParams& c = *b.jiggle;
            const JiggleParams& r = q->params;
            QCOMPARE(r.flags, c.flags);
            const float JiggleParams::*fields[] = {
                &JiggleParams::length,         &JiggleParams::tipMass,
                &JiggleParams::yawStiffness,   &JiggleParams::yawDamping,
                &JiggleParams::pitchStiffness, &JiggleParams::pitchDamping,
                &JiggleParams::alongStiffness, &JiggleParams::alongDamping,
                &JiggleParams::angleLimit,     &JiggleParams::minYaw,
                &JiggleParams::maxYaw,         &JiggleParams::minPitch,
                &JiggleParams::maxPitch,       &JiggleParams::baseStiffness};
            for (const auto f : fields) {
                QVERIFY2(std::abs(r.*f - c.*f) < 1e-4f,
                         qPrintable(QString::fromStdString(b.name) + u' ' +
                                    QString::number(double(r.*f)) + u" vs "_qs +
                                    QString::number(double(c.*f))));
            }
            ++compared;
        }
        QCOMPARE(compared, 12); // the producer's 12 jiggle bones
    }
};

QTEST_GUILESS_MAIN(TstJiggle)
#include "tst_jiggle.moc"
