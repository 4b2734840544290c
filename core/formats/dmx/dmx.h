#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// Valve DMX (docs/dmx.md): keyvalues2 text and binary 1-5 and 9, read into the core model the
// way studiomdl sees it. Sniffs on the `<!-- dmx encoding ... -->` header.
int sniffDmx(std::string_view head) noexcept;
// The model's mesh numbers its vertices as studiomdl does (Mesh::cornerVertices, docs/dmx.md
// §4): corners are one vertex when they are in one mesh and material and share the position,
// (collapsed) normal and texture coordinate *indices* (dmxsupport.cpp DefineUniqueVertices,
// mrmsupport.cpp UnifyIndices): equal values written apart stay apart.
ReadResult readDmx(std::string_view bytes, const ReadContext& ctx);

// The registry's writer: keyvalues2 1, format model 1 (read by every studiomdl that reads DMX).
WriteResult writeDmx(const Model& m, const WriteContext& ctx);

struct DmxWriteOptions {
    bool binary = false;   // false: keyvalues2 1
    int binaryVersion = 2; // 2: SDK 2013, TF2, Garry's Mod; the writer knows 1-5 and 9
    int formatVersion = 1; // "model N" in the header; >= 22 uses the Source 2 attribute names
    // true: equal positions (with their skinning), normals and texture coordinates share one
    // index, so the file compiles to the SMD's vertex count (docs/dmx.md §5). false: one index
    // per point and per corner, the writer's form before sharing; rigscope-bench's keyvalues2
    // input, whose ratio to the floor was defined on it (docs/dmx.md §6).
    bool shareIndices = true;
};
WriteResult writeDmxWith(const Model& m, const WriteContext& ctx, const DmxWriteOptions& opt);

} // namespace rigscope::core
