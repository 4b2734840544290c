#include "core/ops/read_input.h"

#include "core/formats/content_sniff.h"
#include "core/io/file_buffer.h"
#include "core/ops/qc_ops.h"
#include "core/project/qc_resolve.h"

namespace rigscope::core {

const FormatInfo* readerByName(std::string_view name) noexcept
{
    if (name.empty()) {
        return nullptr;
    }
    if (const FormatInfo* f = formatById(name)) {
        return f;
    }
    for (const FormatInfo& f : formats()) {
        for (std::string_view e : f.extensions) {
            if (e == name) {
                return &f;
            }
        }
    }
    return nullptr;
}

std::string readerNames()
{
    std::string s;
    for (const FormatInfo& f : formats()) {
        s += s.empty() ? "" : ", ";
        s += f.id;
    }
    return s;
}

ReadResult readInput(std::string_view bytes, const ReadContext& ctx, const std::string& forceReader)
{
    if (forceReader.empty()) {
        return readAny(bytes, ctx);
    }
    const FormatInfo* f = readerByName(forceReader);
    if (f == nullptr) {
        return readAny(bytes, ctx);
    }
    return readWith(*f, bytes, ctx);
}

bool isReadable(std::string_view bytes, const std::string& path, const std::string& forceReader)
{
    return readerByName(forceReader) != nullptr || detectFormat(bytes, path) != nullptr;
}

OpenedInput openInput(const std::string& path, Profile profile, const std::string& forceReader)
{
    OpenedInput in;
    in.path = path;
    if (isQcPath(path)) {
        auto qc = std::make_shared<QcReport>(qcReportFromFile(path, profile));
        if (!qc->readable) {
            in.error = qc->ioError;
            return in;
        }
        in.readable = true;
        in.result.hasModel = qc->compiled.hasModel;
        in.result.model = std::move(qc->compiled.model);
        in.result.diagnostics = qc->diagnostics;
        in.qc = std::move(qc);
        return in;
    }
    MappedFile file(path);
    if (!file.ok()) {
        in.error = file.error();
        return in;
    }
    if (!isReadable(file.bytes(), path, forceReader)) {
        in.error = "'" + path + "': " + std::string(unknownFormatReason(file.bytes()));
        return in;
    }
    ReadContext ctx;
    ctx.fileName = path;
    ctx.profile = profile;
    in.result = readInput(file.bytes(), ctx, forceReader);
    if (!file.unchanged()) { // written meanwhile: what was parsed is no version of the file
        in.result = ReadResult{};
        in.error = file.error();
        return in;
    }
    in.readable = true;
    return in;
}

} // namespace rigscope::core
