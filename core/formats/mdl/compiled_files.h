#pragma once

// Where a compiled model's companions are: the files beside a .mdl that the readers take as
// bytes. Names match without regard to ASCII case (models copied from Windows: W_crowbar.vvd
// beside w_crowbar.mdl). Only looks; reading is the caller's (core/io readFile).

#include <string>
#include <string_view>
#include <vector>

namespace rigscope::core {

struct CompiledCompanions {
    // Source: empty when absent. `vtx` is the first of .dx90.vtx, .dx80.vtx, .sw.vtx, .vtx.
    std::string vvd, vtx, phy, ani;
    // GoldSrc: NAMEt.mdl, and NAME01.mdl ... up to the highest number found (empty entries
    // for gaps; entry 0 is group 1).
    std::string textures;
    std::vector<std::string> sequenceGroups;
    // The Pathos engine's NAME.vbm (its own studiomdl keeps a v10 model's meshes and textures
    // there); not read.
    std::string vbm;
};

// With the .mdl's bytes, a Source model's .ani is also looked for under the name its header
// gives (CS:GO's ak47_anim.mdl keeps its animation blocks in v_rif_ak47.ani).
CompiledCompanions findCompiledCompanions(const std::string& mdlPath,
                                          std::string_view mdlBytes = {});

} // namespace rigscope::core
