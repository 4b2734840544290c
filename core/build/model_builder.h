#pragma once

#include <unordered_map>

#include "core/diag/diagnostic.h"
#include "core/model/model.h"

namespace rigscope::core {

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

// Appends a point (one SMD corner) with the given links into the CSR arrays.
void appendPoint(Mesh& mesh, const Vec3& position, JointIndex parent, LinkState state,
                 const JointIndex* joints, const float* weights, std::size_t linkCount,
                 SourceLoc where);

// Room for `tris` more triangles in every mesh array, one point per corner (links: four per
// corner). Large arrays get the huge-page hint; capacity never written is address space, not
// memory. Callers bound `tris` by the bytes left in the file.
void reserveTriangles(Mesh& mesh, std::size_t tris);

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
