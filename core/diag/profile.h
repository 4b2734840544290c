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
// Afterburner: abstudiomdl, the Afterburner game's fork of GoldSrc's studiomdl (magic 'AFTB',
// PNG textures kept on disk, larger limits; docs/profiles.md "afterburner").
enum class Profile : unsigned char { Auto, GoldSrc, Source, Source256, Cod, Pathos, Afterburner };
// Every profile, in the order the catalog's columns and the help list them: the one list.
// Pathos and Afterburner have no catalog column of their own: they grade as goldsrc, with the
// differences their checks make themselves (docs/profiles.md).
inline constexpr std::array<Profile, 7> kAllProfiles{
    Profile::Auto, Profile::GoldSrc, Profile::Source,     Profile::Source256,
    Profile::Cod,  Profile::Pathos,  Profile::Afterburner};
// GoldSrc's studiomdl or a compiler that writes the same v10 .mdl from the same QC (Pathos,
// Afterburner).
constexpr bool goldSrcFamily(Profile p) noexcept
{
    return p == Profile::GoldSrc || p == Profile::Pathos || p == Profile::Afterburner;
}
// GoldSrc's studiomdl itself or abstudiomdl, its fork that reads the same QC and SMD alike but
// for the limits and texture formats docs/profiles.md "afterburner" lists.
constexpr bool goldSrcStudiomdl(Profile p) noexcept
{
    return p == Profile::GoldSrc || p == Profile::Afterburner;
}
// "auto|goldsrc|source|source256|cod|pathos|afterburner", as the `--profile` options show it.
std::string profileChoices();

std::string_view profileName(Profile p) noexcept; // "auto", "goldsrc", "source", ...
std::optional<Profile> parseProfile(std::string_view name) noexcept;
// Column of CatalogEntry::severity for a concrete profile (Auto maps to Source, Pathos and
// Afterburner to GoldSrc).
int profileColumn(Profile p) noexcept;

struct Model;
// The profile a file gets under `auto` (docs/profiles.md). SMD/VTA/SMDX: goldsrc when every
// corner has exactly 9 fields and every material ends in .bmp (and there is a mesh); else source.
// XMODEL/XANIM/NT/*_BIN: cod. A compiled .mdl: goldsrc for version 10 (check makes an 'AFTB'
// one afterburner from its CompiledModelInfo::variant), else source. A concrete
// requested profile is returned unchanged.
Profile resolveProfile(const Model& m, Profile requested) noexcept;

} // namespace rigscope::core
