#pragma once

#include <string_view>

#include "core/model/types.h"

namespace rigscope::core {

// How bone transforms are written in the source file.
enum class PoseKind : std::uint8_t {
    LocalEulerXYZ,   // SMD/SMDX/VTA: parent-relative position + Euler XYZ radians (R = Rz*Ry*Rx)
    ModelMatrix,     // XMODEL/XANIM: model-space OFFSET + X/Y/Z axis columns (+ SCALE)
    LocalQuaternion, // DMX: parent-relative position + unit quaternion (x, y, z, w), as written
};

// Parent-relative kinds (Euler, quaternion) pose as local[i] = T * R under the parent; the
// matrix kind gives model-space transforms.
constexpr bool isParentRelative(PoseKind k) noexcept
{
    return k != PoseKind::ModelMatrix;
}

// Joints in parent-before-child order (invariant: parents[i] < i). The builder reorders the
// file's bones with a stable topological sort, so files already in that order keep it.
struct Skeleton {
    std::vector<std::string> names;      // raw bytes between the quotes
    std::vector<JointIndex> parents;     // kNoJoint for roots
    std::vector<std::int32_t> sourceIds; // node id as written (SMD ids may have gaps)
    std::vector<SourceLoc> where;        // the nodes / BONE line

    // Bind pose, as written. For SMD this is the skeleton block's first frame (missing bones:
    // zero), for XMODEL the BONE transform blocks.
    PoseKind bindKind = PoseKind::LocalEulerXYZ;
    std::vector<Vec3> bindPositions;        // SMD: parent-relative; CoD: model-space OFFSET
    std::vector<Vec3> bindRotations;        // SMD: Euler XYZ radians; CoD, DMX: unused (zero)
    std::vector<Vec4> bindQuaternions;      // DMX: (x, y, z, w); one per joint, else empty
    std::vector<Mat3> bindAxes;             // CoD: columns = X, Y, Z lines; SMD: unused (identity)
    std::vector<Vec3> bindScales;           // CoD SCALE (1,1,1 when absent)
    std::vector<std::uint8_t> bindHasScale; // CoD: 1 when a SCALE line was written
    std::vector<SourceLoc> bindWhere;       // pose line / BONE i block

    std::size_t size() const noexcept { return names.size(); }
    bool empty() const noexcept { return names.empty(); }
    JointIndex findBySourceId(std::int32_t id) const noexcept;
    // Exact match first, then case-insensitive (ASCII). kNoJoint when absent.
    JointIndex findByName(std::string_view name) const noexcept;
    std::size_t rootCount() const noexcept;
    // Appends a joint with identity bind transform (an identity quaternion too when bindKind is
    // LocalQuaternion); returns its index. Does not check order.
    JointIndex addJoint(std::string name, JointIndex parent, std::int32_t sourceId, SourceLoc loc);

    bool operator==(const Skeleton& o) const noexcept; // ignores `where` arrays
};

} // namespace rigscope::core
