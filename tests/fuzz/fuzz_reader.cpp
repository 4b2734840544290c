// One libFuzzer target per format: RIGSCOPE_FUZZ_FORMAT names the registry id. Reads the
// bytes, verifies the model's invariants, runs every check over what the reader returned (alone
// and against itself as the reference, for the xref.* checks), and writes it back when a writer
// exists. Crashes, hangs and invariant violations abort.
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
