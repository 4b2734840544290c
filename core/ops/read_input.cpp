#include "core/ops/read_input.h"

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

} // namespace rigscope::core
