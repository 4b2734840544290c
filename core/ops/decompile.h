#pragma once

// `rigscope-cli convert X.mdl OUT.qc` (issue 30 item 4): a compiled model written back as a QC
// project, the QC and its SMD / VTA files side by side, so that compiling it again gives the same
// model. Everything the .mdl holds that QC can say is written; what it cannot say, or what
// this decompiler does not write yet, is listed in `notes` (and in a comment block at the top of
// the QC). docs/cli.md "Decompiling a compiled model".

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/formats/mdl/vvd_vertices.h"

namespace rigscope::core {

struct Model;
struct CompiledModelInfo;

// One file of the project: its name relative to the QC's folder ("anims/idle.smd") and bytes.
struct DecompiledFile {
    std::string name;
    std::string bytes;
};

struct DecompiledProject {
    std::vector<DecompiledFile> files; // files[0] is the QC
    // What a recompile would not reproduce, one sentence each.
    std::vector<std::string> notes;
};

// Where a model that keeps its textures on disk (Afterburner's 'AFTB' with flag 0x800: the
// texture records name a PNG under the game's textures/ folder and hold no pixels) finds them:
// the folders, relative to the QC's, written as its $cdtexture lines (GoldSrc's Grab_Skin tries
// each in order); `missing` such textures no folder holds.
struct DiskTextures {
    std::vector<std::string> folders;
    std::size_t missing = 0;
};

// The project of one compiled model: `model` and `info` as core::openInput reads the .mdl (LOD 0,
// skin family 0, sequences decoded); `lodModels[l - 1]` the same read for .vtx LOD l (their
// meshes only are used; may be fewer than info.lods: those LODs are not written, a note says
// so). `qcName` is the QC's file name ("prop.qc"); the other files are named after the
// compiled model's parts. `lodSwitchPoints[l]` is the .vtx switch point of LOD l (may be empty).
// `vvdVertices` (vvdSurfaces of the .vvd; may be empty) gives the vertices no triangle uses.
// `diskTextures`: where the textures kept on disk are (none found: $cdtexture ".").
DecompiledProject decompileModel(const Model& model, const CompiledModelInfo& info,
                                 const std::vector<Model>& lodModels,
                                 const std::vector<float>& lodSwitchPoints,
                                 const std::string& qcName,
                                 const std::vector<VvdSurface>& vvdVertices = {},
                                 const DiskTextures& diskTextures = {});

struct DecompileOptions {
    bool force = false; // overwrite existing files
    Profile profile = Profile::Auto;
};

struct DecompileResult {
    int exitCode = 0; // 0 written, 1 the compiled model did not read, 2 usage / I/O
    std::string error;
    std::vector<std::string> written; // paths, the QC first
    std::vector<std::string> notes;
    std::vector<Diagnostic> diagnostics; // the compiled model's reader diagnostics
};

// Reads `mdlPath` (with its companions), writes the QC at `qcPath` and its files beside it, each
// atomically; refuses to write over any existing file (none is written) unless forced.
DecompileResult decompileFile(const std::string& mdlPath, const std::string& qcPath,
                              const DecompileOptions& options);

// True when convert IN OUT is a decompile: OUT ends in .qc and IN is a compiled model.
bool isDecompile(const std::string& inPath, const std::string& outPath);

} // namespace rigscope::core
