#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"

namespace rigscope::core {

// One shader parameter after conditionals and patches were applied.
struct VmtParam {
    std::string key;   // lower-case ("$basetexture")
    std::string value; // as written
    std::string file;  // the VMT that set it (a patch's include may have)
    SourceLoc where;   // of the key
};

// A VMT material as the engine reads it on a PC at DirectX 9 level (PROJECTS.md §3.2).
struct Vmt {
    std::string shader; // as written ("VertexLitGeneric"); after a patch, the included one's
    std::vector<VmtParam> params;
    std::vector<std::string> includes; // files a patch pulled in, in order
    bool readable = false;             // a shader block was found

    const VmtParam* find(std::string_view key) const noexcept;
    std::string value(std::string_view key) const; // empty when unset
    bool flag(std::string_view key) const;         // "1" (any non-zero number) = on
};

// What changes the picture, read from a Vmt.
struct VmtLook {
    std::string baseTexture; // path under materials/ without extension, '/' separators
    std::string baseTexture2;
    std::string bumpMap; // $bumpmap or $normalmap
    bool translucent = false;
    bool alphaTest = false;
    float alphaTestReference = 0.5f;
    bool additive = false;
    bool noCull = false;
    bool selfIllum = false;
    bool phong = false;
    bool envMap = false;
    std::array<float, 3> color{1, 1, 1};
    std::array<float, 3> color2{1, 1, 1};
};
VmtLook vmtLook(const Vmt& vmt);

// Loads an included material ("materials/x.vmt", as written in the patch) and returns its
// bytes and the path it was found at; nullopt when absent.
struct IncludedFile {
    std::string path;
    std::string bytes;
};
using VmtIncludeLoader = std::function<std::optional<IncludedFile>(const std::string& name)>;

// Reads VMT text. Syntax problems are `material.vmt-syntax` errors at their line; a `patch`
// material reads its `include` through `loadInclude` (at most 8 levels, cycles reported) and
// applies `insert` (set) and `replace` (set keys already present). `file` names diagnostics.
Vmt readVmt(std::span<const std::byte> bytes, const std::string& file,
            const VmtIncludeLoader& loadInclude, DiagnosticSink& sink);

// "models\Hero/Body.vtf" -> "models/hero/body" (the normalised texture or material name).
std::string normaliseMaterialPath(std::string_view name);

} // namespace rigscope::core
