#include "core/project/qc_collision_pose.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/model/rotation.h"
#include "core/pose/effective_weights.h"
#include "core/project/qc_compile.h"
#include "core/text/ascii.h"

namespace rigscope::core {

std::vector<RigidXf> eulerWorld(const Skeleton& sk, const std::vector<Vec3>& rotations,
                                const std::vector<Vec3>& positions)
{
    std::vector<RigidXf> w(sk.size());
    for (std::size_t j = 0; j < sk.size(); ++j) {
        const RigidXf local{eulerToQuaternion(rotations[j]), positions[j].cast<double>()};
        const JointIndex p = sk.parents[j];
        w[j] = p != kNoJoint && static_cast<std::size_t>(p) < j
                   ? w[static_cast<std::size_t>(p)] * local
                   : local;
    }
    return w;
}

namespace {

// `col`'s points through its file's bind pose into bone space and out through `a` (frame 0)
// on the merged skeleton `sk`, divided by `scale`. False (and `col` untouched) when a point's
// bone is not in `sk` or either skeleton has no Euler bind pose.
bool poseCollision(Model& col, const Skeleton& sk, const Animation& a, float scale, Profile profile)
{
    const Skeleton& fs = col.skeleton;
    if (fs.bindKind != PoseKind::LocalEulerXYZ || sk.bindKind != PoseKind::LocalEulerXYZ ||
        !(scale != 0.0f)) {
        return false;
    }
    std::vector<Vec3> rot(sk.bindRotations.begin(), sk.bindRotations.end());
    std::vector<Vec3> pos(sk.bindPositions.begin(), sk.bindPositions.end());
    if (a.kind == PoseKind::LocalEulerXYZ && a.jointCount == sk.size() && a.frameCount() == 1) {
        for (std::size_t j = 0; j < sk.size(); ++j) {
            rot[j] = a.rotations[a.key(0, j)];
            pos[j] = a.positions[a.key(0, j)];
        }
    }
    const std::vector<RigidXf> pose = eulerWorld(sk, rot, pos);
    std::vector<Vec3> fileRot(fs.bindRotations.begin(), fs.bindRotations.end());
    std::vector<Vec3> filePos;
    for (const Vec3& v : fs.bindPositions) {
        filePos.push_back(v * scale);
    }
    const std::vector<RigidXf> fileBind = eulerWorld(fs, fileRot, filePos);
    std::unordered_map<std::string, std::size_t> merged;
    for (std::size_t j = 0; j < sk.size(); ++j) {
        merged.emplace(asciiLower(sk.names[j]), j);
    }
    std::vector<std::int32_t> toMerged(fs.size(), -1);
    for (std::size_t j = 0; j < fs.size(); ++j) {
        const auto it = merged.find(asciiLower(fs.names[j]));
        toMerged[j] = it == merged.end() ? -1 : static_cast<std::int32_t>(it->second);
    }
    std::vector<Vec3> out(col.mesh.pointCount());
    std::vector<Link> links;
    for (std::size_t pt = 0; pt < col.mesh.pointCount(); ++pt) {
        effectiveLinks(rawLinks(col.mesh, pt), profile, WeightView::Compiled, kNoJoint, links);
        const Vec3 v = col.mesh.pointPositions[pt] * scale;
        Eigen::Vector3d sum = Eigen::Vector3d::Zero();
        double total = 0;
        for (const Link& l : links) {
            if (l.joint < 0 || static_cast<std::size_t>(l.joint) >= fs.size() ||
                toMerged[static_cast<std::size_t>(l.joint)] < 0) {
                return false;
            }
            const auto j = static_cast<std::size_t>(l.joint);
            const auto g = static_cast<std::size_t>(toMerged[j]);
            sum += l.weight * pose[g].apply(fileBind[j].applyInverse(v).cast<float>());
            total += l.weight;
        }
        if (!(total > 0)) {
            return false;
        }
        out[pt] = (sum / total / static_cast<double>(scale)).cast<float>();
    }
    col.mesh.pointPositions = std::move(out);
    return true;
}

} // namespace

Model qcCollisionMesh(const QcProject& project, const QcCompiled& compiled, const Model& file,
                      std::int32_t ref, bool* posed)
{
    Model out = file;
    const float scale = qcFileScale(project, ref);
    const bool worldspace =
        std::any_of(project.collision.options.begin(), project.collision.options.end(),
                    [](const QcCollisionOption& o) { return o.name == "assumeworldspace"; });
    const bool goldsrc = goldSrcFamily(project.profile);
    bool done = !project.staticProp && !goldsrc && !worldspace &&
                poseCollision(out, compiled.model.skeleton, qcCollisionPose(project, compiled),
                              scale, project.profile);
    if (!done && scale != 0.0f) {
        if (project.staticProp && !goldsrc && !worldspace) {
            const Mat3 turn = qcUpAxisTurn(project).toRotationMatrix();
            for (std::vector<Vec3>* list : {&out.mesh.pointPositions, &out.mesh.cornerNormals}) {
                for (Vec3& v : *list) {
                    v = turn * v;
                }
            }
            const Vec3 shift = qcStaticPropOffset(project) / scale;
            for (Vec3& v : out.mesh.pointPositions) {
                v += shift;
            }
        } else {
            const Vec3 shift = project.origin / scale;
            for (Vec3& v : out.mesh.pointPositions) {
                v -= shift;
            }
        }
    }
    if (posed) {
        *posed = done;
    }
    return out;
}

} // namespace rigscope::core
