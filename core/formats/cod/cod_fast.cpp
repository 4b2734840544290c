// The pieces of the CoD text readers' shares that XMODEL and XANIM both use (cod_fast.h).
#include "core/formats/cod/cod_fast.h"

#include <cstring>

namespace rigscope::core::cod {

std::size_t shareCount(const ReadContext& ctx, std::size_t rest) noexcept
{
    return core::shareCount(ctx.threads, ctx.parallelMinBytes, rest);
}

void spliceDiagnostics(DiagnosticSink& sink, DiagnosticSink& share, std::uint32_t lineBase)
{
    for (Diagnostic& d : share.diagnostics()) {
        d.where.line += lineBase;
        sink.diagnostics().push_back(std::move(d));
    }
    share.diagnostics().clear();
}

const char* guessLinePair(const char* p, const char* end, std::initializer_list<std::string_view> a,
                          std::initializer_list<std::string_view> b, int look) noexcept
{
    auto startsWith = [end](const char* q, std::initializer_list<std::string_view> words) {
        while (q < end && (*q == ' ' || *q == '\t')) {
            ++q;
        }
        for (const std::string_view w : words) {
            if (static_cast<std::size_t>(end - q) >= w.size() &&
                std::memcmp(q, w.data(), w.size()) == 0) {
                return true;
            }
        }
        return false;
    };
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) {
        return nullptr;
    }
    p = static_cast<const char*>(nl) + 1;
    const char* candidate = nullptr; // a line starting with `a`, before its next non-blank line
    for (int n = 0; n < look && p < end; ++n) {
        const char* ls = p;
        const void* e = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        p = e ? static_cast<const char*>(e) + 1 : end;
        const char* q = ls;
        while (q < p && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) {
            ++q;
        }
        if (q == p) {
            continue; // blank
        }
        if (candidate && startsWith(ls, b)) {
            return candidate;
        }
        candidate = startsWith(ls, a) ? ls : nullptr;
    }
    return nullptr;
}

} // namespace rigscope::core::cod
