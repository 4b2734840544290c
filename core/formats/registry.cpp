#include "core/formats/registry.h"
#include "core/formats/content_sniff.h"

#include <algorithm>
#include <optional>

#include <array>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/smd/smd_reader.h"
#include "core/formats/smd/smd_writer.h"
#include "core/formats/smdx/smdx.h"
#include "core/formats/xanim/xanim.h"
#include "core/formats/xbin/xbin.h"
#include "core/formats/xmodel/xmodel.h"
#include "core/io/file_buffer.h"

namespace rigscope::core {

namespace {

constexpr std::string_view kSmdExt[] = {"smd", "sma", "phys"};
constexpr std::string_view kVtaExt[] = {"vta"};
constexpr std::string_view kSmdxExt[] = {"smdx"};
constexpr std::string_view kXmodelExt[] = {"xmodel_export"};
constexpr std::string_view kXanimExt[] = {"xanim_export"};
constexpr std::string_view kNtExt[] = {"nt_export"};
constexpr std::string_view kXmodelBinExt[] = {"xmodel_bin"};
constexpr std::string_view kXanimBinExt[] = {"xanim_bin"};
constexpr std::string_view kDmxExt[] = {"dmx"};

const std::array<FormatInfo, 9> kFormats{{
    {"smd", "Valve SMD", kSmdExt, &sniffSmd, &readSmd, &writeSmd},
    {"vta", "Valve VTA (flex)", kVtaExt, &sniffSmd, &readSmd, &writeSmd},
    {"smdx", "BinarySMD", kSmdxExt, &sniffSmdx, &readSmdx, &writeSmdx},
    {"xmodel", "Call of Duty XMODEL_EXPORT", kXmodelExt, &sniffXmodel, &readXmodel, &writeXmodel},
    {"xanim", "Call of Duty XANIM_EXPORT", kXanimExt, &sniffXanim, &readXanim, &writeXanim},
    {"nt", "Call of Duty NT_EXPORT", kNtExt, &sniffNtExport, &readNtExport, &writeNtExport},
    {"xmodel_bin", "Call of Duty XMODEL_BIN", kXmodelBinExt, &sniffXbin, &readXbin,
     &writeXmodelBin},
    {"xanim_bin", "Call of Duty XANIM_BIN", kXanimBinExt, &sniffXbin, &readXbin, &writeXanimBin},
    {"dmx", "Valve DMX", kDmxExt, &sniffDmx, &readDmx, &writeDmx},
}};

} // namespace

std::span<const FormatInfo> formats() noexcept
{
    return kFormats;
}

const FormatInfo* formatById(std::string_view id) noexcept
{
    for (const auto& f : kFormats) {
        if (f.id == id) {
            return &f;
        }
    }
    return nullptr;
}

const FormatInfo* formatByExtension(std::string_view fileName) noexcept
{
    const std::string ext = extensionLower(fileName);
    for (const auto& f : kFormats) {
        for (auto e : f.extensions) {
            if (e == ext) {
                return &f;
            }
        }
    }
    return nullptr;
}

const FormatInfo* detectFormat(std::string_view bytes, std::string_view fileName,
                               bool* extensionMismatch) noexcept
{
    const FormatInfo* byExt = formatByExtension(fileName);
    const std::string_view head = bytes.substr(0, 4096);
    const FormatInfo* best = nullptr;
    int bestScore = 0;
    for (const auto& f : kFormats) {
        int score = f.sniff(head);
        if (score > 0 && &f == byExt) {
            score += 1; // extension breaks ties (smd vs vta, xmodel_bin vs xanim_bin)
        }
        if (score > bestScore) {
            bestScore = score;
            best = &f;
        }
    }
    if (extensionMismatch) {
        *extensionMismatch = false;
    }
    if (!best) {
        return byExt; // nothing recognised the content: trust the extension (reader reports)
    }
    if (extensionMismatch && byExt && best != byExt && best->read != byExt->read) {
        *extensionMismatch = true;
    }
    return best;
}

bool looksBinary(std::string_view bytes) noexcept
{
    const std::string_view head = bytes.substr(0, 4096);
    std::size_t control = 0;
    for (const char c : head) {
        const auto b = static_cast<unsigned char>(c);
        if (b == 0) {
            return true;
        }
        control += b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' ? 1u : 0u;
    }
    return !head.empty() && control * 10 > head.size();
}

std::string_view compiledFileReason(std::string_view bytes) noexcept
{
    const std::string_view magic = bytes.substr(0, 4);
    if (magic == "IDST") {
        return "a compiled model (.mdl), not a model source: open it on its own to view it; "
               "studiomdl compiles from the QC, SMD or DMX files it was built from";
    }
    if (magic == "AFTB") {
        // Afterburner's studiomdl (abstudiomdl): GoldSrc's layout under its own magic, which
        // the compiled-model reader reads (docs/compiled.md "Afterburner").
        return "a compiled Afterburner model (.mdl, magic 'AFTB'), not a model source: open it "
               "on its own to view it; abstudiomdl compiles from the QC and SMD files it was "
               "built from";
    }
    if (magic == "IDSQ") {
        return "the sequence group of a compiled GoldSrc model (NAME01.mdl): open the model it "
               "belongs to (NAME.mdl), which reads it";
    }
    if (magic == "IDSV") {
        return "the vertex data (.vvd) of a compiled model: open the .mdl beside it, which reads "
               "it";
    }
    if (magic == "IDAG") {
        return "the animation blocks (.ani) of a compiled model: open the .mdl beside it, which "
               "reads it";
    }
    if (magic == std::string_view("VTF\0", 4)) {
        return "a texture (.vtf), not a model: open the model that uses it; its materials draw it";
    }
    if (magic == "DDS ") {
        return "a texture (.dds), not a model: open the model that uses it; its materials draw it";
    }
    return {};
}

std::string_view unknownFormatReason(std::string_view bytes) noexcept
{
    if (bytes.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos) {
        return "file is empty";
    }
    if (const std::string_view compiled = compiledFileReason(bytes); !compiled.empty()) {
        return compiled;
    }
    return looksBinary(bytes) ? "not a model file: binary data" : "unrecognised file format";
}

namespace {

// A text reader given bytes that are no text (an image, an archive, a compiled .mdl) reports
// them once, rather than quote the bytes as names and numbers.
void reportBinaryGarbage(ReadResult& r, std::string_view bytes, const std::string& fileName)
{
    const bool readAsBinary = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.binary; });
    if (r.hasModel || readAsBinary || !looksBinary(bytes)) {
        return;
    }
    Diagnostic d;
    d.severity = Severity::Error;
    d.id = ids::kSyntaxBadVersion;
    d.message = "not a model file: binary data";
    d.file = fileName;
    d.where = {1, 1, 0};
    d.fixedSeverity = true;
    if (const std::string_view compiled = compiledFileReason(bytes); !compiled.empty()) {
        d.id = ids::kSyntaxCompiledFile; // a game file, said what it is (issue 27)
        d.message = std::string(compiled);
        d.binary = true;
        d.where = {0, 0, 0};
    }
    r.diagnostics.clear();
    r.diagnostics.push_back(std::move(d));
}

// A Git LFS pointer (a clone made without git-lfs): its first line reads like an SMD's
// "version 1", so no reader must take it. The size it names, when it names one.
std::optional<std::string> gitLfsPointer(std::string_view bytes)
{
    constexpr std::string_view kHead = "version https://git-lfs.github.com/spec/";
    if (bytes.size() > 1024 || !bytes.starts_with(kHead)) {
        return std::nullopt;
    }
    const std::size_t at = bytes.find("\nsize ");
    std::string size;
    for (std::size_t i = at == std::string_view::npos ? bytes.size() : at + 6;
         i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9' && size.size() < 20; ++i) {
        size += bytes[i];
    }
    return size;
}

ReadResult lfsPointerResult(const std::string& size, const std::string& fileName)
{
    ReadResult r;
    Diagnostic d;
    d.severity = Severity::Error;
    d.id = ids::kIoLfsPointer;
    d.message = "a Git LFS pointer" +
                (size.empty() ? std::string() : " to a file of " + size + " bytes") +
                ", not the file: the repository keeps it in Git LFS; fetch it with `git lfs pull`";
    d.file = fileName;
    d.where = {1, 1, 0};
    d.fixedSeverity = true;
    r.diagnostics.push_back(std::move(d));
    return r;
}

} // namespace

ReadResult readWith(const FormatInfo& format, std::string_view bytes, const ReadContext& ctx)
{
    if (const std::optional<std::string> lfs = gitLfsPointer(bytes)) {
        return lfsPointerResult(*lfs, ctx.fileName);
    }
    ReadResult r = format.read(bytes, ctx);
    reportBinaryGarbage(r, bytes, ctx.fileName);
    return r;
}

ReadResult readAny(std::string_view bytes, const ReadContext& ctx)
{
    if (const std::optional<std::string> lfs = gitLfsPointer(bytes)) {
        return lfsPointerResult(*lfs, ctx.fileName);
    }
    bool mismatch = false;
    const FormatInfo* f = detectFormat(bytes, ctx.fileName, &mismatch);
    if (!f) {
        ReadResult r;
        DiagnosticSink sink(ctx.fileName);
        const std::string_view why = unknownFormatReason(bytes);
        if (why == compiledFileReason(bytes)) {
            Diagnostic d;
            d.severity = Severity::Error;
            d.id = ids::kSyntaxCompiledFile;
            d.message = std::string(why);
            d.file = ctx.fileName;
            d.binary = true;
            d.fixedSeverity = true;
            r.diagnostics.push_back(std::move(d));
            return r;
        }
        sink.error(why == "file is empty" ? ids::kSyntaxEmptyFile : ids::kSyntaxBadVersion,
                   {1, 1, 0}, std::string(why));
        r.diagnostics = sink.take();
        return r;
    }
    ReadResult r = readWith(*f, bytes, ctx);
    if (mismatch) {
        const FormatInfo* byExt = formatByExtension(ctx.fileName);
        Diagnostic d;
        d.severity = Severity::Note;
        d.id = ids::kSyntaxExtMismatch;
        d.message = "content is " + std::string(f->name) + ", extension says " +
                    std::string(byExt ? byExt->name : "unknown") + "; read by content";
        d.file = ctx.fileName;
        d.where = {1, 1, 0};
        d.fixedSeverity = true;
        r.diagnostics.insert(r.diagnostics.begin(), std::move(d));
    }
    return r;
}

} // namespace rigscope::core
