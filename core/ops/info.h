#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/formats/mdl/compiled_model.h"
#include "core/formats/registry.h"
#include "core/ops/check.h"
#include "core/ops/material_report.h"
#include "core/ops/qc_ops.h"

namespace rigscope::core {

// What `rigscope-cli info` reports for one file (UX.md, issue 2 §6). Shared by CLI and GUI.
struct InfoReport {
    std::string file;
    bool readable = false; // false: I/O failure or unknown format (exit 2)
    std::string ioError;
    std::string format; // FormatInfo::id
    std::string formatName;
    std::string kind; // reference / animation / flex / unknown
    int version = 0;
    DmxHeader dmx;                   // DMX: the header line (encoding empty otherwise)
    std::size_t flexControllers = 0; // DMX combination-operator controls
    // DMX: each control as "name (stereo, wrinkle): raw, raw", each domination rule as
    // "dominators suppress suppressed".
    std::vector<std::string> flexControllerLines, flexDominators;
    // DMX: delta states with per-vertex wrinkle data (values: entries, maxAbs: the largest |w|).
    struct WrinkleShape {
        std::string shape;
        std::size_t values = 0;
        float maxAbs = 0;
    };
    std::vector<WrinkleShape> wrinkles;
    // DMX DmeAttachment points (bone "" when on no bone; rotation in degrees).
    struct AttachmentInfo {
        std::string name, bone;
        Vec3 position = Vec3::Zero(), rotation = Vec3::Zero();
        bool rigid = false, worldAligned = false;
    };
    std::vector<AttachmentInfo> attachments;
    Profile profile = Profile::Auto; // resolved
    bool profileGuessed = true;
    std::size_t bones = 0, roots = 0, frames = 0, triangles = 0, corners = 0, vertices = 0;
    double fps = 0;
    bool fpsFromFile = false;
    double firstTime = 0, lastTime = 0;
    struct MaterialCount {
        std::string name;
        std::size_t triangles = 0;
    };
    std::vector<MaterialCount> materials;
    std::vector<std::string> flexShapes;
    std::vector<Notetrack> notetracks;
    Bounds bounds;
    // Counts and diagnostics: with `checked`, those `check` reports for the file under the same
    // profile (reader diagnostics plus every check, graded); without (--no-checks), the
    // reader's alone, graded by the profile.
    bool checked = false;
    std::string reference; // reference used for xref.* (checked only; "" = none)
    std::size_t errors = 0, warnings = 0, notes = 0;
    std::vector<Diagnostic> diagnostics;
    std::vector<std::string> objectNames; // per diagnostic: what its element names (JSON)
    // -v: "name (id) <- parent" lines in hierarchy order, indented by depth
    std::vector<std::string> boneTree;
    // --materials: each material as the engine would find it (asked == false otherwise).
    MaterialLookupReport materialLookup;
    // A compiled model (.mdl): what it holds beyond the model (bodyparts, skins, sequences,
    // hitboxes, ...; docs/compiled.md). Null for source files.
    std::shared_ptr<const CompiledModelInfo> compiled;
};

InfoReport infoFromResult(const std::string& file, const ReadResult& r, Profile requested);
// Reads the file (I/O errors give readable == false) and summarises it, reader diagnostics only
// (`info --no-checks`).
InfoReport infoFromFile(const std::string& path, Profile requested,
                        const std::string& forceReader = {});

struct InfoOptions {
    Profile profile = Profile::Auto;
    bool checks = true;                     // false: `--no-checks`, the fast read-only summary
    std::string reference;                  // as `check --reference`
    std::string forceReader;                // --force-reader: a FormatInfo id; empty = by content
    bool materials = false;                 // --materials: the material lookup of each model
    std::vector<std::string> materialRoots; // --material-root DIR, as `check --materials DIR`
};
// `rigscope-cli info FILE...`: one report per file. With checks, the files are checked exactly
// as `rigscope-cli check FILE...` checks them (one truth: the same counts and diagnostics).
std::vector<InfoReport> infoFromFiles(const std::vector<std::string>& paths,
                                      const InfoOptions& options);

// The options `check` runs with for the same files (info and check: one truth).
CheckOptions checkOptionsFor(const InfoOptions& options);

// `info X.qc`: the project read, resolved and compiled, and (unless options.checks is false)
// checked exactly as `rigscope-cli check X.qc` checks it (checkQcReport, the same options).
QcInfo qcInfoFromFile(const std::string& path, const InfoOptions& options);

std::string infoText(const InfoReport& r, bool verbose);
// "x y z", each in its shortest round-trip spelling (info's text).
std::string vecText(const Vec3& v);
// One JSON array, one object per file, with the keys of issue 2 §6 plus notetracks.
std::string infoJson(const std::vector<InfoReport>& reports);

} // namespace rigscope::core
