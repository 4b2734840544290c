// libFuzzer target for the compiled-model readers (issue 29). The input is cut into three
// files: two little-endian 32-bit lengths, then the .mdl, the .vvd and the rest as the .vtx
// (and as the .ani and the .phy); the same three parts feed the GoldSrc reader as the model,
// its NAMEt.mdl and NAME01.mdl. The whole input is also read as a .phy alone. Crashes, hangs,
// invariant violations and unbounded physics output abort.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/mdl/compiled_model.h"

namespace {

void verify(const rigscope::core::CompiledReadResult& r, const char* what)
{
    const std::string inv = rigscope::core::verifyInvariants(r.model);
    if (!inv.empty()) {
        std::fprintf(stderr, "fuzz failure: %s: %s\n", what, inv.c_str());
        std::abort();
    }
}

std::uint32_t le32(const std::uint8_t* p)
{
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rigscope::core;
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    std::string_view parts[3] = {all, {}, {}};
    if (size >= 8) {
        const std::size_t a = std::min<std::size_t>(le32(data), size - 8);
        const std::size_t b = std::min<std::size_t>(le32(data + 4), size - 8 - a);
        parts[0] = all.substr(8, a);
        parts[1] = all.substr(8 + a, b);
        parts[2] = all.substr(8 + a + b);
    }
    SourceMdlFiles s;
    s.mdl = {parts[0], "f.mdl", true};
    s.vvd = {parts[1], "f.vvd", !parts[1].empty()};
    s.vtx = {parts[2], "f.dx90.vtx", !parts[2].empty()};
    s.ani = {parts[2], "f.ani", !parts[2].empty()};
    s.phy = {parts[2], "f.phy", !parts[2].empty()};
    verify(readSourceMdl(s, {}), "source");
    // The .phy alone: every corner is a 16-byte point of the file, at most 3 per triangle.
    {
        CompiledPhysics phy;
        std::vector<Diagnostic> diags;
        readSourcePhy({all, "f.phy", true}, {}, 0, true, phy, diags);
        std::size_t corners = 0, triangles = 0;
        for (const CompiledPhysicsSolid& solid : phy.solids) {
            for (const CompiledConvexPiece& piece : solid.pieces) {
                corners += piece.vertices.size();
                triangles += piece.triangles.size();
                for (const auto& t : piece.triangles) {
                    for (const std::int32_t c : t) {
                        if (c < 0 || static_cast<std::size_t>(c) >= piece.vertices.size()) {
                            std::fprintf(stderr, "fuzz failure: phy corner %d of %zu\n", c,
                                         piece.vertices.size());
                            std::abort();
                        }
                    }
                }
            }
        }
        if (corners > size / 4 || triangles > size / 16) {
            std::fprintf(stderr, "fuzz failure: phy %zu corners, %zu triangles from %zu bytes\n",
                         corners, triangles, size);
            std::abort();
        }
    }
    // The whole input as one model too (no companions), so plain .mdl seeds work.
    SourceMdlFiles whole;
    whole.mdl = {all, "f.mdl", true};
    verify(readSourceMdl(whole, {}), "source whole");
    GoldsrcMdlFiles g;
    g.mdl = {all, "g.mdl", true};
    g.textures = {parts[1], "gt.mdl", !parts[1].empty()};
    g.sequenceGroups.push_back({parts[2], "g01.mdl", !parts[2].empty()});
    verify(readGoldsrcMdl(g, {}), "goldsrc");
    return 0;
}
