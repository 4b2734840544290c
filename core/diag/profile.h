#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace rigscope::core {

// Compiler profiles: which compiler a file is checked for (docs/profiles.md). The diagnostic
// catalog grades every id per profile; Auto resolves per file (resolveProfile).
// Pathos: the Pathos engine's vbmcompiler, a studiomdl rewrite that writes a GoldSrc IDST v10
// .mdl plus a .vbm with the weighted geometry (docs/profiles.md "pathos").
enum class Profile : unsigned char { Auto, GoldSrc, Source, Source256, Cod, Pathos };
// Every profile, in the order the catalog's columns and the help list them: the one list.
// Pathos has no catalog column of its own: it grades as goldsrc, with the differences its
// checks make themselves (docs/profiles.md).
inline constexpr std::array<Profile, 6> kAllProfiles{Profile::Auto,   Profile::GoldSrc,
                                                     Profile::Source, Profile::Source256,
                                                     Profile::Cod,    Profile::Pathos};
// GoldSrc's studiomdl or a compiler that writes the same v10 .mdl from the same QC (Pathos).
constexpr bool goldSrcFamily(Profile p) noexcept
{
    return p == Profile::GoldSrc || p == Profile::Pathos;
}
// "auto|goldsrc|source|source256|cod|pathos", as the `--profile` options show it.
std::string profileChoices();

std::string_view profileName(Profile p) noexcept; // "auto", "goldsrc", "source", ...
std::optional<Profile> parseProfile(std::string_view name) noexcept;
// Column of CatalogEntry::severity for a concrete profile (Auto maps to Source, Pathos to
// GoldSrc).
int profileColumn(Profile p) noexcept;

struct Model;
// The profile a file gets under `auto` (docs/profiles.md). SMD/VTA/SMDX: goldsrc when every
// corner has exactly 9 fields and every material ends in .bmp (and there is a mesh); else source.
// XMODEL/XANIM/NT/*_BIN: cod. A compiled .mdl: goldsrc for version 10, else source. A concrete
// requested profile is returned unchanged.
Profile resolveProfile(const Model& m, Profile requested) noexcept;

} // namespace rigscope::core
