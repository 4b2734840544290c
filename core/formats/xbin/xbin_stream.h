#pragma once

// The *_BIN reader's token stream (FORMATS.md §5.2), shared by the CoD grammars.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_record.h"
#include "core/formats/xbin/xbin_tokens.h"

namespace rigscope::core::xbin {

inline std::string hex(std::uint64_t v, int width)
{
    static const char* d = "0123456789ABCDEF";
    std::string s(static_cast<std::size_t>(width), '0');
    for (int i = width - 1; i >= 0 && v; --i) {
        s[static_cast<std::size_t>(i)] = d[v & 15u];
        v >>= 4;
    }
    return "0x" + s;
}

// The *_BIN token stream as CoD records (one record a token; FORMATS.md §5), read by the same
// grammars as the text files (cod_grammar.h).
class BinRecordStream {
    using T = TokenType;

public:
    BinRecordStream(std::string_view data, DiagnosticSink* sink, std::vector<std::string>* header)
        : m_data(data), m_sink(sink), m_header(header)
    {
    }

    bool next(cod::Record& r)
    {
        while (!m_stopped && m_pos < m_data.size()) {
            if (readOne(r)) {
                return true;
            }
        }
        return false;
    }
    bool stopped() const noexcept { return m_stopped; }
    bool stoppedOnError() const noexcept { return m_stopped; }
    static SourceLoc cutString() noexcept { return {}; }

private:
    std::string_view m_data;
    std::size_t m_pos = 0;
    DiagnosticSink* m_sink;
    std::vector<std::string>* m_header;
    bool m_stopped = false;
    bool m_first = true;
    bool m_sawSection = false;

    void corrupt(std::size_t at, const std::string& msg)
    {
        if (m_sink) {
            m_sink->error(ids::kSyntaxBinCorrupt, {0, 0, at},
                          msg + " (offset into the decompressed stream)");
        }
        m_stopped = true;
    }
    bool have(std::size_t at, std::size_t n) const noexcept
    {
        return at <= m_data.size() && m_data.size() - at >= n;
    }
    std::uint16_t u16(std::size_t at) const noexcept
    {
        return static_cast<std::uint16_t>(static_cast<unsigned char>(m_data[at]) |
                                          (static_cast<unsigned char>(m_data[at + 1]) << 8));
    }
    std::uint32_t u32(std::size_t at) const noexcept
    {
        return static_cast<std::uint32_t>(u16(at)) |
               (static_cast<std::uint32_t>(u16(at + 2)) << 16);
    }
    float f32(std::size_t at) const noexcept
    {
        const std::uint32_t b = u32(at);
        float f = 0;
        std::memcpy(&f, &b, 4);
        return f;
    }
    // cstring at `at`; returns false when unterminated. `end` is just past the NUL.
    bool cstr(std::size_t at, std::string_view& s, std::size_t& end) const noexcept
    {
        if (at > m_data.size()) {
            return false;
        }
        const std::size_t nul = m_data.find('\0', at);
        if (nul == std::string_view::npos) {
            return false;
        }
        s = m_data.substr(at, nul - at);
        end = nul + 1;
        return true;
    }
    static std::size_t align4(std::size_t v) noexcept { return (v + 3) & ~std::size_t{3}; }

    // The record's next argument, or nullptr (and moreArgs) when it holds kMaxArgs already.
    static cod::Arg* nextArg(cod::Record& r) noexcept
    {
        if (r.argc >= cod::kMaxArgs) {
            r.moreArgs = true;
            return nullptr;
        }
        return &r.args[r.argc++];
    }
    void num(cod::Record& r, double v, std::size_t at)
    {
        if (cod::Arg* a = nextArg(r)) {
            *a = {.text = {}, .num = v, .at = at, .hasNum = true, .isString = false};
        }
    }
    void str(cod::Record& r, std::string_view s, std::size_t at)
    {
        if (cod::Arg* a = nextArg(r)) {
            *a = {.text = s, .num = 0, .at = at, .hasNum = false, .isString = true};
        }
    }

    // Where the next token starts after a variable-length token ending at `end` (just past a
    // NUL). Normal: zero padding to the next multiple of 4. Fallback: an unpadded writer.
    std::size_t afterString(std::size_t end)
    {
        const std::size_t aligned = align4(end);
        if (aligned == end) {
            return end;
        }
        bool zeros = aligned <= m_data.size();
        for (std::size_t i = end; zeros && i < aligned; ++i) {
            zeros = m_data[i] == '\0';
        }
        if (zeros &&
            (aligned == m_data.size() || (have(aligned, 2) && tokenByHash(u16(aligned))))) {
            return aligned;
        }
        if (have(end, 2) && tokenByHash(u16(end))) {
            if (m_sink) {
                m_sink->warning(ids::kSyntaxBinMisaligned, {0, 0, end},
                                "token at " + hex(end, 4) +
                                    " is not on a 4-byte boundary (unpadded string; offset into "
                                    "the decompressed stream)");
            }
            return end;
        }
        return aligned;
    }

    bool readOne(cod::Record& r)
    {
        const std::size_t start = m_pos;
        if (!have(start, 2)) {
            corrupt(start, "truncated token hash at " + hex(start, 4));
            return false;
        }
        const std::uint16_t h = u16(start);
        const TokenInfo* info = tokenByHash(h);
        if (!info) {
            corrupt(start, "unknown token hash " + hex(h, 4) + " at " + hex(start, 4) +
                               "; rest of the stream unreadable");
            return false;
        }
        if (m_first &&
            !(info->type == T::Comment || info->name == "MODEL" || info->name == "ANIMATION")) {
            corrupt(start, "first token is '" + std::string(info->name) +
                               "', not '//', 'MODEL' or 'ANIMATION'; not a CoD binary");
            return false;
        }
        m_first = false;
        r.keyword = info->name;
        r.kw = cod::keywordKind(info->name);
        r.argc = 0;
        r.moreArgs = false;
        r.loc = {0, 0, start};
        r.binary = true;
        auto overrun = [&]() {
            corrupt(start, "token '" + std::string(info->name) + "' at " + hex(start, 4) +
                               " runs past the end of the stream");
            return false;
        };
        // Bytes after the hash that every token of a type holds, in TokenType order (FORMATS.md
        // §5.2): all its fields, or those before its strings or its UV values.
        static constexpr std::uint8_t kFixed[] = {2,  2,  2, 2, 6, 6, 6, 6,  6, 10,
                                                  14, 18, 6, 2, 2, 2, 6, 10, 2, 6};
        const std::size_t p = start + 2;
        const std::size_t fixed = kFixed[static_cast<std::size_t>(info->type)];
        if (!have(p, fixed)) {
            return overrun();
        }
        std::string_view s;
        std::size_t end = 0;
        switch (info->type) {
        case T::Comment:
            if (!cstr(p + 2, s, end)) {
                return overrun();
            }
            m_pos = afterString(end);
            if (!m_sawSection && m_header) {
                m_header->push_back((info->name == "//" ? "//" : ";") + std::string(s));
            }
            return false; // comments are not records
        case T::Section:
            m_sawSection = true;
            break;
        case T::Short:
            num(r, static_cast<std::int16_t>(u16(p)), p);
            break;
        case T::UShort:
            num(r, u16(p), p);
            break;
        case T::UInt:
            num(r, u32(p + 2), p + 2);
            break;
        case T::Int:
            num(r, static_cast<std::int32_t>(u32(p + 2)), p + 2);
            break;
        case T::Vector48Bit:
            for (std::size_t i = 0; i < 4; ++i) {
                num(r,
                    static_cast<double>(
                        static_cast<float>(static_cast<unsigned char>(m_data[p + 2 + i])) / 255.0f),
                    p + 2 + i);
            }
            break;
        case T::Vector316Bit:
            for (std::size_t i = 0; i < 3; ++i) {
                const auto v = static_cast<std::int16_t>(u16(p + 2 * i));
                num(r, static_cast<double>(static_cast<float>(v) / 32767.0f), p + 2 * i);
            }
            break;
        case T::Float:
        case T::Vector2:
        case T::Vector3:
        case T::Vector4:
            for (std::size_t i = 0; i < (fixed - 2) / 4; ++i) {
                num(r, static_cast<double>(f32(p + 2 + 4 * i)), p + 2 + 4 * i);
            }
            break;
        case T::BoneWeight:
            num(r, static_cast<std::int16_t>(u16(p)), p);
            num(r, static_cast<double>(f32(p + 2)), p + 2);
            break;
        case T::UVSet: {
            const std::uint16_t n = u16(p);
            if (!have(p + 2, 8u * n)) {
                return overrun();
            }
            num(r, n, p);
            for (std::size_t i = 0; i < 2u * n; ++i) {
                num(r, static_cast<double>(f32(p + 2 + 4 * i)), p + 2 + 4 * i);
            }
            m_pos = p + 2 + 8u * n;
            return true;
        }
        case T::UShortString:
            if (!cstr(p + 2, s, end)) {
                return overrun();
            }
            num(r, u16(p), p);
            str(r, s, p + 2);
            m_pos = afterString(end);
            return true;
        case T::UShortStringX3: {
            num(r, u16(p), p);
            std::size_t q = p + 2;
            for (int i = 0; i < 3; ++i) {
                if (!cstr(q, s, end)) {
                    return overrun();
                }
                str(r, s, q);
                q = i < 2 ? align4(end) : end;
            }
            m_pos = afterString(end);
            return true;
        }
        case T::NoteFrame:
        case T::BoneInfo:
            if (!cstr(p + fixed, s, end)) {
                return overrun();
            }
            num(r, static_cast<std::int32_t>(u32(p + 2)), p + 2);
            if (info->type == T::BoneInfo) {
                num(r, static_cast<std::int32_t>(u32(p + 6)), p + 6);
            }
            str(r, s, p + fixed);
            m_pos = afterString(end);
            return true;
        case T::Tri:
            num(r, static_cast<unsigned char>(m_data[p]), p);
            num(r, static_cast<unsigned char>(m_data[p + 1]), p + 1);
            num(r, 0, p);
            num(r, 0, p);
            break;
        case T::Tri16:
            num(r, u16(p + 2), p + 2);
            num(r, u16(p + 4), p + 4);
            num(r, 0, p);
            num(r, 0, p);
            break;
        }
        m_pos = p + fixed;
        return true;
    }
};

} // namespace rigscope::core::xbin
