#include "core/model/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <Eigen/Geometry>

#include "core/model/rotation.h"
#include "core/text/ascii.h"

namespace rigscope::core {

bool sameBits(float a, float b) noexcept
{
    if (std::isnan(a) && std::isnan(b)) {
        return true;
    }
    std::uint32_t x = 0, y = 0;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}

namespace {
template <typename M> bool sameBitsN(const M& a, const M& b) noexcept
{
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        if (!sameBits(a.data()[i], b.data()[i])) {
            return false;
        }
    }
    return true;
}

template <typename T> bool sameVec(const std::vector<T>& a, const std::vector<T>& b) noexcept
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if constexpr (std::is_same_v<T, float>) {
            if (!sameBits(a[i], b[i])) {
                return false;
            }
        } else if constexpr (std::is_base_of_v<Eigen::MatrixBase<T>, T>) {
            if (!sameBitsN(a[i], b[i])) {
                return false;
            }
        } else {
            if (!(a[i] == b[i])) {
                return false;
            }
        }
    }
    return true;
}
} // namespace

bool sameBits(const Vec2& a, const Vec2& b) noexcept
{
    return sameBitsN(a, b);
}
bool sameBits(const Vec3& a, const Vec3& b) noexcept
{
    return sameBitsN(a, b);
}
bool sameBits(const Vec4& a, const Vec4& b) noexcept
{
    return sameBitsN(a, b);
}
bool sameBits(const Mat3& a, const Mat3& b) noexcept
{
    return sameBitsN(a, b);
}

// ---- Skeleton ----------------------------------------------------------------------------

JointIndex Skeleton::findBySourceId(std::int32_t id) const noexcept
{
    for (std::size_t i = 0; i < sourceIds.size(); ++i) {
        if (sourceIds[i] == id) {
            return static_cast<JointIndex>(i);
        }
    }
    return kNoJoint;
}

JointIndex Skeleton::findByName(std::string_view name) const noexcept
{
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) {
            return static_cast<JointIndex>(i);
        }
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (asciiIEquals(names[i], name)) {
            return static_cast<JointIndex>(i);
        }
    }
    return kNoJoint;
}

std::size_t Skeleton::rootCount() const noexcept
{
    std::size_t n = 0;
    for (JointIndex p : parents) {
        n += p == kNoJoint ? 1 : 0;
    }
    return n;
}

JointIndex Skeleton::addJoint(std::string name, JointIndex parent, std::int32_t sourceId,
                              SourceLoc loc)
{
    names.push_back(std::move(name));
    parents.push_back(parent);
    sourceIds.push_back(sourceId);
    where.push_back(loc);
    bindPositions.push_back(Vec3::Zero());
    bindRotations.push_back(Vec3::Zero());
    if (bindKind == PoseKind::LocalQuaternion) {
        bindQuaternions.push_back(Vec4(0, 0, 0, 1));
    }
    bindAxes.push_back(Mat3::Identity());
    bindScales.push_back(Vec3::Ones());
    bindHasScale.push_back(0);
    bindWhere.push_back({});
    return static_cast<JointIndex>(names.size() - 1);
}

bool Skeleton::operator==(const Skeleton& o) const noexcept
{
    return names == o.names && parents == o.parents && sourceIds == o.sourceIds &&
           bindKind == o.bindKind && sameVec(bindPositions, o.bindPositions) &&
           sameVec(bindRotations, o.bindRotations) && sameVec(bindQuaternions, o.bindQuaternions) &&
           sameVec(bindAxes, o.bindAxes) && sameVec(bindScales, o.bindScales) &&
           bindHasScale == o.bindHasScale;
}

// ---- Animation ---------------------------------------------------------------------------

std::size_t Animation::appendFrame(double time, SourceLoc loc)
{
    const std::size_t f = times.size();
    times.push_back(time);
    frameWhere.push_back(loc);
    const std::size_t n = jointCount;
    const bool euler = kind == PoseKind::LocalEulerXYZ;
    const bool quaternion = kind == PoseKind::LocalQuaternion;
    if (f == 0) {
        positions.resize(n, Vec3::Zero());
        if (euler) {
            rotations.resize(n, Vec3::Zero());
        } else if (quaternion) {
            quaternions.resize(n, Vec4(0, 0, 0, 1));
        } else {
            axes.resize(n, Mat3::Identity()); // scales: the reader sizes them when it meets SCALE
        }
    } else {
        // Carry the previous frame forward. resize() grows geometrically, so appending frames
        // is amortised O(n) (an exact reserve per frame made it quadratic).
        const std::size_t prev = (f - 1) * n;
        const auto carry = [prev, n](auto& v) {
            v.resize(v.size() + n);
            std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(prev), n,
                        v.begin() + static_cast<std::ptrdiff_t>(prev + n));
        };
        carry(positions);
        if (euler) {
            carry(rotations);
        } else if (quaternion) {
            carry(quaternions);
        } else {
            carry(axes);
            if (!scales.empty()) {
                carry(scales);
            }
        }
    }
    explicitKey.resize(explicitKey.size() + n, 0);
    return f;
}

bool Animation::operator==(const Animation& o) const noexcept
{
    return name == o.name && kind == o.kind && sameBits(fps, o.fps) &&
           fpsFromFile == o.fpsFromFile && jointCount == o.jointCount && times == o.times &&
           sameVec(positions, o.positions) && sameVec(rotations, o.rotations) &&
           sameVec(quaternions, o.quaternions) && sameVec(axes, o.axes) &&
           sameVec(scales, o.scales) && explicitKey == o.explicitKey && notes == o.notes &&
           noteStyle == o.noteStyle;
}

// ---- Mesh --------------------------------------------------------------------------------

bool MaterialParam::operator==(const MaterialParam& o) const noexcept
{
    return key == o.key && sameVec(values, o.values);
}

bool Material::operator==(const Material& o) const noexcept
{
    return name == o.name && type == o.type && images == o.images && params == o.params;
}

bool Mesh::operator==(const Mesh& o) const noexcept
{
    return sameVec(pointPositions, o.pointPositions) && pointParents == o.pointParents &&
           pointLinkState == o.pointLinkState && influenceOffsets == o.influenceOffsets &&
           influenceJoints == o.influenceJoints && sameVec(influenceWeights, o.influenceWeights) &&
           cornerPoints == o.cornerPoints && sameVec(cornerNormals, o.cornerNormals) &&
           sameVec(cornerUvs, o.cornerUvs) && uvSetCount == o.uvSetCount &&
           sameVec(cornerExtraUvs, o.cornerExtraUvs) && sameVec(cornerColors, o.cornerColors) &&
           triangleMaterials == o.triangleMaterials && triangleObjects == o.triangleObjects &&
           materials == o.materials && objects == o.objects;
}

bool VertexFrame::operator==(const VertexFrame& o) const noexcept
{
    return time == o.time && name == o.name && nameFromComment == o.nameFromComment &&
           ids == o.ids && sameVec(positions, o.positions) && sameVec(normals, o.normals) &&
           wrinkles.size() == o.wrinkles.size() &&
           std::equal(wrinkles.begin(), wrinkles.end(), o.wrinkles.begin(),
                      [](float a, float b) { return sameBits(a, b); });
}

bool Attachment::operator==(const Attachment& o) const noexcept
{
    return name == o.name && joint == o.joint && sameBits(position, o.position) &&
           sameBits(rotation, o.rotation) && rigid == o.rigid && worldAligned == o.worldAligned;
}

// ---- Model -------------------------------------------------------------------------------

std::string_view kindName(ModelKind k) noexcept
{
    switch (k) {
    case ModelKind::Reference:
        return "reference";
    case ModelKind::Animation:
        return "animation";
    case ModelKind::Flex:
        return "flex";
    case ModelKind::Unknown:
        return "unknown";
    }
    return "unknown";
}

bool Model::operator==(const Model& o) const noexcept
{
    return kind == o.kind && skeleton == o.skeleton && mesh == o.mesh &&
           animations == o.animations && vertexFrames == o.vertexFrames &&
           flexControllers == o.flexControllers && flexDominators == o.flexDominators &&
           pointBalance == o.pointBalance && attachments == o.attachments;
}

namespace {
std::string fail(const char* what, std::size_t i = 0)
{
    return std::string(what) + " (index " + std::to_string(i) + ")";
}
} // namespace

std::string verifyInvariants(const Model& m)
{
    const Skeleton& s = m.skeleton;
    const std::size_t nj = s.names.size();
    if (s.parents.size() != nj || s.sourceIds.size() != nj || s.where.size() != nj ||
        s.bindPositions.size() != nj || s.bindRotations.size() != nj || s.bindAxes.size() != nj ||
        s.bindScales.size() != nj || s.bindHasScale.size() != nj || s.bindWhere.size() != nj) {
        return "skeleton arrays differ in length";
    }
    if (s.bindQuaternions.size() != (s.bindKind == PoseKind::LocalQuaternion ? nj : 0)) {
        return "skeleton quaternions differ in length from the joints";
    }
    for (std::size_t i = 0; i < nj; ++i) {
        if (s.parents[i] != kNoJoint &&
            (s.parents[i] < 0 || static_cast<std::size_t>(s.parents[i]) >= i)) {
            return fail("parent does not precede child", i);
        }
    }
    const Mesh& me = m.mesh;
    const std::size_t np = me.pointPositions.size();
    if (me.pointParents.size() != np || me.pointLinkState.size() != np ||
        me.pointWhere.size() != np) {
        return "point arrays differ in length";
    }
    if (!m.pointBalance.empty() && m.pointBalance.size() != np) {
        return "point balance differs in length from the points";
    }
    if (np > 0 || !me.influenceOffsets.empty()) {
        if (me.influenceOffsets.size() != np + 1 || me.influenceOffsets.front() != 0) {
            return "influence offsets malformed";
        }
        for (std::size_t p = 0; p < np; ++p) {
            if (me.influenceOffsets[p] > me.influenceOffsets[p + 1]) {
                return fail("influence offsets decrease", p);
            }
        }
        if (me.influenceOffsets.back() != me.influenceJoints.size() ||
            me.influenceJoints.size() != me.influenceWeights.size()) {
            return "influence arrays differ in length";
        }
    }
    for (std::size_t i = 0; i < me.influenceJoints.size(); ++i) {
        if (me.influenceJoints[i] < 0 || static_cast<std::size_t>(me.influenceJoints[i]) >= nj) {
            return fail("influence joint out of range", i);
        }
    }
    for (std::size_t p = 0; p < np; ++p) {
        const JointIndex j = me.pointParents[p];
        if (j != kNoJoint && (j < 0 || static_cast<std::size_t>(j) >= nj)) {
            return fail("point parent out of range", p);
        }
    }
    const std::size_t nt = me.triangleMaterials.size();
    const std::size_t nc = me.cornerPoints.size();
    if (nc != 3 * nt || me.cornerNormals.size() != nc || me.cornerUvs.size() != nc ||
        me.cornerWhere.size() != nc || me.triangleWhere.size() != nt) {
        return "corner / triangle arrays differ in length";
    }
    if (me.uvSetCount < 1 || me.cornerExtraUvs.size() != nc * (me.uvSetCount - 1)) {
        return "extra uv array has the wrong length";
    }
    if (!me.cornerColors.empty() && me.cornerColors.size() != nc) {
        return "corner colours have the wrong length";
    }
    if (!me.cornerVertices.empty() && me.cornerVertices.size() != nc) {
        return "corner vertices have the wrong length";
    }
    if (!me.triangleObjects.empty() && me.triangleObjects.size() != nt) {
        return "triangle objects have the wrong length";
    }
    for (std::size_t c = 0; c < nc; ++c) {
        if (me.cornerPoints[c] >= np) {
            return fail("corner point out of range", c);
        }
    }
    for (std::size_t t = 0; t < nt; ++t) {
        if (me.triangleMaterials[t] >= me.materials.size()) {
            return fail("triangle material out of range", t);
        }
        if (!me.triangleObjects.empty() && me.triangleObjects[t] >= me.objects.size()) {
            return fail("triangle object out of range", t);
        }
    }
    for (std::size_t a = 0; a < m.animations.size(); ++a) {
        const Animation& an = m.animations[a];
        const std::size_t nf = an.times.size();
        const std::size_t keys = nf * an.jointCount;
        if (an.jointCount != nj) {
            return fail("animation joint count differs from the skeleton", a);
        }
        if (an.frameWhere.size() != nf || an.positions.size() != keys ||
            an.explicitKey.size() != keys) {
            return fail("animation arrays differ in length", a);
        }
        const std::size_t rotationKeys = an.kind == PoseKind::LocalEulerXYZ ? an.rotations.size()
                                         : an.kind == PoseKind::LocalQuaternion
                                             ? an.quaternions.size()
                                             : an.axes.size();
        if (rotationKeys != keys) {
            return fail("animation rotation array has the wrong length", a);
        }
        if (!an.scales.empty() && an.scales.size() != keys) {
            return fail("animation scale array has the wrong length", a);
        }
        for (std::size_t f = 1; f < nf; ++f) {
            if (!(an.times[f - 1] < an.times[f])) {
                return fail("animation times not strictly increasing", f);
            }
        }
    }
    for (std::size_t a = 0; a < m.attachments.size(); ++a) {
        const JointIndex j = m.attachments[a].joint;
        if (j != kNoJoint && (j < 0 || static_cast<std::size_t>(j) >= nj)) {
            return fail("attachment joint out of range", a);
        }
    }
    for (std::size_t f = 0; f < m.vertexFrames.size(); ++f) {
        const VertexFrame& vf = m.vertexFrames[f];
        if (vf.positions.size() != vf.ids.size() || vf.normals.size() != vf.ids.size() ||
            vf.lineWhere.size() != vf.ids.size() ||
            (!vf.wrinkles.empty() && vf.wrinkles.size() != vf.ids.size())) {
            return fail("vertex frame arrays differ in length", f);
        }
    }
    for (std::size_t k = 0; k < m.flexShapes.size(); ++k) {
        const FlexShape& fs = m.flexShapes[k];
        if (fs.deltaPositions.size() != fs.ids.size() || fs.deltaNormals.size() != fs.ids.size() ||
            (!fs.deltaWrinkles.empty() && fs.deltaWrinkles.size() != fs.ids.size())) {
            return fail("flex shape arrays differ in length", k);
        }
    }
    return {};
}

Bounds meshBounds(const Model& m)
{
    Bounds b;
    auto add = [&b](const Vec3& p) { b.grow(p); };
    if (!m.mesh.pointPositions.empty()) {
        // Bounds of the points the triangles use (unused pool points are ignored).
        for (std::uint32_t p : m.mesh.cornerPoints) {
            add(m.mesh.pointPositions[p]);
        }
        if (b.valid) {
            return b;
        }
    }
    if (!m.vertexFrames.empty()) {
        for (const Vec3& p : m.vertexFrames.front().positions) {
            add(p);
        }
        if (b.valid) {
            return b;
        }
    }
    // Joints in bind pose.
    const Skeleton& s = m.skeleton;
    std::vector<Eigen::Affine3f> world(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        Eigen::Affine3f local = Eigen::Affine3f::Identity();
        if (s.bindKind != PoseKind::ModelMatrix) {
            local.linear() = bindRotationD(s, i).cast<float>();
            local.translation() = s.bindPositions[i];
            world[i] = s.parents[i] == kNoJoint
                           ? local
                           : world[static_cast<std::size_t>(s.parents[i])] * local;
        } else {
            world[i].linear() = s.bindAxes[i];
            world[i].translation() = s.bindPositions[i];
        }
        add(world[i].translation());
    }
    return b;
}

} // namespace rigscope::core
