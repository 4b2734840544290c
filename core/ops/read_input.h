#pragma once

// How every rigscope-cli verb reads an input: by content (readAny), or with the reader that
// `--force-reader=FMT` names (UX.md "Command line").

#include <memory>
#include <string>
#include <string_view>

#include "core/formats/registry.h"

namespace rigscope::core {

struct QcReport;

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

// One path opened, as every verb opens it (the only place the verbs read a model's bytes, so
// they say the same words: "cannot open 'x': No such file or directory", "'x' is a directory",
// "'x': unrecognised file format").
struct OpenedInput {
    std::string path;
    bool readable = false; // false: `error` says why (I/O failure, a folder, an unknown format)
    std::string error;
    // The model and the reader's diagnostics. A QC project (by its extension): the compiled
    // model (every body choice merged, docs/qc.md) and the project's diagnostics; `hasModel`
    // false when no body could be read.
    ReadResult result;
    std::shared_ptr<QcReport> qc; // the QC project read, its compiled model moved to `result`
};
// `profile` is the requested one (Auto: by content); `forceReader` as readInput takes it (a
// `.qc` is a project whatever reader is forced).
OpenedInput openInput(const std::string& path, Profile profile, const std::string& forceReader);

} // namespace rigscope::core
