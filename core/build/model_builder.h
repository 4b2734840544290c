#pragma once

#include <functional>
#include <unordered_map>

#include "core/diag/diagnostic.h"
#include "core/model/model.h"

namespace rigscope::core {

// A file's bone id -> joint index (SMD node ids, XMODEL bone indices): a flat table for ids
// below 65,536, a hash map for the rest (kNoJoint when absent).
class IdMap {
public:
    void set(std::int32_t id, JointIndex j)
    {
        if (id >= 0 && static_cast<std::uint32_t>(id) < kDenseIds) {
            const auto u = static_cast<std::size_t>(id);
            if (u >= m_dense.size()) {
                m_dense.resize(u + 1, kNoJoint);
            }
            m_dense[u] = j;
        } else {
            m_sparse[id] = j;
        }
    }
    JointIndex find(std::int32_t id) const noexcept
    {
        if (id >= 0 && static_cast<std::uint32_t>(id) < kDenseIds) {
            const auto u = static_cast<std::size_t>(id);
            return u < m_dense.size() ? m_dense[u] : kNoJoint;
        }
        auto it = m_sparse.find(id);
        return it == m_sparse.end() ? kNoJoint : it->second;
    }

private:
    static constexpr std::uint32_t kDenseIds = 1u << 16;
    std::vector<JointIndex> m_dense;
    std::unordered_map<std::int32_t, JointIndex> m_sparse;
};

// Reorders joints so that every parent precedes its children (stable: a file already in that
// order keeps it), breaking parent cycles at the first bone revisited (skeleton.cycle, the bone
// becomes a root). Remaps every joint index in the model: parents, point parents, influences,
// and animation keys. Call it after the reader has resolved parents to file-order indices.
void orderSkeleton(Model& m, DiagnosticSink& sink);

// SMD family: sets the skeleton's bind pose from frame 0 of animations[0] (zero where absent).
void bindFromFirstFrame(Model& m);

// VTA: derives flexShapes (sparse deltas, frame k - base) from vertexFrames. Shape names: the
// frame's comment, else "frame k".
void deriveFlexShapes(Model& m);

// VTA (SMD and BinarySMD): the vertex ids of the frames as read (FORMATS.md §1.6). The base
// frame lists no negative id and no gap from 0; a later shape moves only vertices of the base.
// Each finding (flex.vertex-id-out-of-range, flex.first-shape-incomplete) goes to `error`.
using ReportError =
    std::function<void(std::string_view id, SourceLoc where, std::string message, ElementRef e)>;
void checkVertexFrameIds(const std::vector<VertexFrame>& frames, const ReportError& error);

// Appends a point (one SMD corner) with the given links into the CSR arrays.
void appendPoint(Mesh& mesh, const Vec3& position, JointIndex parent, LinkState state,
                 const JointIndex* joints, const float* weights, std::size_t linkCount,
                 SourceLoc where);

// Room for `tris` more triangles in every mesh array, one point per corner (links: four per
// corner). Large arrays get the huge-page hint; capacity never written is address space, not
// memory. Callers bound `tris` by the bytes left in the file.
void reserveTriangles(Mesh& mesh, std::size_t tris);
// The bytes reserveTriangles takes for `tris` triangles (to reserve the heap region first).
std::size_t triangleArrayBytes(std::size_t tris) noexcept;

// Finds or appends a material by its raw name; returns its index. O(1) per call.
class MaterialInterner {
public:
    std::uint32_t intern(Mesh& mesh, std::string_view name, SourceLoc where);

private:
    std::unordered_map<std::string, std::uint32_t> m_index;
    std::string m_lastName;
    std::uint32_t m_last = UINT32_MAX;
};

} // namespace rigscope::core
