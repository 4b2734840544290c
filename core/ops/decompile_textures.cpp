#include "core/ops/decompile_textures.h"

#include <algorithm>
#include <filesystem>

#include "core/formats/mdl/compiled_model.h"

namespace rigscope::core {

// The folders of an Afterburner model's textures kept on disk (records without pixels naming
// "mdl/rBench.png"), relative to `qcPath`'s folder: for each, the first textures/ folder above
// the model that holds it (game/models/X.mdl: game/textures/mdl/rBench.png), as the window
// draws them (document_materials.cpp) and the game's own QCs name it ($cdtexture
// "../../../../afterburner/textures").
DiskTextures diskTexturesOf(const CompiledModelInfo& info, const std::string& mdlPath,
                            const std::string& qcPath)
{
    namespace fs = std::filesystem;
    DiskTextures out;
    if (info.variant != "afterburner") {
        return out;
    }
    std::error_code ec;
    const fs::path modelDir = fs::weakly_canonical(fs::absolute(mdlPath, ec), ec).parent_path();
    const fs::path qcDir = fs::weakly_canonical(fs::absolute(qcPath, ec), ec).parent_path();
    std::vector<fs::path> found;
    for (const CompiledTexture& t : info.textures) {
        if (!t.indices.empty()) {
            continue;
        }
        std::string name = t.name;
        std::replace(name.begin(), name.end(), '\\', '/');
        bool seen = false;
        fs::path dir = modelDir;
        for (int up = 0; up < 8 && !seen && !dir.empty(); ++up) {
            const fs::path textures = dir / "textures";
            if (fs::is_regular_file(textures / name, ec)) {
                if (std::find(found.begin(), found.end(), textures) == found.end()) {
                    found.push_back(textures);
                }
                seen = true;
            }
            if (dir == dir.parent_path()) {
                break;
            }
            dir = dir.parent_path();
        }
        out.missing += seen ? 0 : 1;
    }
    for (const fs::path& f : found) {
        const fs::path rel = f.lexically_relative(qcDir);
        out.folders.push_back((rel.empty() ? f : rel).generic_string());
    }
    return out;
}

} // namespace rigscope::core
