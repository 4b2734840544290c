#include "core/formats/mdl/compiled_files.h"

#include <algorithm>

#include "core/io/file_buffer.h"
#include "core/text/ascii.h"

namespace rigscope::core {

CompiledCompanions findCompiledCompanions(const std::string& mdlPath)
{
    CompiledCompanions out;
    const std::string dir = directoryOf(mdlPath);
    std::string stem = baseName(mdlPath);
    if (stem.size() > 4 && asciiIEndsWith(stem, ".mdl")) {
        stem.resize(stem.size() - 4);
    }
    std::vector<std::string> names;
    if (!listDirectory(dir, names)) {
        return out;
    }
    const auto find = [&](const std::string& want) -> std::string {
        const auto exact = std::find(names.begin(), names.end(), want);
        if (exact != names.end()) {
            return dir + "/" + *exact;
        }
        for (const std::string& n : names) {
            if (asciiIEquals(n, want)) {
                return dir + "/" + n;
            }
        }
        return {};
    };
    out.vvd = find(stem + ".vvd");
    for (const char* ext : {".dx90.vtx", ".dx80.vtx", ".sw.vtx", ".vtx"}) {
        out.vtx = find(stem + ext);
        if (!out.vtx.empty()) {
            break;
        }
    }
    out.phy = find(stem + ".phy");
    out.ani = find(stem + ".ani");
    out.textures = find(stem + "t.mdl");
    out.vbm = find(stem + ".vbm");
    for (int g = 1; g < 100; ++g) {
        char suffix[8];
        suffix[0] = static_cast<char>('0' + g / 10);
        suffix[1] = static_cast<char>('0' + g % 10);
        suffix[2] = '\0';
        std::string path = find(stem + suffix + ".mdl");
        if (!path.empty()) {
            out.sequenceGroups.resize(static_cast<std::size_t>(g));
            out.sequenceGroups.back() = std::move(path);
        }
    }
    return out;
}

} // namespace rigscope::core
