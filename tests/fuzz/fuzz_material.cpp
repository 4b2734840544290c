// libFuzzer targets for the material readers (issue 18): RIGSCOPE_FUZZ_MATERIAL is "vtf", "dds"
// or "vmt". VTF / DDS: header, every mip cap and decode; the decoded size must match the mip's.
// VMT: KeyValues, conditionals and a patch whose include loads the same bytes again (cycles).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/materials/dds.h"
#include "core/materials/vmt.h"
#include "core/materials/vtf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace rigscope::core;
    const auto bytes = std::as_bytes(std::span(data, size));
    const std::string_view kind = RIGSCOPE_FUZZ_MATERIAL;
    if (kind == "vtf") {
        for (std::uint32_t cap : {1u, 64u, 4096u}) {
            const VtfReadResult r = readVtf(bytes, cap);
            if (r.ok() &&
                r.image.pixels.size() != std::size_t(r.image.width) * r.image.height * 4) {
                std::fputs("fuzz failure: decoded size differs from the mip's\n", stderr);
                std::abort();
            }
        }
        (void)readVtfInfo(bytes.first(std::min<std::size_t>(size, 256)), size);
        return 0;
    }
    if (kind == "dds") {
        for (std::uint32_t cap : {1u, 64u, 4096u}) {
            const DdsReadResult r = readDds(bytes, cap);
            if (r.ok() &&
                (r.image.pixels.size() != std::size_t(r.image.width) * r.image.height * 4 ||
                 r.image.width != std::max(1u, r.width >> r.mip))) {
                std::fputs("fuzz failure: decoded size differs from the mip's\n", stderr);
                std::abort();
            }
        }
        (void)readDdsInfo(bytes);
        return 0;
    }
    const std::string copy(reinterpret_cast<const char*>(data), size);
    VmtIncludeLoader loader = [&copy](const std::string& name) -> std::optional<IncludedFile> {
        return IncludedFile{name, copy};
    };
    DiagnosticSink sink("fuzz.vmt");
    const Vmt v = readVmt(bytes, "fuzz.vmt", loader, sink);
    (void)vmtLook(v);
    return 0;
}
