#pragma once

#include "core/model/types.h"

namespace rigscope::core {

// One `time` of a VTA `vertexanimation` block, as written: absolute positions and normals of
// the listed vertex ids. Frame 0 is the base and lists every vertex; later frames are sparse.
struct VertexFrame {
    double time = 0;
    std::string name; // shape name from `time N # name` (vertexanimation, else skeleton), may be ""
    bool nameFromComment = false;
    std::vector<std::int32_t> ids;
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    // DMX delta state `wrinkle`: the wrinkle delta per id (0 where the state has none); empty
    // when the frame has no wrinkle data at all (every VTA frame).
    std::vector<float> wrinkles;
    SourceLoc where;                  // the time line
    std::vector<SourceLoc> lineWhere; // one per id
    bool operator==(const VertexFrame& o) const noexcept;
};

// A flex shape as sparse deltas in VTA id space (frame k − base), one per listed id.
struct FlexShape {
    std::string name; // display name: comment, else "frame k"
    std::vector<std::int32_t> ids;
    std::vector<Vec3> deltaPositions;
    std::vector<Vec3> deltaNormals;
    std::vector<float> deltaWrinkles; // per id, or empty (see VertexFrame::wrinkles)
    SourceLoc where;
};

} // namespace rigscope::core
