#pragma once

#include "core/model/skeleton.h"

namespace rigscope::core {

struct Notetrack {
    std::int32_t part = 0;  // XANIM part the track sits under (0 for flat / NT_EXPORT)
    std::int32_t track = 0; // NOTETRACK j
    double frame = 0;       // absolute frame number, as written
    std::string text;
    SourceLoc where;
    bool operator==(const Notetrack& o) const noexcept
    {
        return part == o.part && track == o.track && frame == o.frame && text == o.text;
    }
};

enum class NoteStyle : std::uint8_t { None, PerPart, Flat, SeparateFile };

// Frames x joints of keys. Joints are the owning model's skeleton joints (for XANIM the
// skeleton holds one joint per PART). Sparse files are densified by carrying the previous
// frame's value forward; `explicitKey` remembers what the file actually wrote.
struct Animation {
    std::string name;
    PoseKind kind = PoseKind::LocalEulerXYZ;
    float fps = 30.0f;
    bool fpsFromFile = false;
    std::size_t jointCount = 0;

    std::vector<double> times;         // `time N` / `FRAME f` as written, sorted ascending
    std::vector<SourceLoc> frameWhere; // the time / FRAME line

    // keys[frame * jointCount + joint]
    std::vector<Vec3> positions;           // SMD: parent-relative; CoD: model-space OFFSET
    std::vector<Vec3> rotations;           // SMD: Euler XYZ radians (empty for CoD, DMX)
    std::vector<Vec4> quaternions;         // DMX: (x, y, z, w) (empty for SMD, CoD)
    std::vector<Mat3> axes;                // CoD: X/Y/Z columns (empty for SMD)
    std::vector<Vec3> scales;              // CoD: SCALE (empty unless the file had SCALE lines)
    std::vector<std::uint8_t> explicitKey; // 1 where the file wrote this key

    std::vector<Notetrack> notes;
    NoteStyle noteStyle = NoteStyle::None;

    std::size_t frameCount() const noexcept { return times.size(); }
    std::size_t key(std::size_t frame, std::size_t joint) const noexcept
    {
        return frame * jointCount + joint;
    }
    // Appends a frame; copies the previous frame's keys (carry forward) or zeroes/identity
    // for the first frame (the arrays of `kind`). Returns the frame index.
    std::size_t appendFrame(double time, SourceLoc loc);

    bool operator==(const Animation& o) const noexcept; // ignores frameWhere / note where
};

} // namespace rigscope::core
