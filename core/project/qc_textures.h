#pragma once

// The texture files GoldSrc's studiomdl (and Afterburner's abstudiomdl) read for a model, found
// as it finds them: one lookup for `check` (qc.missing-texture) and the viewer, which draws the
// file found here (docs/qc.md "Textures").

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/formats/qc/qc_reader.h"
#include "core/project/qc_compile.h"

namespace rigscope::core {

// One texture the compiled model has: HL1 studiomdl.c lookup_texture adds one per name, compared
// without case, for each body file's triangles (Grab_Triangles) and each $texturegroup name.
struct QcTexture {
    std::string name;          // as first written
    QcWhere at;                // the body file's line naming it first, or the $texturegroup row
    std::string resolved;      // the file on disk, empty when found nowhere
    bool caseMismatch = false; // found only by ignoring case (Windows opens it)
};

// Where studiomdl looks for textures, in order (HL1 studiomdl.c Grab_Skin): each `$cdtexture`
// folder (every path of every line, ExpandPath'ed; here relative to the QC's folder); without
// one, the `$cd` folder, and the QC's folder as RigScope looks for body files there too.
std::vector<std::string> qcTextureFolders(const QcProject& project);

// `name` (subfolders allowed, `\` or `/`) in the first of `folders` that holds it; an exact
// match in any folder beats one found by ignoring case (qc.missing-file's rule). Empty when
// found nowhere.
std::string findQcTexture(const std::string& name, const std::vector<std::string>& folders,
                          QcFileSystem& fs, bool& caseMismatch);

// The textures of a goldsrc or afterburner project (none for other profiles: vbmcompiler and
// Source studiomdl read no image here), each looked up once; a texture found nowhere is a
// qc.missing-texture error at `at` in `diagnostics` (Grab_Skin: "%s not found", or LoadBMP
// failing to open cddir/NAME). Names another check rejects (mesh.material-not-bmp: an
// extension the compiler does not load) are skipped.
std::vector<QcTexture> lookUpQcTextures(const QcProject& project, const QcCompiled& compiled,
                                        QcFileSystem& fs, std::vector<Diagnostic>& diagnostics);

} // namespace rigscope::core
