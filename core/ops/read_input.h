#pragma once

// How every rigscope-cli verb reads an input: by content (readAny), or with the reader that
// `--force-reader=FMT` names (UX.md "Command line").

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/registry.h"

namespace rigscope::core {

struct QcReport;
struct CompiledModelInfo;

// A FormatInfo id ("smd", "vta", "smdx", "xmodel", "xanim", "nt", "xmodel_bin", "xanim_bin")
// or one of its extensions ("xmodel_export"); nullptr when none.
const FormatInfo* readerByName(std::string_view name) noexcept;
// "smd, vta, smdx, ...": the names --force-reader accepts.
std::string readerNames();

// `forceReader` empty: readAny. Otherwise that reader, whatever the content and extension.
ReadResult readInput(std::string_view bytes, const ReadContext& ctx,
                     const std::string& forceReader);
// False when the bytes are of no known format and no reader is forced ("unknown format").
bool isReadable(std::string_view bytes, const std::string& path, const std::string& forceReader);

// How a path is opened (the window and every verb alike).
struct OpenOptions {
    Profile profile = Profile::Auto; // the requested one (Auto: by content)
    std::string forceReader;         // as readInput takes it; a `.qc` is a project whatever
    // The name diagnostics carry; empty: the path as given.
    std::string diagnosticName;
    // A QC project or a compiled model: what is shown (the window's bodygroup choices, skin
    // and LOD; a compiled model's choices are its bodyparts' models, its LOD the .vtx LOD n).
    // Without it every body choice is merged (docs/qc.md), as `check` and `info` count them.
    struct QcView {
        std::vector<int> choices; // one per bodygroup, -1 = none
        int skin = 0;
        int lod = 0;
    };
    std::optional<QcView> qcView;
    // An XANIM without notes takes them from its sibling NT_EXPORT (FORMATS.md §4.3).
    bool notetracks = true;
};

// One path opened: the only place a model's bytes are read (so every verb and the window say
// the same words: "cannot open 'x': No such file or directory", "'x' is a directory",
// "'x': unrecognised file format").
struct OpenedInput {
    std::string path;
    bool readable = false; // false: `error` says why (I/O failure, a folder, an unknown format)
    std::string error;
    // The model and the reader's diagnostics. A QC project (by its extension): the compiled
    // model and the project's diagnostics; `hasModel` false when no body could be read.
    ReadResult result;
    std::shared_ptr<QcReport> qc; // the QC project read, its compiled model moved to `result`
    // A compiled model (Source .mdl with its .vvd / .vtx / .phy / .ani, GoldSrc .mdl with its
    // T.mdl and 01.mdl): what it holds beyond `result.model` (docs/compiled.md).
    std::shared_ptr<const CompiledModelInfo> compiled;
    std::uint64_t bytes = 0; // the file's size
    double loadMs = 0;       // time spent reading and parsing
    // When not readable: the error as a diagnostic of the file (`io.unreadable`, or the
    // unknown format's id and reason), for lists that show every problem in one place.
    Diagnostic failure;
};
OpenedInput openInput(const std::string& path, const OpenOptions& options);
// `profile` is the requested one (Auto: by content); `forceReader` as readInput takes it.
OpenedInput openInput(const std::string& path, Profile profile, const std::string& forceReader);

} // namespace rigscope::core
