#include "core/ops/compare_ghost.h"

#include <string>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/pose/effective_weights.h"
#include "core/pose/pose_rig.h"
#include "core/text/ascii.h"

namespace rigscope::core {

void placeGhostOnSource(Model& compiled, const Skeleton& source)
{
    const Skeleton& gs = compiled.skeleton;
    if (gs.empty() || source.empty()) {
        return;
    }
    const PoseRig ghostRig = makePoseRig(gs);
    const PoseRig sourceRig = makePoseRig(source);
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t j = 0; j < source.size(); ++j) {
        byName.emplace(asciiLower(source.names[j]), j);
    }
    // Per compiled bone: compiled bind space -> the source's bind space, through the bone.
    std::vector<Eigen::Affine3d> delta(gs.size(), Eigen::Affine3d::Identity());
    for (std::size_t j = 0; j < gs.size(); ++j) {
        const auto it = byName.find(asciiLower(gs.names[j]));
        const JointIndex p = gs.parents[j];
        if (it != byName.end() && j < ghostRig.bindModel.size() &&
            it->second < sourceRig.bindModel.size()) {
            delta[j] = sourceRig.bindModel[it->second].cast<double>() *
                       ghostRig.bindModel[j].cast<double>().inverse();
        } else if (p != kNoJoint && static_cast<std::size_t>(p) < j) {
            delta[j] = delta[static_cast<std::size_t>(p)];
        }
    }
    Mesh& mesh = compiled.mesh;
    std::vector<Eigen::Matrix3d> turn(mesh.pointCount(), Eigen::Matrix3d::Identity());
    std::vector<Link> links;
    for (std::size_t pt = 0; pt < mesh.pointCount(); ++pt) {
        effectiveLinks(rawLinks(mesh, pt), Profile::Source, WeightView::Authored, kNoJoint, links);
        Eigen::Vector3d sum = Eigen::Vector3d::Zero();
        Eigen::Matrix3d rot = Eigen::Matrix3d::Zero();
        double total = 0;
        const Eigen::Vector3d v = mesh.pointPositions[pt].cast<double>();
        for (const Link& l : links) {
            if (l.joint < 0 || static_cast<std::size_t>(l.joint) >= gs.size() || !(l.weight > 0)) {
                continue;
            }
            const Eigen::Affine3d& d = delta[static_cast<std::size_t>(l.joint)];
            sum += l.weight * (d * v);
            rot += l.weight * d.linear();
            total += l.weight;
        }
        if (total > 0) {
            mesh.pointPositions[pt] = (sum / total).cast<float>();
            turn[pt] = rot / total;
        }
    }
    for (std::size_t c = 0; c < mesh.cornerNormals.size() && c < mesh.cornerPoints.size(); ++c) {
        const std::uint32_t pt = mesh.cornerPoints[c];
        if (pt < turn.size()) {
            const Eigen::Vector3d n = turn[pt] * mesh.cornerNormals[c].cast<double>();
            if (n.norm() > 0) {
                mesh.cornerNormals[c] = n.normalized().cast<float>();
            }
        }
    }
}

} // namespace rigscope::core
