// Placeholder until this format lands: recognises nothing and reads nothing.
#include "core/formats/xanim/xanim.h"

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

int sniffXanim(std::string_view) noexcept { return 0; }
ReadResult readXanim(std::string_view, const ReadContext& ctx) { return notYet(ctx, "XANIM_EXPORT"); }
WriteResult writeXanim(const Model&, const WriteContext& ctx) { return notYetW(ctx, "XANIM_EXPORT"); }
int sniffNtExport(std::string_view) noexcept { return 0; }
ReadResult readNtExport(std::string_view, const ReadContext& ctx) { return notYet(ctx, "NT_EXPORT"); }
WriteResult writeNtExport(const Model&, const WriteContext& ctx) { return notYetW(ctx, "NT_EXPORT"); }

} // namespace rigscope::core
