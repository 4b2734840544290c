#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include <QtTest/QtTest>

#include "core/model/model.h"
#include "core/pose/animation_binding.h"
#include "core/pose/euler_to_local.h"
#include "core/pose/flex_binding.h"
#include "core/pose/local_to_model.h"
#include "core/pose/model_to_local.h"
#include "core/pose/morph_job.h"
#include "core/pose/pose_rig.h"
#include "core/pose/sample.h"
#include "core/pose/skin_job.h"
#include "core/pose/skin_matrices_job.h"

// ---- operator new counter: jobs must not allocate in run() ---------------------------------
namespace {
std::atomic<long> g_newCalls{0};
std::atomic<bool> g_counting{false};

void* countedAlloc(std::size_t n, std::size_t align)
{
    if (g_counting.load(std::memory_order_relaxed)) {
        g_newCalls.fetch_add(1, std::memory_order_relaxed);
    }
    if (n == 0) {
        n = 1;
    }
    void* p = nullptr;
    if (align <= alignof(std::max_align_t)) {
        p = std::malloc(n);
    } else {
        p = std::aligned_alloc(align, (n + align - 1) / align * align);
    }
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}

// Counts operator new calls while alive.
struct AllocationCounter {
    AllocationCounter()
    {
        g_newCalls = 0;
        g_counting = true;
    }
    ~AllocationCounter() { g_counting = false; }
    long calls() const { return g_newCalls.load(); }
};
} // namespace

void* operator new(std::size_t n)
{
    return countedAlloc(n, 0);
}
void* operator new[](std::size_t n)
{
    return countedAlloc(n, 0);
}
void* operator new(std::size_t n, std::align_val_t a)
{
    return countedAlloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a)
{
    return countedAlloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete[](void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}

using namespace rigscope::core;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kTol = 1e-5f;

bool near(const Vec3& a, const Vec3& b, float tol = kTol)
{
    return (a - b).cwiseAbs().maxCoeff() <= tol;
}
bool nearM(const Mat3& a, const Mat3& b, float tol = kTol)
{
    return (a - b).cwiseAbs().maxCoeff() <= tol;
}
bool nearX(const Xform& a, const Xform& b, float tol = kTol)
{
    return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff() <= tol;
}

QByteArray show(const Vec3& v)
{
    return QByteArray::number(v.x()) + ' ' + QByteArray::number(v.y()) + ' ' +
           QByteArray::number(v.z());
}

// Double-precision reference: Rz * Ry * Rx from Eigen angle-axis products.
Mat3 referenceEuler(const Vec3& r)
{
    const Eigen::Matrix3d m = (Eigen::AngleAxisd(r.z(), Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(r.y(), Eigen::Vector3d::UnitY()) *
                               Eigen::AngleAxisd(r.x(), Eigen::Vector3d::UnitX()))
                                  .toRotationMatrix();
    return m.cast<float>();
}

// SMD-like skeleton: names, parents, source ids and an Euler bind pose.
Skeleton smdSkeleton(std::vector<std::string> names, std::vector<JointIndex> parents,
                     std::vector<std::int32_t> ids, std::vector<Vec3> pos, std::vector<Vec3> rot)
{
    Skeleton s;
    s.names = std::move(names);
    s.parents = std::move(parents);
    s.sourceIds = std::move(ids);
    s.where.resize(s.names.size());
    s.bindKind = PoseKind::LocalEulerXYZ;
    s.bindPositions = std::move(pos);
    s.bindRotations = std::move(rot);
    s.bindAxes.assign(s.names.size(), Mat3::Identity());
    s.bindScales.assign(s.names.size(), Vec3::Ones());
    s.bindHasScale.assign(s.names.size(), 0);
    s.bindWhere.resize(s.names.size());
    return s;
}

Animation eulerAnimation(std::size_t joints,
                         const std::vector<std::vector<std::pair<Vec3, Vec3>>>& frames)
{
    Animation a;
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = joints;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        a.appendFrame(static_cast<double>(f), {});
        for (std::size_t j = 0; j < joints; ++j) {
            a.positions[a.key(f, j)] = frames[f][j].first;
            a.rotations[a.key(f, j)] = frames[f][j].second;
        }
    }
    return a;
}

Mat3 axesOf(const Vec3& x, const Vec3& y, const Vec3& z)
{
    Mat3 m;
    m.col(0) = x;
    m.col(1) = y;
    m.col(2) = z;
    return m;
}

// Two triangles, six SMD points (point i == corner i), all rigid on `parent`.
Mesh twoTriangles(JointIndex parent)
{
    Mesh m;
    const Vec3 p[6] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.influenceOffsets.push_back(0);
    for (std::uint32_t i = 0; i < 6; ++i) {
        m.pointPositions.push_back(p[i]);
        m.pointParents.push_back(parent);
        m.pointLinkState.push_back(LinkState::Absent);
        m.influenceOffsets.push_back(0);
        m.pointWhere.push_back({});
        m.cornerPoints.push_back(i);
        m.cornerNormals.push_back(Vec3::UnitZ());
        m.cornerUvs.push_back(Vec2::Zero());
        m.cornerWhere.push_back({});
    }
    m.triangleMaterials = {0, 0};
    m.triangleWhere.resize(2);
    return m;
}

} // namespace

class TstPoseJobs : public QObject {
    Q_OBJECT
private slots:
    void eulerMatchesReference_data()
    {
        QTest::addColumn<float>("rx");
        QTest::addColumn<float>("ry");
        QTest::addColumn<float>("rz");
        QTest::newRow("zero") << 0.0f << 0.0f << 0.0f;
        QTest::newRow("x only") << 0.7f << 0.0f << 0.0f;
        QTest::newRow("y only") << 0.0f << -1.1f << 0.0f;
        QTest::newRow("z only") << 0.0f << 0.0f << 2.5f;
        QTest::newRow("all") << 0.3f << -0.4f << 1.2f;
        QTest::newRow("gimbal +90 y") << 0.25f << kPi / 2 << -0.6f;
        QTest::newRow("gimbal near +90 y") << 1.0f << kPi / 2 - 1e-4f << 0.5f;
        QTest::newRow("gimbal near -90 y") << -2.0f << -kPi / 2 + 1e-4f << 3.0f;
        QTest::newRow("beyond pi") << 4.0f << 3.5f << -7.0f;
    }
    void eulerMatchesReference()
    {
        QFETCH(float, rx);
        QFETCH(float, ry);
        QFETCH(float, rz);
        const Vec3 r(rx, ry, rz);
        const Mat3 m = eulerToMatrix(r);
        QVERIFY(nearM(m, referenceEuler(r)));
        QVERIFY(std::abs(m.determinant() - 1.0f) < 1e-5f);
        QVERIFY(nearM(Mat3(m * m.transpose()), Mat3::Identity()));
    }

    // X is applied first: rx = 90 then rz = 90 sends X to Y, Y to Z and Z to X.
    void eulerOrderHandComputed()
    {
        const Mat3 m = eulerToMatrix(Vec3(kPi / 2, 0, kPi / 2));
        Mat3 expected;
        expected << 0, 0, 1, //
            1, 0, 0,         //
            0, 1, 0;
        QVERIFY(nearM(m, expected));
        QVERIFY(near(Vec3(m * Vec3::UnitX()), Vec3::UnitY()));
        QVERIFY(near(Vec3(m * Vec3::UnitY()), Vec3::UnitZ()));
    }

    void singleRotatedBone()
    {
        const std::vector<Vec3> pos{{1, 2, 3}};
        const std::vector<Vec3> rot{{0, 0, kPi / 2}};
        const std::vector<JointIndex> parents{kNoJoint};
        std::vector<Xform> local(1), model(1);
        QVERIFY((EulerToLocalJob{pos, rot, local}.run()));
        QVERIFY((LocalToModelJob{.parents = parents, .local = local, .model = model}.run()));
        QVERIFY(near(model[0].translation(), Vec3(1, 2, 3)));
        // a point one unit along the bone's X lands one unit along model +Y from the bone
        QVERIFY(near(Vec3(model[0] * Vec3(1, 0, 0)), Vec3(1, 3, 3)));
        const Xform root(Eigen::Translation3f(10, 0, 0));
        QVERIFY((LocalToModelJob{.parents = parents, .local = local, .root = &root, .model = model}
                     .run()));
        QVERIFY(near(model[0].translation(), Vec3(11, 2, 3)));
    }

    void childOfRotatedParent()
    {
        // parent at (0,0,1) rotated 90 about Z; child 2 units along parent X, rotated 90 about X
        const std::vector<Vec3> pos{{0, 0, 1}, {2, 0, 0}};
        const std::vector<Vec3> rot{{0, 0, kPi / 2}, {kPi / 2, 0, 0}};
        const std::vector<JointIndex> parents{kNoJoint, 0};
        std::vector<Xform> local(2), model(2);
        QVERIFY((EulerToLocalJob{pos, rot, local}.run()));
        QVERIFY((LocalToModelJob{.parents = parents, .local = local, .model = model}.run()));
        QVERIFY2(near(model[1].translation(), Vec3(0, 2, 1)), show(model[1].translation()));
        // child rotation = Rz90 * Rx90: X -> Y, Y -> Z, Z -> X (see eulerOrderHandComputed)
        Mat3 expected;
        expected << 0, 0, 1, 1, 0, 0, 0, 1, 0;
        QVERIFY(nearM(model[1].linear(), expected));
        // in-place: local and model may be one buffer
        std::vector<Xform> inPlace = local;
        QVERIFY((LocalToModelJob{.parents = parents, .local = inPlace, .model = inPlace}.run()));
        QVERIFY(nearX(inPlace[1], model[1]));
    }

    // Ids as written are 7, 3, 12 (gaps, not sorted); pose math only follows parent indices,
    // and animations bind by name (case-insensitive), not by id.
    void nonSequentialIds()
    {
        const Skeleton ref =
            smdSkeleton({"Root", "Arm", "Hand"}, {kNoJoint, 0, 1}, {7, 3, 12},
                        {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, 0, 0}, {0, 0, kPi / 2}, {0, 0, 0}});
        const PoseRig rig = makePoseRig(ref);
        QVERIFY(near(rig.bindModel[2].translation(), Vec3(0, 1, 1)));
        // the animation lists the bones in another order, other ids, other case
        const Skeleton animSkel =
            smdSkeleton({"hand", "ROOT", "arm"}, {2, kNoJoint, 1}, {0, 1, 2}, {}, {});
        // (parents in the animation file are irrelevant to binding)
        const AnimationBinding b = bindAnimation(ref, animSkel, PoseKind::LocalEulerXYZ);
        QCOMPARE(b.animJointOfRef, (std::vector<JointIndex>{1, 2, 0}));
        QCOMPARE(b.refJointOfAnim, (std::vector<JointIndex>{2, 0, 1}));
        QVERIFY(b.missingInAnimation.empty());
        QVERIFY(b.missingInReference.empty());
        const Animation anim = eulerAnimation(3, {{{Vec3(3, 0, 0), Vec3(0, 0, 0)},           // hand
                                                   {Vec3(0, 0, 0), Vec3(0, 0, 0)},           // root
                                                   {Vec3(0, 0, 1), Vec3(0, 0, -kPi / 2)}}}); // arm
        PoseBuffers buf;
        buf.resize(3, 3, 0, false, 0);
        QVERIFY(evaluatePose(rig, &anim, &b, {}, Interpolation::Stepped, buf));
        QVERIFY2(near(buf.model[2].translation(), Vec3(0, -3, 1)),
                 show(buf.model[2].translation()));
    }

    void xmodelRoundTrip()
    {
        // model-space CoD matrices, one of them slightly non-orthonormal (kept as written)
        const std::vector<JointIndex> parents{kNoJoint, 0, 1, 0};
        const std::vector<Vec3> offsets{{0, 0, 0}, {1, 2, 3}, {4, -1, 2.5f}, {-2, 0, 1}};
        std::vector<Mat3> axes{Mat3::Identity(), axesOf({0, 1, 0}, {-1, 0, 0}, {0, 0, 1}),
                               eulerToMatrix(Vec3(0.3f, -0.2f, 1.4f)),
                               eulerToMatrix(Vec3(-1.0f, 0.5f, 0.1f))};
        axes[2](0, 1) += 0.01f; // non-orthonormal: cod.bone-matrix, but still exact
        std::vector<Xform> model(4), local(4), back(4);
        QVERIFY((AxesToModelJob{offsets, axes, model}.run()));
        QVERIFY((ModelToLocalJob{parents, model, local}.run()));
        QVERIFY((LocalToModelJob{.parents = parents, .local = local, .model = back}.run()));
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY2(nearX(back[i], model[i], 1e-5f), QByteArray::number(int(i)));
        }
        // local of bone 1 under the identity root: its model matrix
        QVERIFY(nearX(local[1], model[1]));
        // local of bone 2: W1^-1 * W2 by hand for the translation part
        const Vec3 t = axes[1].inverse() * (offsets[2] - offsets[1]);
        QVERIFY(near(local[2].translation(), t));
        // model and local must not overlap
        QVERIFY(!(ModelToLocalJob{parents, model, model}.validate()));
    }

    // XANIM parts are model space: L = W_parent^-1 * W; a non-part bone keeps its bind local
    // transform under its posed parent (FORMATS.md 4.2).
    void xanimPartsOntoModel()
    {
        Skeleton ref;
        ref.names = {"tag_origin", "j_spine", "j_head"};
        ref.parents = {kNoJoint, 0, 1};
        ref.sourceIds = {0, 1, 2};
        ref.where.resize(3);
        ref.bindKind = PoseKind::ModelMatrix;
        ref.bindPositions = {{0, 0, 0}, {0, 0, 10}, {0, 0, 20}};
        ref.bindRotations.assign(3, Vec3::Zero());
        ref.bindAxes.assign(3, Mat3::Identity());
        const PoseRig rig = makePoseRig(ref);
        QVERIFY(near(rig.bindLocal[2].translation(), Vec3(0, 0, 10)));

        Skeleton parts;
        parts.names = {"TAG_ORIGIN", "j_head", "j_tail"}; // j_spine is not a part; j_tail unknown
        parts.parents = {kNoJoint, kNoJoint, kNoJoint};
        Animation a;
        a.kind = PoseKind::ModelMatrix;
        a.jointCount = 3;
        a.appendFrame(100, {});
        const Mat3 rz = axesOf({0, 1, 0}, {-1, 0, 0}, {0, 0, 1}); // 90 about Z
        a.positions = {{5, 0, 0}, {1, 1, 1}, {9, 9, 9}};
        a.axes = {rz, Mat3::Identity(), Mat3::Identity()};

        const AnimationBinding b = bindAnimation(ref, parts, PoseKind::ModelMatrix);
        QCOMPARE(b.missingInReference, (std::vector<JointIndex>{2}));
        QCOMPARE(b.missingInAnimation, (std::vector<JointIndex>{1}));
        PoseBuffers buf;
        buf.resize(3, 3, 0, false, 0);
        QVERIFY(evaluatePose(rig, &a, &b, {}, Interpolation::Stepped, buf));
        QVERIFY(near(buf.model[0].translation(), Vec3(5, 0, 0)));
        // j_spine: origin's posed W times its bind local (0,0,10)
        QVERIFY(near(buf.model[1].translation(), Vec3(5, 0, 10)));
        QVERIFY(nearM(buf.model[1].linear(), rz));
        // j_head: exactly the part matrix; its local is W_spine^-1 * W_head
        QVERIFY(near(buf.model[2].translation(), Vec3(1, 1, 1)));
        QVERIFY(nearM(buf.model[2].linear(), Mat3::Identity()));
        const Xform expectedLocal = buf.model[1].inverse(Eigen::Affine) * buf.model[2];
        QVERIFY(nearX(buf.local[2], expectedLocal));
    }

    // Bones missing on either side: listed; unanimated bones hold the bind local transform.
    void animationWithOmittedBones()
    {
        const Skeleton ref =
            smdSkeleton({"root", "spine", "head"}, {kNoJoint, 0, 1}, {0, 1, 2},
                        {{0, 0, 0}, {0, 0, 5}, {0, 0, 3}}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
        const Skeleton animSkel =
            smdSkeleton({"root", "head", "prop"}, {kNoJoint, 0, 0}, {0, 1, 2}, {}, {});
        const AnimationBinding b = bindAnimation(ref, animSkel, PoseKind::LocalEulerXYZ);
        QCOMPARE(b.missingInAnimation, (std::vector<JointIndex>{1}));
        QCOMPARE(b.missingInReference, (std::vector<JointIndex>{2}));
        const Animation anim = eulerAnimation(3, {{{Vec3(0, 0, 0), Vec3(0, 0, 0)},
                                                   {Vec3(0, 0, 3), Vec3(0, 0, 0)},
                                                   {Vec3(7, 7, 7), Vec3(0, 0, 0)}},
                                                  {{Vec3(0, 0, 0), Vec3(kPi / 2, 0, 0)},
                                                   {Vec3(0, 0, 4), Vec3(0, 0, 0)},
                                                   {Vec3(7, 7, 7), Vec3(0, 0, 0)}}});
        const PoseRig rig = makePoseRig(ref);
        PoseBuffers buf;
        buf.resize(3, 3, 0, false, 0);
        QVERIFY(evaluatePose(rig, &anim, &b, frameAtIndex(anim, 1), Interpolation::Stepped, buf));
        // root turned 90 about X: +Z goes to -Y. spine (bind local 0,0,5) follows. The animation
        // hangs head under root, the reference under spine: head keeps its place in the
        // animation's world (4 along root's +Z), re-expressed under spine as studiomdl compiles
        // it, not its key taken as a local under spine (which put it at 0,-9,0).
        QCOMPARE(b.viaWorld, (std::vector<std::uint8_t>{0, 0, 1}));
        QVERIFY2(near(buf.model[1].translation(), Vec3(0, -5, 0)),
                 show(buf.model[1].translation()));
        QVERIFY2(near(buf.model[2].translation(), Vec3(0, -4, 0)),
                 show(buf.model[2].translation()));
        QVERIFY2(near(buf.local[2].translation(), Vec3(0, 0, -1)),
                 show(buf.local[2].translation()));
    }

    void sampling()
    {
        const Animation anim = eulerAnimation(
            1, {{{Vec3(0, 0, 0), Vec3(0, 0, 0)}}, {{Vec3(2, 0, 0), Vec3(0, 0, kPi / 2)}}});
        std::vector<Xform> out(1);
        const FrameSample mid = frameAtIndex(anim, 0.5);
        QCOMPARE(mid.frame0, std::size_t{0});
        QCOMPARE(mid.frame1, std::size_t{1});
        QCOMPARE(mid.t, 0.5f);
        QVERIFY(makeSampleJob(anim, mid, Interpolation::Stepped, out).run());
        QVERIFY(near(out[0].translation(), Vec3(0, 0, 0)));
        QVERIFY(makeSampleJob(anim, mid, Interpolation::Linear, out).run());
        QVERIFY(near(out[0].translation(), Vec3(1, 0, 0)));
        QVERIFY(nearM(out[0].linear(), eulerToMatrix(Vec3(0, 0, kPi / 4))));
        QVERIFY(makeSampleJob(anim, mid, Interpolation::Slerp, out).run());
        QVERIFY(nearM(out[0].linear(), eulerToMatrix(Vec3(0, 0, kPi / 4))));
        QCOMPARE(frameAtIndex(anim, 7.0).frame0, std::size_t{1});
        QCOMPARE(frameAtIndex(anim, -1.0).frame0, std::size_t{0});

        // time gaps hold the previous pose; only the last unit before the next key blends
        Animation gap =
            eulerAnimation(1, {{{Vec3(0, 0, 0), Vec3(0, 0, 0)}}, {{Vec3(4, 0, 0), Vec3(0, 0, 0)}}});
        gap.times = {0, 4};
        gap.fps = 1.0f;
        FrameSample s = frameAtTime(gap, 2.0);
        QCOMPARE(s.frame0, std::size_t{0});
        QCOMPARE(s.t, 0.0f);
        s = frameAtTime(gap, 3.5);
        QCOMPARE(s.t, 0.5f);
        QCOMPARE(frameAtTime(gap, 9.0).frame0, std::size_t{1});
    }

    void skinTwoBones()
    {
        // bone 0 at rest, bone 1 posed 90 about Z around the origin; vertex half on each
        const std::vector<Xform> model{Xform::Identity(),
                                       Xform(Eigen::AngleAxisf(kPi / 2, Vec3::UnitZ()))};
        const std::vector<Xform> invBind{Xform::Identity(), Xform::Identity()};
        std::vector<SkinMatrix> skin(2);
        QVERIFY((SkinMatricesJob{model, invBind, skin}.run()));
        const std::vector<std::uint32_t> offsets{0, 2, 3, 3};
        const std::vector<JointIndex> joints{0, 1, 1};
        const std::vector<float> weights{0.5f, 0.5f, 1.0f};
        const std::vector<Vec3> pos{{2, 0, 0}, {1, 0, 0}, {3, 3, 3}};
        const std::vector<Vec3> nrm{{1, 0, 0}, {1, 0, 0}, {0, 0, 2}};
        std::vector<Vec3> outP(3), outN(3);
        SkinJob job{.skin = skin,
                    .offsets = offsets,
                    .joints = joints,
                    .weights = weights,
                    .positions = pos,
                    .normals = nrm,
                    .outPositions = outP,
                    .outNormals = outN};
        QVERIFY(job.run());
        QVERIFY(near(outP[0], Vec3(1, 1, 0)));
        QVERIFY(near(outN[0], Vec3(1, 1, 0).normalized()));
        QVERIFY(near(outP[1], Vec3(0, 1, 0)));
        QVERIFY(near(outP[2], Vec3(3, 3, 3))); // no influence: unchanged
        QVERIFY(near(outN[2], Vec3(0, 0, 2)));
        // a bad joint index makes the job refuse, output untouched
        const std::vector<JointIndex> bad{0, 5, 1};
        job.joints = bad;
        outP[0] = Vec3(9, 9, 9);
        QVERIFY(!job.validate());
        QVERIFY(!job.run());
        QVERIFY(near(outP[0], Vec3(9, 9, 9)));
    }

    void invalidInputs_data()
    {
        QTest::addColumn<std::vector<JointIndex>>("parents");
        QTest::addColumn<int>("localCount");
        QTest::addColumn<int>("modelCount");
        QTest::newRow("parent after child") << std::vector<JointIndex>{1, kNoJoint} << 2 << 2;
        QTest::newRow("self parent") << std::vector<JointIndex>{kNoJoint, 1} << 2 << 2;
        QTest::newRow("parent below -1") << std::vector<JointIndex>{-2} << 1 << 1;
        QTest::newRow("short local") << std::vector<JointIndex>{kNoJoint, 0} << 1 << 2;
        QTest::newRow("short model") << std::vector<JointIndex>{kNoJoint, 0} << 2 << 1;
    }
    void invalidInputs()
    {
        QFETCH(std::vector<JointIndex>, parents);
        QFETCH(int, localCount);
        QFETCH(int, modelCount);
        const Xform marker(Eigen::Translation3f(4, 5, 6));
        std::vector<Xform> local(static_cast<std::size_t>(localCount), Xform::Identity());
        std::vector<Xform> model(static_cast<std::size_t>(modelCount), marker);
        LocalToModelJob ltm{.parents = parents, .local = local, .model = model};
        QVERIFY(!ltm.validate());
        QVERIFY(!ltm.run());
        for (const Xform& x : model) {
            QVERIFY(nearX(x, marker));
        }
        std::vector<Xform> local2(static_cast<std::size_t>(localCount), marker);
        ModelToLocalJob mtl{parents, model, local2};
        QVERIFY(!mtl.run());
    }

    void invalidShapes()
    {
        // retarget: an animation joint index past the sampled buffer
        const std::vector<JointIndex> parents{kNoJoint, 0};
        const std::vector<JointIndex> animOf{0, 3};
        std::vector<Xform> bind(2), sampled(2), outLocal(2);
        RetargetJob rt{.parents = parents,
                       .animJointOfRef = animOf,
                       .bindLocal = bind,
                       .sampled = sampled,
                       .local = outLocal};
        QVERIFY(!rt.run());
        std::vector<Xform> sample(1);
        Animation empty;
        empty.jointCount = 1;
        QVERIFY(!makeSampleJob(empty, {}, Interpolation::Stepped, sample).run()); // no frames

        const std::vector<Vec3> pos(2, Vec3::Zero()), rot(1, Vec3::Zero());
        std::vector<Xform> local(2);
        QVERIFY(!(EulerToLocalJob{pos, rot, local}.validate()));
        const std::vector<float> weights{1.0f};
        const std::vector<std::uint32_t> offsets{0, 1};
        const std::vector<std::uint32_t> targets{5}; // out of range
        const std::vector<Vec3> deltas{Vec3::Ones()};
        std::vector<Vec3> out(2, Vec3::Zero());
        MorphJob morph{.basePositions = pos,
                       .shapeWeights = weights,
                       .shapeOffsets = offsets,
                       .targets = targets,
                       .deltaPositions = deltas,
                       .outPositions = out};
        QVERIFY(!morph.run());
    }

    // A VTA shape moves known vertices; morphs apply in bind space, before skinning.
    void vtaShapeMovesKnownVertices()
    {
        Model ref;
        ref.skeleton = smdSkeleton({"root"}, {kNoJoint}, {0}, {{0, 0, 0}}, {{0, 0, 0}});
        ref.mesh = twoTriangles(0);
        Model vta;
        VertexFrame base;
        for (std::int32_t i = 0; i < 6; ++i) {
            base.ids.push_back(i);
            base.positions.push_back(ref.mesh.pointPositions[static_cast<std::size_t>(i)]);
            base.normals.push_back(Vec3::UnitZ());
        }
        vta.vertexFrames.push_back(base);
        FlexShape up;
        up.name = "up";
        up.ids = {1, 3, 4}; // point (1,0,0) appears as corners 1 and 3
        up.deltaPositions = {{0, 0, 1}, {0, 0, 1}, {0, 0, 2}};
        up.deltaNormals.assign(3, Vec3::Zero());
        FlexShape side;
        side.name = "side";
        side.ids = {0};
        side.deltaPositions = {{-1, 0, 0}};
        side.deltaNormals = {Vec3::Zero()};
        vta.flexShapes = {up, side};

        const FlexTargets flex = bindFlexShapes(ref.mesh, vta);
        QVERIFY(flex.direct);
        QCOMPARE(flex.shapeCount(), std::size_t{2});
        QCOMPARE(flex.targets, (std::vector<std::uint32_t>{1, 3, 4, 0}));

        const PoseRig rig = makePoseRig(ref.skeleton);
        const SkinTarget target =
            makePointSkinTarget(ref.mesh, 1, Profile::Source, WeightView::Authored);
        PoseBuffers buf;
        buf.resize(1, 0, target.vertexCount(), true, flex.shapeCount());
        buf.flexWeights = {0.5f, 0.0f};
        QVERIFY(evaluatePose(rig, nullptr, nullptr, {}, Interpolation::Stepped, buf));
        QVERIFY(evaluateSkin(rig, target, &flex, buf));
        QVERIFY(near(buf.positions[1], Vec3(1, 0, 0.5f)));
        QVERIFY(near(buf.positions[3], Vec3(1, 0, 0.5f)));
        QVERIFY(near(buf.positions[4], Vec3(1, 1, 1)));
        QVERIFY(near(buf.positions[0], Vec3(0, 0, 0)));
        QVERIFY(near(buf.positions[2], Vec3(0, 1, 0)));

        // posed: the root turns 90 about Z; the delta turns with it (morph before skin)
        buf.model[0] = Xform(Eigen::AngleAxisf(kPi / 2, Vec3::UnitZ()));
        buf.flexWeights = {0.0f, 1.0f};
        QVERIFY(evaluateSkin(rig, target, &flex, buf));
        QVERIFY2(near(buf.positions[0], Vec3(0, -1, 0)), show(buf.positions[0])); // not (-1,0,0)

        // matched by position when ids are not 3t+c: one base vertex at (1,0,0) moves both corners
        Model welded;
        VertexFrame wb;
        wb.ids = {0, 1};
        wb.positions = {{1, 0, 0}, {0.05f, 0, 0}}; // second: nearest corner within 0.15
        wb.normals.assign(2, Vec3::UnitZ());
        welded.vertexFrames.push_back(wb);
        FlexShape s;
        s.name = "s";
        s.ids = {0, 1};
        s.deltaPositions = {{0, 0, 3}, {0, 0, 1}};
        welded.flexShapes.push_back(s);
        const FlexTargets byPos = bindFlexShapes(ref.mesh, welded);
        QVERIFY(!byPos.direct);
        QCOMPARE(byPos.targets, (std::vector<std::uint32_t>{1, 3, 0}));
        QCOMPARE(byPos.unmatchedBase, std::size_t{0});
    }

    void rigidCodVertexUsesBoneZero()
    {
        Mesh m;
        m.pointPositions = {{1, 0, 0}};
        m.pointParents = {kNoJoint};
        m.pointLinkState = {LinkState::Zero};
        m.influenceOffsets = {0, 0};
        const Influences inf = effectiveInfluences(m, 2, Profile::Cod, WeightView::Compiled);
        QCOMPARE(inf.joints, (std::vector<JointIndex>{0}));
        QCOMPARE(inf.weights, (std::vector<float>{1.0f}));
    }

    void runAllocatesNothing()
    {
        const Skeleton ref = smdSkeleton({"a", "b", "c"}, {kNoJoint, 0, 1}, {0, 1, 2},
                                         {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}},
                                         {{0.1f, 0.2f, 0.3f}, {0, 0, 1}, {1, 0, 0}});
        const PoseRig rig = makePoseRig(ref);
        const Animation anim = eulerAnimation(3, {{{Vec3(0, 0, 0), Vec3(0, 0, 0)},
                                                   {Vec3(0, 0, 1), Vec3(0, 0, 0)},
                                                   {Vec3(0, 1, 0), Vec3(0, 0, 0)}},
                                                  {{Vec3(1, 0, 0), Vec3(1, 0, 0)},
                                                   {Vec3(0, 0, 1), Vec3(0, 1, 0)},
                                                   {Vec3(0, 1, 0), Vec3(0, 0, 1)}}});
        const AnimationBinding b = bindAnimation(ref, ref, PoseKind::LocalEulerXYZ);
        Mesh mesh = twoTriangles(1);
        mesh.pointLinkState[2] = LinkState::List;
        mesh.influenceJoints = {0, 2, 1};
        mesh.influenceWeights = {0.5f, 0.3f, 0.2f};
        for (std::size_t i = 3; i < mesh.influenceOffsets.size(); ++i) {
            mesh.influenceOffsets[i] = 3;
        }
        const SkinTarget target =
            makePointSkinTarget(mesh, 3, Profile::Source, WeightView::Compiled);
        Model vta;
        VertexFrame base;
        for (std::int32_t i = 0; i < 6; ++i) {
            base.ids.push_back(i);
            base.positions.push_back(mesh.pointPositions[static_cast<std::size_t>(i)]);
        }
        vta.vertexFrames.push_back(base);
        FlexShape s;
        s.ids = {2};
        s.deltaPositions = {{0, 0, 1}};
        s.deltaNormals = {{0, 0, 0}};
        vta.flexShapes.push_back(s);
        const FlexTargets flex = bindFlexShapes(mesh, vta);
        PoseBuffers buf;
        buf.resize(3, 3, target.vertexCount(), true, 1);
        buf.flexWeights[0] = 0.7f;
        std::vector<Xform> local(3), model(3);
        std::vector<Xform> cod(3);
        const std::vector<Mat3> axes(3, Mat3::Identity());
        long calls = -1;
        {
            AllocationCounter counter;
            bool ok = true;
            for (int frame = 0; frame < 4; ++frame) {
                const Interpolation mode = static_cast<Interpolation>(frame % 3);
                ok = ok && evaluatePose(rig, &anim, &b, frameAtIndex(anim, frame * 0.4), mode, buf);
                ok = ok && evaluateSkin(rig, target, &flex, buf);
            }
            ok = ok && EulerToLocalJob{ref.bindPositions, ref.bindRotations, local}.run();
            ok =
                ok && LocalToModelJob{.parents = ref.parents, .local = local, .model = model}.run();
            ok = ok && AxesToModelJob{ref.bindPositions, axes, cod}.run();
            ok = ok && ModelToLocalJob{ref.parents, cod, local}.run();
            ok = ok && frameAtTime(anim, 0.01).frame1 == 1;
            calls = counter.calls();
            QVERIFY(ok);
        }
        QCOMPARE(calls, 0L);
        // the counter works
        {
            AllocationCounter counter;
            void* p = ::operator new(16);
            ::operator delete(p);
            calls = counter.calls();
        }
        QCOMPARE(calls, 1L);
    }
};

QTEST_APPLESS_MAIN(TstPoseJobs)
#include "tst_pose_jobs.moc"
