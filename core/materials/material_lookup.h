#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/io/file_buffer.h"
#include "core/materials/vmt.h"
#include "core/materials/vtf.h"

namespace rigscope::core {

// A game folder that holds materials/, and why it is searched.
struct MaterialRoot {
    std::string path;
    std::string origin; // "--materials", "settings", "found above the model", "gameinfo.txt"
};

// Walks up from the folder of `modelPath` to the first folder that holds materials/ or
// gameinfo.txt (PROJECTS.md §3.1): that folder, then the game folders of its gameinfo.txt
// SearchPaths. Empty when no such folder is found.
std::vector<MaterialRoot> discoverMaterialRoots(const std::string& modelPath);
// The folders a gameinfo.txt's SearchPaths name for game content ("Game", "game+mod", …):
// |gameinfo_path| and |all_source_engine_paths| expanded, relative paths against the folder
// above the gameinfo's, `dir/*` expanded to its subfolders, VPK files and absent folders left out.
std::vector<std::string> gameInfoSearchPaths(const std::string& gameInfoPath);
// Roots in order, the first of equal paths kept; each path as materialRootFolder() reads it.
void appendRoots(std::vector<MaterialRoot>& roots, const std::vector<MaterialRoot>& more);
// The game folder a root given by the user stands for: a folder holding materials/ is one; the
// materials/ folder itself (any case, without a materials/ of its own) stands for the folder
// above it, so `--materials game` and `--materials game/materials` find the same files.
std::string materialRootFolder(const std::string& dir);
// Game folders near a model whose lookup found none (discoverMaterialRoots empty): walking up
// from the model's folder (at most `levels` folders), the first level whose other subfolders
// hold materials/ or gameinfo.txt gives them, e.g. `game/` for `modelsrc/hero/hero.qc` beside
// `game/materials/`. Offered to the user, never searched on their own.
std::vector<std::string> nearbyMaterialRoots(const std::string& modelPath, int levels = 4);

struct MaterialQuery {
    std::vector<MaterialRoot> roots;
    std::vector<std::string> cdMaterials; // $cdmaterials folders of the QC, in order
    bool fromQc = false; // false: by name alone (materials/<name>.vmt, else any <name>.vmt)
};

// What the engine would find for one material name.
struct MaterialStatus {
    std::string name; // as the model names it
    std::string key;  // normalised: '/', lower case, no extension
    bool found = false;
    bool byNameAlone = false; // found without a QC, by its file name under materials/
    std::string vmtPath;
    std::vector<std::string> searched; // the VMT paths (QC) or folders (name alone) looked at
    Vmt vmt;
    VmtLook look;
    std::string baseTexturePath; // the $basetexture VTF; empty when unset or missing
    bool baseTextureMissing = false;
    VtfInfo baseTextureInfo; // header of the base texture when it was readable
    bool baseTextureReadable = false;
    std::vector<Diagnostic> diagnostics; // vmt-syntax, texture-missing, texture-size
};

// "512 x 512 DXT5, VTF 7.5, 10 mips": what the Inspector and `info --materials` show of a VTF.
std::string describeTexture(const VtfInfo& info);

// Looks materials and textures up as the engine does, caching folder listings (case-insensitive
// match on each path component, as on the Windows file systems the games run on).
class MaterialResolver {
public:
    explicit MaterialResolver(MaterialQuery query, std::uint32_t maxTextureSide = 4096);

    const MaterialQuery& query() const noexcept { return m_query; }
    MaterialStatus resolve(const std::string& materialName);
    // root/materials/<name>.vtf under the first root that has it; empty when none.
    std::string findTexture(const std::string& textureName);
    // `relative` ('/'-separated) under `base`, each component matched without case.
    std::string findNoCase(const std::string& base, const std::string& relative);

private:
    const std::vector<DirectoryEntry>& listing(const std::string& dir);
    const std::multimap<std::string, std::string>& nameIndex(const std::string& root);
    void readMaterial(MaterialStatus& st);
    void checkTexture(MaterialStatus& st, const std::string& key, const std::string& value,
                      const VmtParam* param, bool isBase);

    MaterialQuery m_query;
    std::uint32_t m_maxTextureSide;
    std::map<std::string, std::vector<DirectoryEntry>> m_listings;
    std::map<std::string, std::multimap<std::string, std::string>> m_indexes;
};

} // namespace rigscope::core
