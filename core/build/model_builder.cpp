#include "core/build/model_builder.h"

#include <algorithm>
#include <unordered_map>

#include "core/diag/diagnostic_ids.h"
#include "core/io/file_buffer.h"
#include "core/text/names.h"

namespace rigscope::core {

void orderSkeleton(Model& m, DiagnosticSink& sink)
{
    Skeleton& s = m.skeleton;
    const std::size_t n = s.size();
    // 1. Break cycles: walk each chain; a bone met twice on its own chain is cut.
    std::vector<std::uint8_t> state(n, 0); // 0 new, 1 on stack, 2 done
    std::vector<std::size_t> chain;
    for (std::size_t start = 0; start < n; ++start) {
        if (state[start] != 0) {
            continue;
        }
        chain.clear();
        std::size_t cur = start;
        for (;;) {
            if (state[cur] == 2) {
                break;
            }
            if (state[cur] == 1) {
                // `cur` is revisited: the bone whose parent closes the loop becomes a root.
                const std::size_t last = chain.back();
                std::string path;
                bool in = false;
                for (std::size_t c : chain) {
                    in = in || c == cur;
                    if (in) {
                        path += s.names[c];
                        path += " -> ";
                    }
                }
                path += s.names[cur];
                sink.error(ids::kSkeletonCycle, s.where[last],
                           "bone '" + s.names[last] + "' is its own ancestor (" + path + ")",
                           {ElementRef::Kind::Joint, static_cast<std::int32_t>(last)});
                s.parents[last] = kNoJoint;
                break;
            }
            state[cur] = 1;
            chain.push_back(cur);
            const JointIndex p = s.parents[cur];
            if (p == kNoJoint) {
                break;
            }
            cur = static_cast<std::size_t>(p);
        }
        for (std::size_t c : chain) {
            state[c] = 2;
        }
    }
    // 2. Stable topological order: emit each bone after its ancestors, in file order.
    std::vector<JointIndex> order;
    order.reserve(n);
    std::vector<JointIndex> newIndex(n, kNoJoint);
    std::vector<std::size_t> stack;
    bool identity = true;
    for (std::size_t i = 0; i < n; ++i) {
        if (newIndex[i] != kNoJoint) {
            continue;
        }
        stack.clear();
        std::size_t cur = i;
        for (;;) {
            stack.push_back(cur);
            const JointIndex p = s.parents[cur];
            if (p == kNoJoint || newIndex[static_cast<std::size_t>(p)] != kNoJoint) {
                break;
            }
            cur = static_cast<std::size_t>(p);
        }
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            newIndex[*it] = static_cast<JointIndex>(order.size());
            identity = identity && *it == order.size();
            order.push_back(static_cast<JointIndex>(*it));
        }
    }
    if (identity) {
        return;
    }
    auto permute = [&order](auto& v) {
        if (v.empty()) {
            return;
        }
        std::remove_reference_t<decltype(v)> out;
        out.reserve(v.size());
        for (JointIndex o : order) {
            out.push_back(std::move(v[static_cast<std::size_t>(o)]));
        }
        v = std::move(out);
    };
    permute(s.names);
    permute(s.parents);
    permute(s.sourceIds);
    permute(s.where);
    permute(s.bindPositions);
    permute(s.bindRotations);
    permute(s.bindQuaternions);
    permute(s.bindAxes);
    permute(s.bindScales);
    permute(s.bindHasScale);
    permute(s.bindWhere);
    auto remap = [&newIndex](JointIndex j) {
        return j == kNoJoint ? kNoJoint : newIndex[static_cast<std::size_t>(j)];
    };
    for (JointIndex& p : s.parents) {
        p = remap(p);
    }
    for (JointIndex& p : m.mesh.pointParents) {
        p = remap(p);
    }
    for (JointIndex& j : m.mesh.influenceJoints) {
        j = remap(j);
    }
    for (Attachment& a : m.attachments) {
        a.joint = remap(a.joint);
    }
    for (Diagnostic& d : sink.diagnostics()) {
        if (d.element.kind == ElementRef::Kind::Joint && d.element.index >= 0 &&
            static_cast<std::size_t>(d.element.index) < n) {
            d.element.index = newIndex[static_cast<std::size_t>(d.element.index)];
        }
    }
    for (Animation& a : m.animations) {
        if (a.jointCount != n) {
            continue;
        }
        auto permuteKeys = [&](auto& v) {
            if (v.empty()) {
                return;
            }
            std::remove_reference_t<decltype(v)> out(v.size());
            for (std::size_t f = 0; f < a.times.size(); ++f) {
                for (std::size_t j = 0; j < n; ++j) {
                    out[f * n + j] = v[f * n + static_cast<std::size_t>(order[j])];
                }
            }
            v = std::move(out);
        };
        permuteKeys(a.positions);
        permuteKeys(a.rotations);
        permuteKeys(a.quaternions);
        permuteKeys(a.axes);
        permuteKeys(a.scales);
        permuteKeys(a.explicitKey);
    }
}

void bindFromFirstFrame(Model& m)
{
    Skeleton& s = m.skeleton;
    s.bindKind = PoseKind::LocalEulerXYZ;
    s.bindQuaternions.clear();
    const std::size_t n = s.size();
    for (std::size_t j = 0; j < n; ++j) {
        s.bindPositions[j] = Vec3::Zero();
        s.bindRotations[j] = Vec3::Zero();
        s.bindWhere[j] = {};
    }
    if (m.animations.empty() || m.animations.front().times.empty() ||
        m.animations.front().jointCount != n) {
        return;
    }
    const Animation& a = m.animations.front();
    if (a.kind != PoseKind::LocalEulerXYZ) {
        return;
    }
    for (std::size_t j = 0; j < n; ++j) {
        s.bindPositions[j] = a.positions[j];
        s.bindRotations[j] = a.rotations[j];
        s.bindWhere[j] = a.frameWhere[0];
    }
}

void deriveFlexShapes(Model& m)
{
    m.flexShapes.clear();
    if (m.vertexFrames.empty()) {
        return;
    }
    const VertexFrame& base = m.vertexFrames.front();
    std::unordered_map<std::int32_t, std::size_t> baseIndex;
    baseIndex.reserve(base.ids.size());
    for (std::size_t i = 0; i < base.ids.size(); ++i) {
        baseIndex[base.ids[i]] = i; // duplicate ids: the last line wins
    }
    for (std::size_t k = 1; k < m.vertexFrames.size(); ++k) {
        const VertexFrame& f = m.vertexFrames[k];
        FlexShape s;
        s.name = f.name.empty() ? "frame " + std::to_string(k) : f.name;
        s.where = f.where;
        s.ids.reserve(f.ids.size());
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            auto it = baseIndex.find(f.ids[i]);
            if (it == baseIndex.end()) {
                continue; // flex.vertex-id-out-of-range is reported by the reader
            }
            s.ids.push_back(f.ids[i]);
            s.deltaPositions.push_back(f.positions[i] - base.positions[it->second]);
            s.deltaNormals.push_back(f.normals[i] - base.normals[it->second]);
            if (!f.wrinkles.empty()) { // a wrinkle value is already a delta (the base has none)
                s.deltaWrinkles.push_back(f.wrinkles[i]);
            }
        }
        m.flexShapes.push_back(std::move(s));
    }
}

namespace {

// The gaps in sorted ids from 0 ("0-3, 7"): the first five ranges, then "...".
std::string describeGaps(const std::vector<std::int32_t>& sortedIds)
{
    std::string out;
    std::size_t ranges = 0;
    std::int64_t expect = 0;
    auto add = [&](std::int64_t a, std::int64_t b) {
        if (ranges == 5) {
            out += ", ...";
        }
        if (ranges++ >= 5) {
            return;
        }
        if (!out.empty()) {
            out += ", ";
        }
        out += std::to_string(a);
        if (b > a) {
            out += "-" + std::to_string(b);
        }
    };
    for (std::int32_t id : sortedIds) {
        if (id < 0) {
            continue;
        }
        if (id > expect) {
            add(expect, static_cast<std::int64_t>(id) - 1);
        }
        expect = static_cast<std::int64_t>(id) + 1;
    }
    return out;
}

} // namespace

void checkVertexFrameIds(const std::vector<VertexFrame>& frames, const ReportError& error)
{
    if (frames.empty()) {
        return;
    }
    const VertexFrame& base = frames.front();
    std::vector<std::int32_t> sorted = base.ids;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t i = 0; i < base.ids.size(); ++i) {
        if (base.ids[i] < 0) {
            error(ids::kFlexVertexIdOutOfRange, base.lineWhere[i],
                  "base frame lists vertex " + std::to_string(base.ids[i]) + "; ids start at 0",
                  {ElementRef::Kind::Frame, 0});
        }
    }
    const std::string missing = describeGaps(sorted);
    if (!missing.empty()) {
        error(ids::kFlexFirstShapeIncomplete, base.where,
              "base frame lacks ids " + missing + "; their deltas have no base",
              {ElementRef::Kind::Frame, 0});
    }
    auto inBase = [&sorted](std::int32_t id) {
        return id >= 0 && std::binary_search(sorted.begin(), sorted.end(), id);
    };
    const std::string baseCount = std::to_string(base.ids.size());
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const VertexFrame& f = frames[k];
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            if (inBase(f.ids[i])) {
                continue;
            }
            const std::string shape =
                f.name.empty() ? "frame " + std::to_string(k) : "'" + shownToken(f.name) + "'";
            error(ids::kFlexVertexIdOutOfRange, f.lineWhere[i],
                  "shape " + shape + " moves vertex " + std::to_string(f.ids[i]) +
                      "; base frame has " + baseCount,
                  {ElementRef::Kind::Shape, static_cast<std::int32_t>(k - 1)});
        }
    }
}

void appendPoint(Mesh& mesh, const Vec3& position, JointIndex parent, LinkState state,
                 const JointIndex* joints, const float* weights, std::size_t linkCount,
                 SourceLoc where)
{
    if (mesh.influenceOffsets.empty()) {
        mesh.influenceOffsets.push_back(0);
    }
    mesh.pointPositions.push_back(position);
    mesh.pointParents.push_back(parent);
    mesh.pointLinkState.push_back(state);
    mesh.pointWhere.push_back(where);
    for (std::size_t i = 0; i < linkCount; ++i) {
        mesh.influenceJoints.push_back(joints[i]);
        mesh.influenceWeights.push_back(weights[i]);
    }
    mesh.influenceOffsets.push_back(static_cast<std::uint32_t>(mesh.influenceJoints.size()));
}

namespace {

template <class V> void reserveMore(V& v, std::size_t more)
{
    v.reserve(v.size() + more);
    adviseHugePages(v.data(), v.capacity() * sizeof(v[0]));
}

} // namespace

void reserveTriangles(Mesh& mesh, std::size_t tris)
{
    const std::size_t corners = 3 * tris;
    reserveMore(mesh.pointPositions, corners);
    reserveMore(mesh.pointParents, corners);
    reserveMore(mesh.pointLinkState, corners);
    reserveMore(mesh.pointWhere, corners);
    reserveMore(mesh.influenceOffsets, corners + 1);
    reserveMore(mesh.influenceJoints, 4 * corners);
    reserveMore(mesh.influenceWeights, 4 * corners);
    reserveMore(mesh.cornerPoints, corners);
    reserveMore(mesh.cornerNormals, corners);
    reserveMore(mesh.cornerUvs, corners);
    reserveMore(mesh.cornerWhere, corners);
    reserveMore(mesh.triangleMaterials, tris);
    reserveMore(mesh.triangleWhere, tris);
}

std::size_t triangleArrayBytes(std::size_t tris) noexcept
{
    // The element types of the arrays reserveTriangles reserves, one point per corner.
    constexpr std::size_t perCorner =
        sizeof(Vec3) + sizeof(JointIndex) + sizeof(LinkState) + sizeof(SourceLoc) +
        sizeof(std::uint32_t) + 4 * (sizeof(JointIndex) + sizeof(float)) + sizeof(std::uint32_t) +
        sizeof(Vec3) + sizeof(Vec2) + sizeof(SourceLoc);
    return tris * (3 * perCorner + sizeof(std::uint32_t) + sizeof(SourceLoc));
}

std::uint32_t MaterialInterner::intern(Mesh& mesh, std::string_view name, SourceLoc where)
{
    if (m_last != UINT32_MAX && m_lastName == name) {
        return m_last;
    }
    auto [it, inserted] =
        m_index.try_emplace(std::string(name), static_cast<std::uint32_t>(mesh.materials.size()));
    if (inserted) {
        Material mat;
        mat.name = std::string(name);
        mat.where = where;
        mesh.materials.push_back(std::move(mat));
    }
    m_lastName.assign(name);
    m_last = it->second;
    return m_last;
}

} // namespace rigscope::core
