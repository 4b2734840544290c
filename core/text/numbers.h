#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rigscope::core {

// Locale-independent number parsing (std::from_chars). Accepts a leading '+', decimal and
// exponent forms, and nan / inf / infinity in any case (with sign). Rejects hex and trailing
// garbage. Floats are correctly rounded to float32 directly (not via double).
bool parseFloat(std::string_view tok, float& out) noexcept;
bool parseDouble(std::string_view tok, double& out) noexcept;
// Integers: optional sign + digits only ("1.0" fails).
bool parseInt(std::string_view tok, std::int32_t& out) noexcept;
bool parseInt64(std::string_view tok, std::int64_t& out) noexcept;

// Scanners for the plain numbers that fill real files, for readers' fast paths (inline: they
// run once per number). Each reads the longest number at `p` (before `e`) and returns the
// pointer after it, or nullptr when the text there is not a plain number it handles; the
// caller checks what follows (a blank, the end) and otherwise falls back to the token path
// above. Whenever they succeed the value is bit-identical to parseFloat / parseInt of the same
// token. They never read at or past `e`.
// scanFloat: optional '-', at most 19 digits with an optional '.', optional exponent; the
// digits as an integer at most 2^53 and the value's power of ten within +-22.
// scanInt: optional '-', 1 to 9 digits.
namespace detail {

// Powers of ten exact in double (5^22 < 2^53).
inline constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
inline constexpr std::uint64_t kPow10Int[] = {1,      10,      100,      1000,     10000,
                                              100000, 1000000, 10000000, 100000000};

inline bool isDigit(char c) noexcept
{
    return static_cast<unsigned>(c - '0') < 10;
}

// Eight digit values 0-9 (first char in the low byte) to their number: Lemire's SWAR method.
inline std::uint64_t eightDigits(std::uint64_t w) noexcept
{
    w = (w * 10) + (w >> 8);
    return (((w & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
            (((w >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
           32;
}

// Reads digits into m one at a time (short runs: integer parts); returns the new p.
inline const char* fewDigits(const char* p, const char* e, std::uint64_t& m, long& count) noexcept
{
    while (p != e && isDigit(*p)) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++p;
        if (++count > 19) {
            return p; // the caller declines
        }
    }
    return p;
}

// Reads digits into m, 8 at a time while 8 bytes are left before e (fractions); returns the
// new p.
inline const char* digits(const char* p, const char* e, std::uint64_t& m, long& count) noexcept
{
    while (e - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        // Non-zero in every byte that is not a digit (bytes after the first non-digit may be
        // misjudged by a carry; only the leading run matters).
        const std::uint64_t bad =
            ((w & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
            (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
        const int n = bad == 0 ? 8 : __builtin_ctzll(bad) / 8;
        if (n == 0 || count + n > 19) {
            break;
        }
        // Digit bytes minus '0' (a non-digit's borrow only runs into later bytes), the n
        // digits moved to the top so the bytes below read as leading zeros.
        m = m * kPow10Int[n] + eightDigits((w - 0x3030303030303030ull) << (8 * (8 - n)));
        p += n;
        count += n;
        if (n < 8) {
            return p;
        }
    }
    while (p != e && isDigit(*p)) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++p;
        ++count;
        if (count > 19) {
            return p; // the caller declines
        }
    }
    return p;
}

} // namespace detail

// Clinger's fast path: m <= 2^53 and 10^|k| (|k| <= 22) are exact doubles, so one IEEE
// multiplication or division gives the correctly rounded double of m * 10^k. Rounding that to
// float is wrong only when it lands exactly on a float midpoint (double rounding): declined.
// Values are 0 or in [1e-22, 1e38]: float neither overflows nor goes subnormal.
inline const char* scanFloat(const char* p, const char* e, float& out) noexcept
{
    const bool neg = p != e && *p == '-';
    p += neg ? 1 : 0;
    std::uint64_t m = 0;
    long count = 0;
    p = detail::fewDigits(p, e, m, count);
    long exp10 = 0;
    if (p != e && *p == '.') {
        const long before = count;
        p = detail::digits(p + 1, e, m, count);
        exp10 = -(count - before);
    }
    if (count == 0 || count > 19 || m > (std::uint64_t(1) << 53)) {
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
        while (p != e && detail::isDigit(*p) && p - x0 < 4) {
            x = x * 10 + (*p - '0');
            ++p;
        }
        if (p == x0 || (p != e && detail::isDigit(*p))) {
            return nullptr;
        }
        exp10 += eneg ? -x : x;
    }
    double d = 0.0;
    if (m != 0) {
        if (exp10 < -22 || exp10 > 22) {
            return nullptr;
        }
        d = exp10 < 0 ? static_cast<double>(m) / detail::kExactPow10[-exp10]
                      : static_cast<double>(m) * detail::kExactPow10[exp10];
        std::uint64_t bits;
        std::memcpy(&bits, &d, 8);
        if ((bits & ((std::uint64_t(1) << 29) - 1)) == (std::uint64_t(1) << 28)) {
            return nullptr; // a float midpoint: the exact decimal must decide
        }
    }
    const float f = static_cast<float>(d);
    out = neg ? -f : f;
    return p;
}

inline const char* scanInt(const char* p, const char* e, std::int32_t& out) noexcept
{
    const bool neg = p != e && *p == '-';
    p += neg ? 1 : 0;
    const char* const first = p;
    std::int32_t v = 0;
    while (p != e && detail::isDigit(*p) && p - first < 9) {
        v = v * 10 + (*p - '0');
        ++p;
    }
    if (p == first || (p != e && detail::isDigit(*p))) {
        return nullptr;
    }
    out = neg ? -v : v;
    return p;
}

// Shortest round-trip spelling in fixed notation (C locale): 1 -> "1", -0 -> "-0",
// 1e-7 -> "0.0000001"; non-finite values as "nan", "inf", "-inf".
void appendFloat(std::string& out, float v);
std::string formatFloat(float v);
// Integral doubles print as integers, others shortest round-trip fixed.
void appendNumber(std::string& out, double v);
void appendInt(std::string& out, std::int64_t v);

} // namespace rigscope::core
