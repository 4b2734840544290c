#include "core/text/numbers.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace rigscope::core {

namespace {

bool ieq(std::string_view a, std::string_view b) noexcept
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
        if (c != b[i]) {
            return false;
        }
    }
    return true;
}

// The power of ten of a decimal's leading digit plus one (0.05 -> -1, 5 -> 1, 1e-50 -> -49):
// out of a type's range it is far above 0 for an overflow and far below for an underflow.
long decimalExponent(const char* p, const char* e) noexcept
{
    p += p != e && *p == '-' ? 1 : 0;
    long intDigits = 0, fracZeros = 0;
    bool significant = false;
    for (; p != e && *p >= '0' && *p <= '9'; ++p) {
        significant = significant || *p != '0';
        intDigits += significant ? 1 : 0;
    }
    if (p != e && *p == '.') {
        for (++p; p != e && *p >= '0' && *p <= '9'; ++p) {
            if (!significant && *p == '0') {
                ++fracZeros;
            } else {
                significant = true;
            }
        }
    }
    long exp = 0;
    if (p != e && (*p == 'e' || *p == 'E')) {
        ++p;
        const bool eneg = p != e && *p == '-';
        p += p != e && (*p == '-' || *p == '+') ? 1 : 0;
        for (; p != e && *p >= '0' && *p <= '9'; ++p) {
            exp = std::min(exp * 10 + (*p - '0'), 100000L);
        }
        exp = eneg ? -exp : exp;
    }
    return (intDigits > 0 ? intDigits : -fracZeros) + exp;
}

template <typename F> bool parseReal(std::string_view tok, F& out) noexcept
{
    if constexpr (std::is_same_v<F, float>) {
        // Plain decimals (nearly every token) without from_chars; the same bits.
        const char* const e = tok.data() + tok.size();
        float v = 0;
        if (!tok.empty() && scanFloat(tok.data(), e, v) == e) {
            out = v;
            return true;
        }
    }
    if (tok.empty()) {
        return false;
    }
    bool neg = false;
    std::string_view body = tok;
    if (body.front() == '+' || body.front() == '-') {
        neg = body.front() == '-';
        body.remove_prefix(1);
        if (body.empty() || body.front() == '+' || body.front() == '-') {
            return false;
        }
    }
    if (!body.empty() && (body.front() == 'n' || body.front() == 'N' || body.front() == 'i' ||
                          body.front() == 'I')) {
        if (ieq(body, "nan")) {
            out = neg ? -std::numeric_limits<F>::quiet_NaN() : std::numeric_limits<F>::quiet_NaN();
            return true;
        }
        if (ieq(body, "inf") || ieq(body, "infinity")) {
            out = neg ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
            return true;
        }
        return false;
    }
    // from_chars accepts a leading '-' but not '+'; parse the signed text without '+'.
    const char* first = neg ? tok.data() + (tok.size() - body.size() - 1) : body.data();
    const char* last = tok.data() + tok.size();
    F v{};
    auto [ptr, ec] = std::from_chars(first, last, v, std::chars_format::general);
    if (ptr != last) {
        return false;
    }
    if (ec == std::errc::result_out_of_range) {
        // As strtof / strtod (studiomdl's sscanf): overflow -> signed infinity, underflow ->
        // the subnormal or signed zero (an exporter's "1e-0050" normal is 0 to studiomdl).
        if constexpr (std::is_same_v<F, float>) {
            double wide = 0;
            const auto r2 = std::from_chars(first, last, wide, std::chars_format::general);
            if (r2.ec == std::errc()) {
                out = static_cast<float>(wide);
                return true;
            }
        }
        out = decimalExponent(first, last) > 0
                  ? (neg ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity())
                  : (neg ? F(-0.0) : F(0.0));
        return true;
    }
    if (ec != std::errc()) {
        return false;
    }
    out = v;
    return true;
}

} // namespace

bool parseFloat(std::string_view tok, float& out) noexcept
{
    return parseReal(tok, out);
}
bool parseDouble(std::string_view tok, double& out) noexcept
{
    return parseReal(tok, out);
}

bool parseInt64(std::string_view tok, std::int64_t& out) noexcept
{
    if (!tok.empty() && tok.front() == '+') {
        tok.remove_prefix(1);
        if (tok.empty() || tok.front() == '-') {
            return false;
        }
    }
    if (tok.empty()) {
        return false;
    }
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v, 10);
    if (ec != std::errc() || ptr != tok.data() + tok.size()) {
        return false;
    }
    out = v;
    return true;
}

bool parseInt(std::string_view tok, std::int32_t& out) noexcept
{
    std::int64_t v = 0;
    if (!parseInt64(tok, v) || v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max()) {
        return false;
    }
    out = static_cast<std::int32_t>(v);
    return true;
}

void appendFloat(std::string& out, float v)
{
    if (std::isnan(v)) {
        out += std::signbit(v) ? "-nan" : "nan";
        return;
    }
    if (std::isinf(v)) {
        out += v < 0 ? "-inf" : "inf";
        return;
    }
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    if (ec != std::errc()) {
        out += "0";
        return;
    }
    out.append(buf, ptr);
}

std::string formatFloat(float v)
{
    std::string s;
    appendFloat(s, v);
    return s;
}

void appendNumber(std::string& out, double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15) {
        appendInt(out, static_cast<std::int64_t>(v));
        return;
    }
    if (!std::isfinite(v)) {
        appendFloat(out, static_cast<float>(v));
        return;
    }
    char buf[400];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    if (ec != std::errc()) {
        out += "0";
        return;
    }
    out.append(buf, ptr);
}

void appendInt(std::string& out, std::int64_t v)
{
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    out.append(buf, ptr);
}

} // namespace rigscope::core
