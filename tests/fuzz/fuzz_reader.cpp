// One libFuzzer target per format: RIGSCOPE_FUZZ_FORMAT names the registry id. Reads the
// bytes, verifies the model's invariants, runs every check over what the reader returned (alone
// and against itself as the reference, for the xref.* checks), and writes it back when a writer
// exists. Also differential: the same bytes read through the general path only and through the
// fast paths cut into many shares on threads must give the same model, locations and
// diagnostics. Crashes, hangs, invariant violations and disagreements abort.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/formats/registry.h"
#include "core/ops/check.h"

namespace {

void fail(const char* what, const std::string& detail)
{
    std::fprintf(stderr, "fuzz failure: %s: %s\n", what, detail.c_str());
    std::abort();
}

std::string differs(const rigscope::core::ReadResult& a, const rigscope::core::ReadResult& b)
{
    using namespace rigscope::core;
    if (a.hasModel != b.hasModel) {
        return "hasModel";
    }
    if (a.diagnostics.size() != b.diagnostics.size()) {
        return "diagnostic count " + std::to_string(a.diagnostics.size()) + " vs " +
               std::to_string(b.diagnostics.size());
    }
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
        const std::string x = formatDiagnostic(a.diagnostics[i]);
        const std::string y = formatDiagnostic(b.diagnostics[i]);
        if (x != y) {
            return "diagnostic '" + x + "' vs '" + y + "'";
        }
    }
    if (!(a.model == b.model)) {
        return "model";
    }
    const Mesh& m = a.model.mesh;
    const Mesh& n = b.model.mesh;
    if (m.pointWhere != n.pointWhere || m.cornerWhere != n.cornerWhere ||
        m.triangleWhere != n.triangleWhere || a.model.skeleton.where != b.model.skeleton.where) {
        return "locations";
    }
    return {};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rigscope::core;
    const FormatInfo* f = formatById(RIGSCOPE_FUZZ_FORMAT);
    if (!f) {
        fail("unknown format", RIGSCOPE_FUZZ_FORMAT);
    }
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    ReadContext ctx;
    ctx.fileName = "fuzz";
    ReadResult r = f->read(bytes, ctx);
    {
        ReadContext general = ctx;
        general.fastPaths = false;
        ReadContext shared = ctx;
        shared.threads = 3;
        shared.parallelMinBytes = 1;
        const ReadResult g = f->read(bytes, general);
        if (std::string d = differs(g, r); !d.empty()) {
            fail("fast path differs from the general path", d);
        }
        if (std::string d = differs(g, f->read(bytes, shared)); !d.empty()) {
            fail("shared read differs from the general path", d);
        }
    }
    if (!r.hasModel) {
        return 0;
    }
    if (std::string broken = verifyInvariants(r.model); !broken.empty()) {
        fail("invariant", broken);
    }
    CheckOptions opt;
    opt.jobs = 1;
    (void)checkReadResult("fuzz", r, nullptr, std::string(), opt);
    (void)checkReadResult("fuzz", r, &r.model, "fuzz.ref", opt);
    if (f->write) {
        WriteContext w;
        w.fileName = "fuzz.out";
        WriteResult out = f->write(r.model, w);
        (void)out;
    }
    return 0;
}
