#pragma once

#include <optional>
#include <string_view>

namespace rigscope::core {

// Compiler profiles: which compiler a file is checked for (docs/profiles.md). The diagnostic
// catalog grades every id per profile; Auto resolves per file (resolveProfile).
enum class Profile : unsigned char { Auto, GoldSrc, Source, Source256, Cod };

std::string_view profileName(Profile p) noexcept; // "auto", "goldsrc", "source", ...
std::optional<Profile> parseProfile(std::string_view name) noexcept;
// Column of CatalogEntry::severity for a concrete profile (Auto maps to Source).
int profileColumn(Profile p) noexcept;

struct Model;
// The profile a file gets under `auto` (docs/profiles.md). SMD/VTA/SMDX: goldsrc when every
// corner has exactly 9 fields and every material ends in .bmp (and there is a mesh); else source.
// XMODEL/XANIM/NT/*_BIN: cod. A concrete requested profile is returned unchanged.
Profile resolveProfile(const Model& m, Profile requested) noexcept;

} // namespace rigscope::core
