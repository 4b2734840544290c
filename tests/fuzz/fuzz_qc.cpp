// libFuzzer target for QC projects (issue 17): the input is the .qc and, through an in-memory
// file system, also every file it can name ("self.qci", "body.smd", ...), so includes, cycles,
// macros and the compiled model all run on hostile bytes. Checks the merged model's invariants
// and that every diagnostic is located.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/ops/qc_ops.h"

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
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    MemoryQcFileSystem fs;
    fs.files["fuzz/main.qc"] = bytes;
    fs.files["fuzz/self.qci"] = bytes;
    fs.files["fuzz/body.smd"] = bytes;
    fs.files["fuzz/anim.smd"] = bytes;
    const QcReport r = qcReport("fuzz/main.qc", Profile::Auto, fs);
    if (!r.readable) {
        fail("unreadable", "fuzz/main.qc");
    }
    if (std::string broken = verifyInvariants(r.compiled.model); !broken.empty()) {
        fail("invariant", broken);
    }
    for (const Diagnostic& d : r.diagnostics) {
        if (d.file.empty() || d.where.line == 0) {
            fail("unlocated diagnostic", formatDiagnostic(d));
        }
    }
    return 0;
}
