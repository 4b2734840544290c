#pragma once

#include "core/model/types.h"

namespace rigscope::core {

// SMD corners either list no links (9 fields), say `0`, or give a list. Kept for round trips.
enum class LinkState : std::uint8_t { Absent, Zero, List };

struct MaterialParam {
    std::string key;           // XMODEL keyword: COLOR, TRANSPARENCY, COEFFS, GLOW, ...
    std::vector<float> values; // as written (int-typed fields hold integral floats)
    bool operator==(const MaterialParam& o) const noexcept;
};

struct Material {
    std::string name;                  // SMD: raw trimmed material line; XMODEL: raw quoted name
    std::string type;                  // XMODEL: Lambert / Phong / Blinn
    std::string images;                // XMODEL: raw images string
    std::vector<MaterialParam> params; // XMODEL shading parameters in file order
    SourceLoc where;                   // first use (SMD) / MATERIAL line (XMODEL)
    bool operator==(const Material& o) const noexcept;
};

// Triangle soup with shared points.
// - Points carry position and skinning. SMD: one point per corner (point i == corner i, so
//   VTA ids 3t+c index points directly). XMODEL: the VERT pool.
// - Corners (3 per triangle, file order) carry normal, UVs, colour and the point they use.
// - Influences are CSR: influenceOffsets[p]..influenceOffsets[p+1] into joints/weights, raw
//   as written (order, duplicates and weights kept; joints resolved to skeleton indices).
struct Mesh {
    // points
    std::vector<Vec3> pointPositions;
    std::vector<JointIndex> pointParents; // SMD parent-bone field (resolved); CoD: kNoJoint
    std::vector<LinkState> pointLinkState;
    std::vector<std::uint32_t> influenceOffsets; // size = points + 1 (or empty when no points)
    std::vector<JointIndex> influenceJoints;
    std::vector<float> influenceWeights;
    std::vector<SourceLoc> pointWhere;

    // corners
    std::vector<std::uint32_t> cornerPoints;
    std::vector<Vec3> cornerNormals;
    std::vector<Vec2> cornerUvs;      // UV set 0
    std::uint32_t uvSetCount = 1;     // sets per corner (XMODEL UV n, SMD v3 extras)
    std::vector<Vec2> cornerExtraUvs; // (uvSetCount - 1) per corner
    std::vector<Vec4> cornerColors;   // XMODEL COLOR; empty for SMD
    std::vector<SourceLoc> cornerWhere;
    // The compiled vertex of each corner when the file itself numbers them, so no weld by value
    // decides (DMX: studiomdl's index triples, docs/dmx.md §4; a compiled Source .mdl: the .vvd
    // vertex); UINT32_MAX for a corner of a part that does not (a QC compile merging a DMX with
    // an SMD). Empty for every other format; an edit that changes the corners without carrying
    // it must leave it empty (hasCornerVertices then says no). Not content: operator== ignores
    // it, as it ignores the where arrays.
    std::vector<std::uint32_t> cornerVertices;

    // triangles
    std::vector<std::uint32_t> triangleMaterials;
    std::vector<std::uint32_t> triangleObjects; // XMODEL; empty for SMD
    std::vector<SourceLoc> triangleWhere;       // material line / TRI line

    std::vector<Material> materials;
    std::vector<std::string> objects; // XMODEL OBJECT names

    std::size_t pointCount() const noexcept { return pointPositions.size(); }
    std::size_t cornerCount() const noexcept { return cornerPoints.size(); }
    std::size_t triangleCount() const noexcept { return triangleMaterials.size(); }
    std::uint32_t influenceCount(std::size_t point) const noexcept
    {
        return influenceOffsets.empty() ? 0 : influenceOffsets[point + 1] - influenceOffsets[point];
    }
    bool empty() const noexcept { return triangleMaterials.empty(); }
    bool hasCornerVertices() const noexcept
    {
        return !cornerVertices.empty() && cornerVertices.size() == cornerPoints.size();
    }

    bool operator==(const Mesh& o) const noexcept; // ignores where arrays
};

} // namespace rigscope::core
