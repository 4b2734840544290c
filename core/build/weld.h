#pragma once

#include <cstdint>
#include <vector>

#include "core/model/mesh.h"

namespace rigscope::core {

// Welded vertex view of a mesh, for rendering and counting: corners that agree bit for bit on
// position, normal, UV set 0 and skinning (parent field, link state, raw links) share one
// vertex. Triangles are grouped by material (stable within a material) so a renderer can draw
// each material as one index range. Corner order in the model is untouched.
struct WeldedMesh {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    std::vector<Vec2> uvs;
    std::vector<std::uint32_t> vertexPoint;  // vertex -> mesh point
    std::vector<std::uint32_t> cornerVertex; // mesh corner -> vertex
    std::vector<std::uint32_t> indices;      // 3 per triangle, grouped by material
    std::vector<std::uint32_t> drawTriangle; // draw order -> mesh triangle
    struct Range {
        std::uint32_t material = 0;
        std::uint32_t firstIndex = 0;
        std::uint32_t indexCount = 0;
    };
    std::vector<Range> materialRanges;
    std::size_t vertexCount() const noexcept { return positions.size(); }
};

WeldedMesh weldMesh(const Mesh& mesh);
// Number of unique vertices under the same rule, without building the buffers.
std::size_t countUniqueVertices(const Mesh& mesh);

} // namespace rigscope::core
