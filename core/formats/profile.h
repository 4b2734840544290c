#pragma once

#include <optional>
#include <string_view>

namespace rigscope::core {

// Compiler profiles of CHECKS.md §2. Auto resolves per file (see resolveProfile in checks).
enum class Profile : unsigned char { Auto, GoldSrc, Source, Source256, Cod };

std::string_view profileName(Profile p) noexcept; // "auto", "goldsrc", "source", ...
std::optional<Profile> parseProfile(std::string_view name) noexcept;
// Column of CatalogEntry::severity for a concrete profile (Auto maps to Source).
int profileColumn(Profile p) noexcept;

} // namespace rigscope::core
