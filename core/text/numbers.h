#pragma once

#include <cstdint>
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

// Scanners for the plain numbers that fill real files, for readers' fast paths. Each reads the
// longest number at `p` (before `e`) and returns the pointer after it, or nullptr when the text
// there is not a plain number it handles; the caller checks what follows (a blank, the end) and
// otherwise falls back to the token path above. Whenever they succeed the value is bit-identical
// to parseFloat / parseInt of the same token.
// scanFloat: optional '-', at most 15 digits with an optional '.', optional exponent (the
// value's power of ten within +-22). scanInt: optional '-', 1 to 9 digits.
const char* scanFloat(const char* p, const char* e, float& out) noexcept;
const char* scanInt(const char* p, const char* e, std::int32_t& out) noexcept;

// Shortest round-trip spelling in fixed notation (C locale): 1 -> "1", -0 -> "-0",
// 1e-7 -> "0.0000001"; non-finite values as "nan", "inf", "-inf".
void appendFloat(std::string& out, float v);
std::string formatFloat(float v);
// Integral doubles print as integers, others shortest round-trip fixed.
void appendNumber(std::string& out, double v);
void appendInt(std::string& out, std::int64_t v);

} // namespace rigscope::core
