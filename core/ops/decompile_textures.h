#pragma once

// Where `convert X.mdl OUT.qc` points $cdtexture for a model whose textures are the game's
// files (Afterburner). Kept out of decompile.cpp: <filesystem> brings std::quoted, which
// argument-dependent lookup would take for decompile.cpp's own quoted().

#include <string>

#include "core/ops/decompile.h"

namespace rigscope::core {

// The folders of an Afterburner model's textures kept on disk (records without pixels naming
// "mdl/rBench.png"), relative to `qcPath`'s folder: for each, the first textures/ folder above
// the model that holds it (game/models/X.mdl: game/textures/mdl/rBench.png), as the window
// draws them (document_materials.cpp) and the game's own QCs name it ($cdtexture
// "../../../../afterburner/textures").
DiskTextures diskTexturesOf(const CompiledModelInfo& info, const std::string& mdlPath,
                            const std::string& qcPath);

} // namespace rigscope::core
