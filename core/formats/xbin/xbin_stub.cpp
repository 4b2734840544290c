// Placeholder until this format lands: recognises nothing and reads nothing.
#include "core/formats/xbin/xbin.h"

#include "core/diag/diagnostic_ids.h"

namespace rigscope::core {

namespace {
ReadResult notYet(const ReadContext& ctx, const char* what)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName);
    sink.error(ids::kSyntaxBadVersion, {1, 1, 0}, std::string(what) + " reading is not implemented yet");
    r.diagnostics = sink.take();
    return r;
}
WriteResult notYetW(const WriteContext& ctx, const char* what)
{
    WriteResult r;
    DiagnosticSink sink(ctx.fileName);
    sink.error(ids::kWriteBadName, {1, 1, 0}, std::string(what) + " writing is not implemented yet");
    r.diagnostics = sink.take();
    return r;
}
} // namespace

int sniffXbin(std::string_view) noexcept { return 0; }
ReadResult readXbin(std::string_view, const ReadContext& ctx) { return notYet(ctx, "*_BIN"); }
WriteResult writeXmodelBin(const Model&, const WriteContext& ctx) { return notYetW(ctx, "XMODEL_BIN"); }
WriteResult writeXanimBin(const Model&, const WriteContext& ctx) { return notYetW(ctx, "XANIM_BIN"); }

} // namespace rigscope::core
