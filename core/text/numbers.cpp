#include "core/text/numbers.h"

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

// Correctly rounded fast path for the plain decimals that fill real files ("-12.345678", "1",
// ".5"): at most 15 digits and no exponent. The digits make an integer m < 2^53 and the value is
// m / 10^k with k <= 15, both exact in double, so one IEEE division gives the correctly rounded
// double. Rounding that double to float is wrong only when it lands exactly on a float midpoint
// (double rounding), which we detect and hand to from_chars. Returns false to fall back.
// Powers of ten exact in double (5^22 < 2^53).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Rounding a correctly rounded double to float is wrong only when the double lies exactly on
// a float midpoint (double rounding); then the exact decimal must decide.
inline bool floatMidpoint(double d) noexcept
{
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(d);
    return d != 0.0 && (bits & ((std::uint64_t(1) << 29) - 1)) == (std::uint64_t(1) << 28);
}

inline bool isDigit(char c) noexcept
{
    return static_cast<unsigned>(c - '0') < 10;
}

bool fastDecimal(const char* p, const char* e, bool neg, float& out) noexcept
{
    if (e - p > 16) {
        return false;
    }
    std::uint64_t m = 0;
    const char* const begin = p;
    while (p != e && static_cast<unsigned>(*p - '0') < 10) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++p;
    }
    const long intDigits = p - begin;
    long frac = 0;
    if (p != e && *p == '.') {
        const char* const f0 = ++p;
        while (p != e && static_cast<unsigned>(*p - '0') < 10) {
            m = m * 10 + static_cast<unsigned>(*p - '0');
            ++p;
        }
        frac = p - f0;
    }
    // At most 16 characters, so m has at most 15 digits once a '.' is present: m < 2^53.
    if (p != e || intDigits + frac == 0 || intDigits + frac > 15) {
        return false;
    }
    const double d = static_cast<double>(m) / kPow10[frac];
    if (floatMidpoint(d)) {
        return false; // let from_chars round the exact value
    }
    const float f = static_cast<float>(d);
    out = neg ? -f : f;
    return true;
}

template <typename F> bool parseReal(std::string_view tok, F& out) noexcept
{
    if constexpr (std::is_same_v<F, float>) {
        if (!tok.empty()) {
            const bool neg = tok.front() == '-';
            const std::size_t skip = (neg || tok.front() == '+') ? 1 : 0;
            if (fastDecimal(tok.data() + skip, tok.data() + tok.size(), neg, out)) {
                return true;
            }
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
        // Overflow -> signed infinity, underflow -> signed zero (as strtod).
        double probe = 0;
        auto r2 = std::from_chars(first, last, probe, std::chars_format::general);
        (void)r2;
        bool bigExp = false;
        for (const char* p = first; p != last; ++p) {
            if (*p == 'e' || *p == 'E') {
                bigExp = p + 1 != last && p[1] != '-';
                break;
            }
        }
        if (bigExp || probe != 0) {
            out = neg ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
        } else {
            out = neg ? F(-0.0) : F(0.0);
        }
        return true;
    }
    if (ec != std::errc()) {
        return false;
    }
    out = v;
    return true;
}

} // namespace

// Clinger's fast path: m < 10^15 < 2^53 and 10^|k| (|k| <= 22) are exact doubles, so one IEEE
// multiplication or division gives the correctly rounded double of m * 10^k; the result is at
// least 1e-22 and below 1e38, so float neither overflows nor goes subnormal.
const char* scanFloat(const char* p, const char* e, float& out) noexcept
{
    bool neg = false;
    if (p != e && *p == '-') {
        neg = true;
        ++p;
    }
    std::uint64_t m = 0;
    const char* const digits = p;
    while (p != e && isDigit(*p)) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++p;
    }
    long count = p - digits;
    long exp10 = 0;
    if (p != e && *p == '.') {
        const char* const f0 = ++p;
        while (p != e && isDigit(*p)) {
            m = m * 10 + static_cast<unsigned>(*p - '0');
            ++p;
        }
        exp10 = -(p - f0);
        count += p - f0;
    }
    if (count == 0 || count > 15) {
        return nullptr;
    }
    if (p != e && (*p == 'e' || *p == 'E')) {
        ++p;
        bool eneg = false;
        if (p != e && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            ++p;
        }
        const char* const x0 = p;
        long x = 0;
        while (p != e && isDigit(*p) && p - x0 < 4) {
            x = x * 10 + (*p - '0');
            ++p;
        }
        if (p == x0 || (p != e && isDigit(*p))) {
            return nullptr;
        }
        exp10 += eneg ? -x : x;
    }
    double d = 0.0;
    if (m != 0) {
        if (exp10 < -22 || exp10 > 22) {
            return nullptr;
        }
        d = exp10 < 0 ? static_cast<double>(m) / kPow10[-exp10]
                      : static_cast<double>(m) * kPow10[exp10];
        if (floatMidpoint(d)) {
            return nullptr;
        }
    }
    const float f = static_cast<float>(d);
    out = neg ? -f : f;
    return p;
}

const char* scanInt(const char* p, const char* e, std::int32_t& out) noexcept
{
    bool neg = false;
    if (p != e && *p == '-') {
        neg = true;
        ++p;
    }
    const char* const digits = p;
    std::int32_t v = 0;
    while (p != e && isDigit(*p) && p - digits < 9) {
        v = v * 10 + (*p - '0');
        ++p;
    }
    if (p == digits || (p != e && isDigit(*p))) {
        return nullptr;
    }
    out = neg ? -v : v;
    return p;
}

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
