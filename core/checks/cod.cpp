// cod.* checks on the built model (CHECKS.md §4.7); count and index checks are the readers'.
#include <cmath>

#include <Eigen/LU>

#include "core/checks/check_util.h"
#include "core/checks/checks.h"
#include "core/text/plural.h"

namespace rigscope::core::checks {

namespace {

// Largest deviation from orthonormal of the X/Y/Z rows; `det` receives the determinant.
float orthoError(const Mat3& a, float& det)
{
    det = a.determinant();
    float e = std::abs(det - 1.0f);
    for (int i = 0; i < 3; ++i) {
        e = std::max(e, std::abs(a.col(i).norm() - 1.0f));
        for (int j = i + 1; j < 3; ++j) {
            e = std::max(e, std::abs(a.col(i).dot(a.col(j))));
        }
    }
    return std::isfinite(e) ? e : 0.0f; // NaN: mesh.nan reports it
}

bool nonUnit(const Vec3& s)
{
    return (s - Vec3::Ones()).cwiseAbs().maxCoeff() > 1e-6f;
}

std::string vec(const Vec3& v)
{
    return num(v.x()) + " " + num(v.y()) + " " + num(v.z());
}

} // namespace

void checkCodRootCount(const Model& m, const Profile&, DiagnosticSink& sink)
{
    if (!isXModel(m) || m.skeleton.empty()) {
        return;
    }
    const Skeleton& s = m.skeleton;
    std::size_t roots = 0;
    std::size_t extra = SIZE_MAX;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (s.parents[j] == kNoJoint) {
            if (++roots == 2) {
                extra = j;
            }
        }
    }
    if (roots != 1) {
        sink.error(ids::kCodRootCount, jointLoc(s, extra),
                   std::to_string(roots) + " root bones; CoD requires exactly 1",
                   {K::Joint, static_cast<std::int32_t>(extra)});
    }
}

void checkCodBoneMatrix(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    if (isXModel(m) && s.bindKind == PoseKind::ModelMatrix) {
        for (std::size_t j : jointsInFileOrder(s)) {
            float det = 0;
            if (orthoError(s.bindAxes[j], det) > 1e-3f) {
                sink.warning(ids::kCodBoneMatrix,
                             s.bindWhere[j].line ? s.bindWhere[j] : jointLoc(s, j),
                             "bone " + quoted(s.names[j]) + " rotation not orthonormal (det " +
                                 num(det) + ")",
                             {K::Joint, static_cast<std::int32_t>(j)});
            }
        }
    }
    if (!isXAnim(m)) {
        return;
    }
    for (const Animation& a : m.animations) {
        if (a.kind != PoseKind::ModelMatrix || a.axes.size() != a.frameCount() * a.jointCount) {
            continue;
        }
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            for (std::size_t f = 0; f < a.frameCount(); ++f) {
                float det = 0;
                if (orthoError(a.axes[a.key(f, j)], det) > 1e-3f) {
                    sink.warning(ids::kCodBoneMatrix, a.frameWhere[f],
                                 "bone " + quoted(boneName(s, static_cast<JointIndex>(j))) +
                                     " rotation not orthonormal (det " + num(det) + ") at frame " +
                                     num(a.times[f]),
                                 {K::Joint, static_cast<std::int32_t>(j)});
                    break;
                }
            }
        }
    }
}

void checkCodNonUnitScale(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    if (isXModel(m)) {
        for (std::size_t j : jointsInFileOrder(s)) {
            if (s.bindHasScale[j] && nonUnit(s.bindScales[j])) {
                sink.warning(ids::kCodNonUnitScale,
                             s.bindWhere[j].line ? s.bindWhere[j] : jointLoc(s, j),
                             "bone " + quoted(s.names[j]) + " scale " + vec(s.bindScales[j]) +
                                 "; ignored by PyCoD and lost in SMD",
                             {K::Joint, static_cast<std::int32_t>(j)});
            }
        }
    }
    if (!isXAnim(m)) {
        return;
    }
    for (const Animation& a : m.animations) {
        if (a.scales.size() != a.frameCount() * a.jointCount) {
            continue;
        }
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            for (std::size_t f = 0; f < a.frameCount(); ++f) {
                if (nonUnit(a.scales[a.key(f, j)])) {
                    sink.warning(ids::kCodNonUnitScale, a.frameWhere[f],
                                 "bone " + quoted(boneName(s, static_cast<JointIndex>(j))) +
                                     " scale " + vec(a.scales[a.key(f, j)]) +
                                     "; ignored by PyCoD and lost in SMD",
                                 {K::Joint, static_cast<std::int32_t>(j)});
                    break;
                }
            }
        }
    }
}

void checkCodColorRange(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    std::size_t k = 0;
    std::size_t first = SIZE_MAX;
    for (std::size_t c = 0; c < me.cornerColors.size(); ++c) {
        const Vec4& col = me.cornerColors[c];
        if ((col.array() < 0.0f).any() || (col.array() > 1.0f).any()) {
            ++k;
            if (first == SIZE_MAX) {
                first = c;
            }
        }
    }
    if (k == 0) {
        return;
    }
    const Vec4& e = me.cornerColors[first];
    const std::size_t v = isXModel(m) ? me.cornerPoints[first] : first;
    sink.note(ids::kCodColorRange, me.cornerWhere[first],
              plural(k, "vertex colour") + " outside 0..1 (e.g. " + num(e.x()) + " " + num(e.y()) +
                  " " + num(e.z()) + " " + num(e.w()) + ")",
              {K::Vertex, static_cast<std::int32_t>(v)});
}

} // namespace rigscope::core::checks
