// XMODEL_BIN / XANIM_BIN (FORMATS.md §5): *LZ4* container + 4-byte aligned token stream. The
// reader turns tokens into the same records as the text readers, so one grammar serves both.
#include "core/formats/xbin/xbin.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <lz4.h>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_grammar.h"
#include "core/formats/xbin/xbin_out.h"
#include "core/formats/xbin/xbin_stream.h"
#include "core/formats/xbin/xbin_tokens.h"
#include "core/formats/cod/cod_record.h"
#include "core/io/file_buffer.h"
#include "core/text/numbers.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace xbin {

namespace {

using T = TokenType;

constexpr TokenInfo tok(std::string_view n, T t)
{
    return {n, t, codHash(n, static_cast<std::uint16_t>(t))};
}

constexpr std::array kTokens{
    tok("//", T::Comment),
    tok(";", T::Comment),
    tok("MODEL", T::Section),
    tok("ANIMATION", T::Section),
    tok("NOTETRACKS", T::Section),
    tok("VERSION", T::UShort),
    tok("NUMBONES", T::UShort),
    tok("BONE", T::UShort),
    tok("BONES", T::UShort),
    tok("NUMVERTS", T::UShort),
    tok("VERT", T::UShort),
    tok("NUMOBJECTS", T::UShort),
    tok("NUMMATERIALS", T::UShort),
    tok("NUMPARTS", T::UShort),
    tok("PART", T::UShort),
    tok("FRAMERATE", T::UShort),
    tok("NUMTRACKS", T::UShort),
    tok("NOTETRACK", T::UShort),
    tok("NUMKEYS", T::UShort),
    tok("FIRSTFRAME", T::UShort),
    tok("FRAME", T::UInt),
    tok("IKPITCHLAYER", T::UInt),
    tok("NUMVERTS32", T::Int),
    tok("VERT32", T::Int),
    tok("NUMFACES", T::Int),
    tok("NUMFRAMES", T::Int),
    tok("NUMCOSMETICBONES", T::Int),
    tok("NUMSBONES", T::Int),
    tok("NUMSWEIGHTS", T::Int),
    tok("NUMIKPITCHLAYERS", T::Int),
    tok("COLOR", T::Vector48Bit),
    tok("X", T::Vector316Bit),
    tok("Y", T::Vector316Bit),
    tok("Z", T::Vector316Bit),
    tok("NORMAL", T::Vector316Bit),
    tok("PHONG", T::Float),
    tok("COEFFS", T::Vector2),
    tok("GLOW", T::Vector2),
    tok("REFRACTIVE", T::Vector2),
    tok("REFLECTIVE", T::Vector2),
    tok("BLINN", T::Vector2),
    tok("OFFSET", T::Vector3),
    tok("SCALE", T::Vector3),
    tok("ROTATION", T::Vector3),
    tok("TRANSPARENCY", T::Vector4),
    tok("AMBIENTCOLOR", T::Vector4),
    tok("INCANDESCENCE", T::Vector4),
    tok("SPECULARCOLOR", T::Vector4),
    tok("REFLECTIVECOLOR", T::Vector4),
    tok("QUATERNION", T::Vector4),
    tok("EXTRA", T::Vector4),
    tok("BONE", T::BoneWeight),
    tok("UV", T::UVSet),
    tok("OBJECT", T::UShortString),
    tok("PART", T::UShortString),
    tok("MATERIAL", T::UShortStringX3),
    tok("FRAME", T::NoteFrame),
    tok("BONE", T::BoneInfo),
    tok("TRI", T::Tri),
    tok("TRI16", T::Tri16),
};

std::string numberTextOf(double v)
{
    std::string s;
    appendFloat(s, static_cast<float>(v));
    return s;
}

// How many arguments the text line a token stands for has (UV: any), in TokenType order.
constexpr std::size_t kAny = 99;
constexpr std::size_t kArgs[] = {1, 0, 1, 1, 1, 1, 4, 3, 1, 2, 3, 4, 2, kAny, 2, 4, 2, 3, 4, 4};

// The token of a text record: its keyword's, by argument count when the keyword has several
// (BONE, PART, FRAME), else the keyword's only token (a material parameter may hold more or
// fewer values than its token).
const TokenInfo* tokenOfRecord(std::string_view keyword, std::size_t argc) noexcept
{
    const TokenInfo* named = nullptr;
    for (const TokenInfo& t : kTokens) {
        if (t.name != keyword || t.type == T::Comment) {
            continue;
        }
        const std::size_t args = kArgs[static_cast<std::size_t>(t.type)];
        if (args == argc || args == kAny) {
            return &t;
        }
        named = named ? named : &t;
    }
    return named;
}

// The §5.1 container's token stream into `out`; else why not, and where.
std::string unwrap(std::string_view bytes, std::string& out, std::uint64_t& at)
{
    if (bytes.size() < 9 || bytes.substr(0, 5) != "*LZ4*") {
        at = 0;
        return bytes.size() < 9 && bytes.substr(0, std::min<std::size_t>(5, bytes.size())) ==
                                       std::string_view("*LZ4*").substr(
                                           0, std::min<std::size_t>(5, bytes.size()))
                   ? "truncated *LZ4* header (" + std::to_string(bytes.size()) + " bytes)"
                   : "bad magic; expected '*LZ4*'";
    }
    std::uint32_t size = 0;
    for (int i = 0; i < 4; ++i) {
        size |= static_cast<std::uint32_t>(
                    static_cast<unsigned char>(bytes[5 + static_cast<std::size_t>(i)]))
                << (8 * i);
    }
    const std::uint64_t compressed = bytes.size() - 9;
    const std::uint64_t limit = std::min<std::uint64_t>(1ull << 30, 255ull * compressed + 64ull);
    if (size == 0 || size > limit) {
        at = 5;
        return "uncompressed size " + std::to_string(size) + " outside 1.." +
               std::to_string(limit) + " for " + std::to_string(compressed) + " compressed bytes";
    }
    at = 9;
    if (compressed > static_cast<std::uint64_t>(INT32_MAX)) {
        return "compressed block too large";
    }
    out.assign(size, '\0');
    const int got = LZ4_decompress_safe(bytes.data() + 9, out.data(), static_cast<int>(compressed),
                                        static_cast<int>(size));
    if (got < 0 || static_cast<std::uint32_t>(got) != size) {
        return got < 0 ? "LZ4 data corrupt or cut short (" + std::to_string(compressed) +
                             " compressed bytes for " + std::to_string(size) + ")"
                       : "LZ4 data holds " + std::to_string(got) + " bytes; header says " +
                             std::to_string(size);
    }
    return {};
}

} // namespace

const TokenInfo* tokenByHash(std::uint16_t hash) noexcept
{
    for (const TokenInfo& t : kTokens) {
        if (t.hash == hash) {
            return &t;
        }
    }
    return nullptr;
}

const TokenInfo* tokenTable(std::size_t& count) noexcept
{
    count = kTokens.size();
    return kTokens.data();
}

std::string wrapContainer(std::string_view stream)
{
    if (stream.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
        return {};
    }
    const int srcSize = static_cast<int>(stream.size());
    const int bound = LZ4_compressBound(srcSize);
    std::string out(9 + static_cast<std::size_t>(bound), '\0');
    std::memcpy(out.data(), "*LZ4*", 5);
    const auto n = static_cast<std::uint32_t>(srcSize);
    for (std::size_t i = 0; i < 4; ++i) {
        out[5 + i] = static_cast<char>((n >> (8 * i)) & 0xFFu);
    }
    const int written = LZ4_compress_default(stream.data(), out.data() + 9, srcSize, bound);
    out.resize(9 + static_cast<std::size_t>(written > 0 ? written : 0));
    return out;
}

bool unwrapContainer(std::string_view bytes, std::string& out)
{
    std::uint64_t at = 0;
    return unwrap(bytes, out, at).empty();
}

// ---- writer ------------------------------------------------------------------------------

void TokenOut::cstring(std::string_view s)
{
    for (char c : s) {
        if (c != '\0') {
            m_buffer.push_back(c);
        }
    }
    m_buffer.push_back('\0');
    align4();
}

// Round to nearest and clamp (write.quantise-clamp counts values that clamping changes).
long TokenOut::quant(double v, long lo, long hi, const char* what)
{
    double r = std::isfinite(v) ? std::round(v) : 0.0;
    if (!std::isfinite(v) || r < static_cast<double>(lo) || r > static_cast<double>(hi)) {
        r = std::isfinite(v) ? std::clamp(r, static_cast<double>(lo), static_cast<double>(hi))
                             : 0.0;
        if (m_clamped++ == 0) {
            m_firstClamp = std::string(what) + " " + numberTextOf(v);
        }
    }
    return static_cast<long>(r);
}

// Integer fields: a fractional value (frame rate, frame number) is a changed value too.
void TokenOut::integral(double v, const char* what)
{
    if (std::isfinite(v) && v != std::floor(v) && m_clamped++ == 0) {
        m_firstClamp = std::string(what) + " " + numberTextOf(v) + " rounded";
    }
}

void TokenOut::nl()
{
    if (m_kw.empty()) {
        return;
    }
    // Records repeat a few keywords: each one's token is remembered (a scan of kTokens per
    // record would cost more than writing it).
    const std::size_t argc = m_nums.size() + m_strs.size();
    Seen& seen =
        m_seen[(m_kw.size() * 7 + static_cast<unsigned char>(m_kw.back()) + argc) % m_seen.size()];
    const bool known = seen.token && seen.argc == argc && seen.keyword.size() == m_kw.size() &&
                       (seen.keyword.data() == m_kw.data() || seen.keyword == m_kw);
    if (!known) {
        seen = {m_kw, argc, tokenOfRecord(m_kw, argc)};
    }
    const TokenInfo* t = seen.token;
    const char* name = t->name.data(); // a literal of kTokens: NUL-terminated
    hash(t->hash);
    switch (t->type) {
    case T::Comment:
    case T::Short: // no record stands for these
        break;
    case T::Section:
        put16(0);
        break;
    case T::UShort:
        integral(num(0), name);
        put16(static_cast<std::uint16_t>(quant(num(0), 0, 65535, name)));
        break;
    case T::UInt:
        integral(num(0), name);
        pad2();
        put32(static_cast<std::uint32_t>(quant(num(0), 0, 4294967295L, name)));
        break;
    case T::Int:
        pad2();
        put32(static_cast<std::uint32_t>(
            static_cast<std::int32_t>(quant(num(0), INT32_MIN, INT32_MAX, name))));
        break;
    case T::Vector48Bit:
        pad2();
        for (std::size_t k = 0; k < 4; ++k) {
            m_buffer.push_back(static_cast<char>(
                static_cast<unsigned char>(quant(num(k) * 255.0, 0, 255, "colour"))));
        }
        break;
    case T::Vector316Bit:
        for (std::size_t k = 0; k < 3; ++k) {
            const long q = quant(num(k) * 32767.0, -32767, 32767, name);
            put16(static_cast<std::uint16_t>(static_cast<std::int16_t>(q)));
        }
        break;
    case T::Float:
    case T::Vector2:
    case T::Vector3:
    case T::Vector4:
        pad2();
        for (std::size_t k = 0; k < kArgs[static_cast<std::size_t>(t->type)]; ++k) {
            putF(static_cast<float>(num(k)));
        }
        break;
    case T::BoneWeight:
        put16(static_cast<std::uint16_t>(static_cast<std::int16_t>(whole(0))));
        putF(static_cast<float>(num(1)));
        break;
    case T::UVSet:
        put16(static_cast<std::uint16_t>(whole(0)));
        for (std::size_t k = 1; k < m_nums.size(); ++k) {
            putF(static_cast<float>(m_nums[k]));
        }
        break;
    case T::UShortString:
    case T::UShortStringX3:
        put16(static_cast<std::uint16_t>(whole(0)));
        for (std::string_view s : m_strs) {
            cstring(s);
        }
        break;
    case T::NoteFrame:
        pad2();
        integral(num(0), "note frame");
        put32(static_cast<std::uint32_t>(
            static_cast<std::int32_t>(quant(num(0), INT32_MIN, INT32_MAX, "note frame"))));
        cstring(m_strs.front());
        break;
    case T::BoneInfo:
        pad2();
        put32(static_cast<std::uint32_t>(whole(0)));
        put32(static_cast<std::uint32_t>(whole(1)));
        cstring(m_strs.front());
        break;
    case T::Tri:
        m_buffer.push_back(static_cast<char>(whole(0)));
        m_buffer.push_back(static_cast<char>(whole(1)));
        break;
    case T::Tri16:
        pad2();
        put16(static_cast<std::uint16_t>(std::min<std::int64_t>(whole(0), 65535)));
        put16(static_cast<std::uint16_t>(std::min<std::int64_t>(whole(1), 65535)));
        break;
    }
    m_kw = {};
    m_nums.clear();
    m_strs.clear();
}

void TokenOut::comments(const std::vector<std::string>& header)
{
    for (const std::string& c : header) {
        std::string_view t = c;
        bool semi = false;
        if (t.rfind("//", 0) == 0) {
            t.remove_prefix(2);
        } else if (t.rfind(';', 0) == 0) {
            t.remove_prefix(1);
            semi = true;
        }
        hash(codHash(semi ? ";" : "//", static_cast<std::uint16_t>(T::Comment)));
        pad2();
        cstring(t);
    }
}

bool TokenOut::hasParam(std::string_view key) noexcept
{
    for (std::string_view k :
         {"COLOR", "PHONG", "COEFFS", "GLOW", "REFRACTIVE", "REFLECTIVE", "BLINN", "TRANSPARENCY",
          "AMBIENTCOLOR", "INCANDESCENCE", "SPECULARCOLOR", "REFLECTIVECOLOR"}) {
        if (key == k) {
            return true;
        }
    }
    return false;
}

WriteResult TokenOut::finish(DiagnosticSink& sink)
{
    WriteResult res;
    if (m_clamped > 0) {
        sink.warning(ids::kWriteQuantiseClamp, {1, 1, 0},
                     std::to_string(m_clamped) + " values clamped when quantised (e.g. " +
                         m_firstClamp + ")");
    }
    if (m_buffer.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
        sink.error(ids::kSyntaxBinCorrupt, {1, 1, 0}, "token stream too large for one LZ4 block");
    } else {
        res.bytes = wrapContainer(m_buffer);
    }
    res.diagnostics = sink.take();
    return res;
}

} // namespace xbin

int sniffXbin(std::string_view head) noexcept
{
    return head.size() >= 5 && head.substr(0, 5) == "*LZ4*" ? 90 : 0;
}

ReadResult readXbin(std::string_view bytes, const ReadContext& ctx)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName, true);
    if (bytes.empty()) {
        sink.error(ids::kSyntaxEmptyFile, {0, 0, 0}, "file is empty");
        r.diagnostics = sink.take();
        return r;
    }
    std::string data;
    std::uint64_t at = 0;
    if (std::string why = xbin::unwrap(bytes, data, at); !why.empty()) {
        sink.error(ids::kSyntaxBinCorrupt, {0, 0, at}, std::move(why));
        r.diagnostics = sink.take();
        return r;
    }
    // Which stream is it? The first section token decides.
    std::string first;
    {
        xbin::BinRecordStream probe(data, nullptr, nullptr);
        cod::Record rec;
        if (probe.next(rec)) {
            first = rec.keyword;
        }
    }
    Model m;
    xbin::BinRecordStream in(data, &sink, &m.headerComments);
    bool ok = false;
    if (first == "MODEL") {
        ok = cod::parseXmodelRecords(in, sink, m, data.size() + 1);
        m.format = "xmodel_bin";
    } else if (first == "ANIMATION") {
        ok = cod::parseXanimRecords(in, sink, m, data.size() + 1);
        m.format = "xanim_bin";
    } else {
        cod::Record rec;
        while (in.next(rec)) {
        }
        if (!in.stopped()) {
            sink.error(ids::kSyntaxBinCorrupt, {0, 0, 0},
                       "no 'MODEL' or 'ANIMATION' token (offset into the decompressed stream)");
        }
    }
    if (!ok) {
        r.diagnostics = sink.take();
        return r;
    }
    const std::string ext = extensionLower(ctx.fileName);
    const bool model = formatFamily(m.format) == FormatFamily::CodModel;
    if ((ext == "xanim_bin" && model) || (ext == "xmodel_bin" && !model)) {
        Diagnostic& d =
            sink.note(ids::kSyntaxExtMismatch, {0, 0, 0},
                      std::string("content is ") + (model ? "a model" : "an animation") +
                          " stream, extension says ." + ext + "; read by content");
        d.fixedSeverity = true;
    }
    m.lineEnding = LineEnding::CRLF;
    r.model = std::move(m);
    r.hasModel = true;
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
