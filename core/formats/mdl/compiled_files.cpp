#include "core/formats/mdl/compiled_files.h"

#include <algorithm>
#include <cstdint>

#include "core/io/file_buffer.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

// The file name (no folder) of a Source header's animation block file, or "".
std::string headerAniName(std::string_view mdl)
{
    if (mdl.size() < 356 || mdl.substr(0, 4) != "IDST") {
        return {};
    }
    const auto i32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            v |= std::uint32_t(static_cast<unsigned char>(mdl[at + k])) << (8 * k);
        }
        return static_cast<std::int32_t>(v);
    };
    const std::int32_t version = i32(4);
    const std::int32_t at = i32(348);
    if (version < 44 || version > 49 || at <= 0 || static_cast<std::size_t>(at) >= mdl.size()) {
        return {};
    }
    std::string_view name = mdl.substr(static_cast<std::size_t>(at));
    name = name.substr(0, std::min(name.find('\0'), std::size_t(260)));
    const auto slash = name.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

} // namespace

CompiledCompanions findCompiledCompanions(const std::string& mdlPath, std::string_view mdlBytes)
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
    if (out.ani.empty()) {
        const std::string named = headerAniName(mdlBytes);
        if (named.size() > 4 && asciiIEndsWith(named, ".ani")) {
            out.ani = find(named);
        }
    }
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
