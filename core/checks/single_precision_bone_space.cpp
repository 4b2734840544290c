#include "core/checks/single_precision_bone_space.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

// Built with -ffp-contract=off (core/CMakeLists.txt): with E = float every product and sum below
// is rounded to float on its own, as abstudiomdl's SSE code rounds it (a fused multiply-add would
// not be); with E = double each expression is evaluated in double and rounded to float where
// studiomdl stores it in a float, as Valve's 32-bit x87 build does (precision control at 53
// bits, Microsoft's C runtime default).

namespace rigscope::core::checks {

namespace {

constexpr double kPi = 3.14159265358979323846;

using Rot3 = std::array<std::array<float, 3>, 3>;

struct BoneFrame {
    Rot3 toModel{};   // the bone's rotation in model space
    Rot3 fromModel{}; // its inverse, built as a product of inverses (not a transpose)
    std::array<float, 3> origin{};
};

// Grab_Skeleton's wrap of each angle into [-pi, pi), in double and stored as float; an angle
// too large for 2 pi steps to move it as a float is left as it is (studiomdl would loop).
float wrapAngle(float radians) noexcept
{
    if (!std::isfinite(radians) || std::fabs(radians) > 1.0e4f) {
        return radians;
    }
    while (radians >= kPi) {
        radians = static_cast<float>(radians - kPi * 2);
    }
    while (radians < -kPi) {
        radians = static_cast<float>(radians + kPi * 2);
    }
    return radians;
}

// The sine and cosine of an angle given in degrees: the angle back in radians (a double
// product stored as float), its sine and cosine in double, stored as float.
void sinCos(float degrees, float& s, float& c) noexcept
{
    const auto radians = static_cast<float>(degrees * (kPi * 2 / 360));
    s = static_cast<float>(std::sin(static_cast<double>(radians)));
    c = static_cast<float>(std::cos(static_cast<double>(radians)));
}

// AngleMatrix (inverse = false) and AngleIMatrix (true): Z * Y * X from degrees, each entry
// an expression evaluated left to right in E and stored as float; the inverse holds the same
// entries transposed.
template <typename E> Rot3 angleMatrix(const std::array<float, 3>& degrees, bool inverse) noexcept
{
    float fsr = 0, fcr = 0, fsp = 0, fcp = 0, fsy = 0, fcy = 0;
    sinCos(degrees[2], fsy, fcy);
    sinCos(degrees[1], fsp, fcp);
    sinCos(degrees[0], fsr, fcr);
    const E sr = fsr, cr = fcr, sp = fsp, cp = fcp, sy = fsy, cy = fcy;
    Rot3 r{};
    r[0][0] = static_cast<float>(cp * cy);
    r[1][0] = static_cast<float>(cp * sy);
    r[2][0] = static_cast<float>(-sp);
    r[0][1] = static_cast<float>(sr * sp * cy + cr * -sy);
    r[1][1] = static_cast<float>(sr * sp * sy + cr * cy);
    r[2][1] = static_cast<float>(sr * cp);
    r[0][2] = static_cast<float>(cr * sp * cy + -sr * -sy);
    r[1][2] = static_cast<float>(cr * sp * sy + -sr * cy);
    r[2][2] = static_cast<float>(cr * cp);
    if (inverse) {
        Rot3 t{};
        for (std::size_t i = 0; i < 3; ++i) {
            for (std::size_t j = 0; j < 3; ++j) {
                t[i][j] = r[j][i];
            }
        }
        return t;
    }
    return r;
}

// R_ConcatTransforms on the rotation part (the translations stay zero).
template <typename E> Rot3 concat(const Rot3& a, const Rot3& b) noexcept
{
    Rot3 o{};
    for (std::size_t i = 0; i < 3; ++i) {
        for (std::size_t j = 0; j < 3; ++j) {
            o[i][j] = static_cast<float>(E(a[i][0]) * E(b[0][j]) + E(a[i][1]) * E(b[1][j]) +
                                         E(a[i][2]) * E(b[2][j]));
        }
    }
    return o;
}

// VectorTransform by a matrix of zero translation: one dot product a row, stored as float.
template <typename E>
std::array<float, 3> rotate(const std::array<float, 3>& v, const Rot3& m) noexcept
{
    std::array<float, 3> o{};
    for (std::size_t i = 0; i < 3; ++i) {
        o[i] =
            static_cast<float>(E(v[0]) * E(m[i][0]) + E(v[1]) * E(m[i][1]) + E(v[2]) * E(m[i][2]));
    }
    return o;
}

template <typename E> void boneSpacePointsIn(const Model& m, std::vector<Vec3>& out)
{
    const Mesh& me = m.mesh;
    const Skeleton& sk = m.skeleton;
    std::vector<BoneFrame> bones(sk.size());
    for (std::size_t j = 0; j < sk.size(); ++j) {
        std::array<float, 3> degrees{};
        for (std::size_t k = 0; k < 3; ++k) {
            const float radians = wrapAngle(sk.bindRotations[j][static_cast<Eigen::Index>(k)]);
            const double d = radians * (180.0 / kPi);
            // Beyond float's range (an absurd angle) infinity, not an undefined conversion.
            degrees[k] = std::fabs(d) <= std::numeric_limits<float>::max()
                             ? static_cast<float>(d)
                             : std::numeric_limits<float>::infinity();
        }
        const std::array<float, 3> pos{sk.bindPositions[j].x(), sk.bindPositions[j].y(),
                                       sk.bindPositions[j].z()};
        const Rot3 local = angleMatrix<E>(degrees, false);
        const Rot3 localInverse = angleMatrix<E>(degrees, true);
        const JointIndex parent = sk.parents[j];
        BoneFrame& b = bones[j];
        if (parent != kNoJoint && static_cast<std::size_t>(parent) < j) {
            const BoneFrame& p = bones[static_cast<std::size_t>(parent)];
            b.toModel = concat<E>(p.toModel, local);
            b.fromModel = concat<E>(localInverse, p.fromModel);
            const std::array<float, 3> moved = rotate<E>(pos, p.toModel);
            for (std::size_t k = 0; k < 3; ++k) {
                b.origin[k] = moved[k] + p.origin[k];
            }
        } else {
            b.toModel = local;
            b.fromModel = localInverse;
            b.origin = pos;
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        const JointIndex bone = me.pointParents[i];
        if (bone == kNoJoint || static_cast<std::size_t>(bone) >= sk.size()) {
            continue;
        }
        const BoneFrame& b = bones[static_cast<std::size_t>(bone)];
        const Vec3& p = me.pointPositions[i];
        const std::array<float, 3> offset{p.x() - b.origin[0], p.y() - b.origin[1],
                                          p.z() - b.origin[2]};
        const std::array<float, 3> local = rotate<E>(offset, b.fromModel);
        out[i] = Vec3(local[0], local[1], local[2]);
    }
}

} // namespace

void floatBoneSpacePoints(const Model& m, FloatArithmetic arithmetic, std::vector<Vec3>& out)
{
    if (arithmetic == FloatArithmetic::X87) {
        boneSpacePointsIn<double>(m, out);
    } else {
        boneSpacePointsIn<float>(m, out);
    }
}

} // namespace rigscope::core::checks
