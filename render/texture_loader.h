#pragma once

#include <string>
#include <vector>

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtGui/QColor>
#include <QtGui/QImage>

#include "core/model/mesh.h"

#include "core/formats/qc/qc_project.h"
#include "core/project/qc_textures.h"
#include "core/materials/material_lookup.h"

namespace rigscope::render {

// Loads a texture: VTF and DDS through core's readers (the largest mip within `maxSide`, first
// frame and face; DXT blocks by libsquish), BMP / PNG / TGA / … through Qt's image plugins (TGA
// files Qt 6.4 refuses, such as RLE ones, through stb_image), scaled to fit `maxSide`. `masked`
// (GoldSrc $texrendermode masked): palette index 255 of an 8-bit image is transparent. Null on
// failure. Thread-safe; decoded images are cached by path, modification time and size (at most
// 64 MB of pixels).
QImage loadTextureImage(const QString& path, int maxSide = 2048, bool masked = false);

// Textures a model file carries (GoldSrc .mdl: 8-bit indices and a palette), registered under a
// path-like key "embedded:MODELPATH|NAME" that loadTextureImage and every viewer of texture
// paths (viewport, UV view, thumbnails) then read like a file. Thread-safe.
QString registerEmbeddedTexture(const QString& modelPath, const QString& name, const QImage& image);
bool isEmbeddedTexturePath(const QString& path);

// Tests: while held, the viewport's texture decodes wait before they start (so a test sees the
// first frame before any texture). waitWhileTextureDecodingHeld() returns at once otherwise.
void holdTextureDecoding(bool hold);
void waitWhileTextureDecodingHeld();

// The engine's missing-material picture: purple and black squares, 4 per texture repeat.
QImage checkerboardImage();

// File names to try for a material (FORMATS.md §1.7): the raw name, then its base name with
// .tga/.bmp/.png. For CoD `images` strings, the colour map.
QStringList textureCandidates(const std::string& materialName, const std::string& images);

// Looks for the candidates in each folder, file names compared case-insensitively. Empty when
// nothing is found.
QString findTexture(const std::string& materialName, const std::string& images,
                    const QStringList& folders);

// How one model material is drawn: a Source material found through its VMT (roots = the folders
// that hold materials/), an image file next to the model, or, when Source roots exist and no VMT
// is found, the checkerboard the game will show.
struct MaterialLook {
    QString texturePath;       // image to draw; empty = flat colour (or the checkerboard)
    bool checkerboard = false; // material or base texture missing in the game's roots
    bool source = false;       // looked up as a Source material
    bool found = false;        // VMT found
    bool byNameAlone = false;  // no QC: found by its name anywhere under materials/
    bool fromQc = false;       // looked up under a QC's $cdmaterials
    // A Source material that was not looked up: no game folder holding materials/ is known
    // (neither --materials, Settings ▸ Materials nor a folder above the model). Neither found
    // nor missing; drawn from an image file of its name if there is one, else flat.
    bool notLookedUp = false;
    QString vmtPath;
    QString shader;
    QString baseTexture;  // $basetexture as normalised
    QStringList searched; // where the VMT was looked for (when missing)
    bool alphaTest = false;
    float alphaReference = 0.5f;
    bool translucent = false;
    bool additive = false;
    bool noCull = false;
    bool fullbright = false; // $selfillum (Source) / fullbright (GoldSrc)
    bool masked = false;     // GoldSrc $texrendermode masked: palette index 255 transparent
    bool flatShade = false;  // GoldSrc $texrendermode flatshade: one light level, no shading
    QColor tint = Qt::white; // $color
    bool operator==(const MaterialLook&) const = default;
};
struct MaterialSources;
// `resolver` null: no Source roots (image files only, with the QC's $texrendermode).
MaterialLook lookUpMaterial(const core::Material& material, const MaterialSources& sources,
                            core::MaterialResolver* resolver);
// Where a model's textures are looked for: its folder, textures/, ../textures, ../materials,
// ../maps, then `materialRoots` (--materials, Settings) and the game roots found above it
// (PROJECTS.md §3.1).
QStringList modelTextureFolders(const QString& modelPath, const QStringList& materialRoots = {});
// Folders of `folders` that hold a materials/ folder (case-insensitive): Source roots.
QStringList sourceRoots(const QStringList& folders);

// Where one model's materials come from: the single lookup the viewport, the Inspector, headless
// screenshots, thumbnails and the checks share (docs/materials.md).
struct MaterialSources {
    MaterialSources() = default;
    // Image folders only; the Source roots are those of them that hold materials/, looked up by
    // name alone (no QC). For tests and callers without a document.
    MaterialSources(const QStringList& imageFolders); // NOLINT(google-explicit-constructor)
    QStringList folders;       // image files (GoldSrc BMP, CoD TGA / DDS, next to the model)
    core::MaterialQuery query; // Source lookup: roots (none = no Source lookup), $cdmaterials
    // GoldSrc $texrendermode lines of the QC: texture name, mode (masked, additive, fullbright,
    // flatshade), lower case.
    std::vector<std::pair<std::string, std::string>> renderModes;
    // Textures the model file itself carries (GoldSrc .mdl): material name (lower case) -> the
    // registered path (registerEmbeddedTexture) and the texture's flags (flatshade 0x1,
    // fullbright 0x4, additive 0x20, masked 0x40). Looked up before any folder.
    struct Embedded {
        std::string name;
        QString path;
        int flags = 0;
    };
    std::vector<Embedded> embedded;
    // A GoldSrc / Afterburner QC's textures as `check` looks them up (core::QcReport::textures,
    // qc_textures.h): name -> the file studiomdl reads, empty when it finds none (then drawn
    // flat, as qc.missing-texture says). Names it does not cover use `folders`.
    std::vector<std::pair<std::string, QString>> qcTextures;
    bool sourceLookup() const { return !query.roots.empty(); }
    // The profile wants a Source lookup (not goldsrc or cod): with no roots, the model's
    // materials were not looked up, which the Inspector and the status bar say.
    bool sourceWanted = false;
    bool notLookedUp() const { return sourceWanted && query.roots.empty(); }
    // When not looked up: game folders beside the model's sources (core::nearbyMaterialRoots),
    // offered to the user.
    QStringList offeredRoots;
};
// The sources of the model at `modelPath`: `materialRoots` (--materials, Settings) are Source
// roots as given, then those found above the model (core::materialQueryFor, as `check` does);
// `cdMaterials` (a QC's, in order) makes the lookup a QC one. `sourceProfile` false (GoldSrc,
// CoD): no Source lookup, as the material checks do not run for those profiles either.
MaterialSources materialSourcesFor(const QString& modelPath, const QStringList& materialRoots,
                                   const std::vector<std::string>* cdMaterials = nullptr,
                                   bool sourceProfile = true);
// A QC's image-file settings: its texture folders (core::qcTextureFolders: `$cdtexture`, else
// `$cd` and the QC's folder) searched first, the textures `check` found (`textures`), and its
// `$texrendermode` lines.
void addQcTextureSettings(MaterialSources& sources, const core::QcProject& project,
                          const std::vector<core::QcTexture>& textures);

} // namespace rigscope::render
