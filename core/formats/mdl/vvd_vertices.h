#pragma once

// The normal and UV of every LOD 0 vertex of a .vvd, fix-ups applied, in .vvd order (the
// order the compiled read numbers its points). The compiled read keeps normals and UVs per
// triangle corner only; the decompiler needs them for the vertices no .vtx triangle uses
// (docs/compiled.md "Decompiling at scale"). Empty when the bytes are no version 4 .vvd.

#include <string_view>
#include <vector>

#include "core/model/types.h"

namespace rigscope::core {

struct VvdSurface {
    Vec3 normal = Vec3::Zero();
    Vec2 uv = Vec2::Zero();
};

std::vector<VvdSurface> vvdSurfaces(std::string_view vvdBytes);

} // namespace rigscope::core
