#pragma once

// The *_BIN writers' token stream (FORMATS.md §5.2). It takes the records the text writers
// write (cod::TextOut's kw / i / d / f / fs / s / nl) and encodes each as the token the text
// line stands for, so one walk over a model writes either the text or the binary file.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/registry.h"
#include "core/formats/xbin/xbin_tokens.h"

namespace rigscope::core::xbin {

class TokenOut {
public:
    TokenOut& kw(std::string_view k)
    {
        m_kw = k;
        return *this;
    }
    TokenOut& i(std::int64_t v) { return d(static_cast<double>(v)); }
    TokenOut& d(double v)
    {
        m_nums.push_back(v);
        return *this;
    }
    TokenOut& f(float v) { return d(static_cast<double>(v)); }
    TokenOut& fs(const float* v, std::size_t n)
    {
        for (std::size_t k = 0; k < n; ++k) {
            f(v[k]);
        }
        return *this;
    }
    TokenOut& s(std::string_view str)
    {
        m_strs.push_back(str);
        return *this;
    }
    // Writes the record as its token (the token of its keyword and argument count; missing
    // numbers are 0). A blank line (no keyword) writes nothing.
    void nl();

    // Header comment lines as `//` or `;` tokens.
    void comments(const std::vector<std::string>& header);
    // Whether a material parameter has a token (others are not written).
    static bool hasParam(std::string_view key) noexcept;
    // write.quantise-clamp for the values clamping changed, and the *LZ4* container.
    WriteResult finish(DiagnosticSink& sink);

private:
    void align4() { m_buffer.resize((m_buffer.size() + 3) / 4 * 4, '\0'); }
    void hash(std::uint16_t h)
    {
        align4();
        put16(h);
    }
    void put16(std::uint16_t v)
    {
        m_buffer.push_back(static_cast<char>(v & 0xFF));
        m_buffer.push_back(static_cast<char>(v >> 8));
    }
    void put32(std::uint32_t v)
    {
        put16(static_cast<std::uint16_t>(v & 0xFFFF));
        put16(static_cast<std::uint16_t>(v >> 16));
    }
    void putF(float f)
    {
        std::uint32_t v = 0;
        std::memcpy(&v, &f, 4);
        put32(v);
    }
    void pad2() { put16(0); }
    void cstring(std::string_view s);
    long quant(double v, long lo, long hi, const char* what);
    void integral(double v, const char* what);
    double num(std::size_t k) const noexcept { return k < m_nums.size() ? m_nums[k] : 0.0; }
    std::int64_t whole(std::size_t k) const noexcept { return static_cast<std::int64_t>(num(k)); }

    std::string m_buffer;
    std::size_t m_clamped = 0;
    std::string m_firstClamp;
    struct Seen {
        std::string_view keyword;
        std::size_t argc = 0;
        const TokenInfo* token = nullptr;
    };
    std::array<Seen, 32> m_seen{};
    std::string_view m_kw;
    std::vector<double> m_nums;
    std::vector<std::string_view> m_strs;
};

} // namespace rigscope::core::xbin
