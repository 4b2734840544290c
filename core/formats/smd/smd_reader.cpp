// Placeholder: replaced by the real reader.
#include "core/formats/smd/smd_reader.h"

#include "core/diag/diagnostic_ids.h"

namespace rigscope::core {

int sniffSmd(std::string_view) noexcept { return 0; }
ReadResult readSmd(std::string_view, const ReadContext& ctx)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName);
    sink.error(ids::kSyntaxEmptyFile, {1, 1, 0}, "not implemented");
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
