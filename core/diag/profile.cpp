#include "core/diag/profile.h"

#include "core/model/model.h"
#include "core/text/ascii.h"
#include "core/model/format_id.h"

namespace rigscope::core {

std::string_view profileName(Profile p) noexcept
{
    switch (p) {
    case Profile::Auto:
        return "auto";
    case Profile::GoldSrc:
        return "goldsrc";
    case Profile::Source:
        return "source";
    case Profile::Source256:
        return "source256";
    case Profile::Cod:
        return "cod";
    case Profile::Pathos:
        return "pathos";
    case Profile::Afterburner:
        return "afterburner";
    }
    return "auto";
}

std::optional<Profile> parseProfile(std::string_view name) noexcept
{
    for (Profile p : kAllProfiles) {
        if (profileName(p) == name) {
            return p;
        }
    }
    return std::nullopt;
}

std::string profileChoices()
{
    std::string s;
    for (Profile p : kAllProfiles) {
        s += s.empty() ? "" : "|";
        s += profileName(p);
    }
    return s;
}

int profileColumn(Profile p) noexcept
{
    switch (p) {
    case Profile::GoldSrc:
    case Profile::Pathos:
    case Profile::Afterburner:
        return 0;
    case Profile::Source256:
        return 2;
    case Profile::Cod:
        return 3;
    case Profile::Auto:
    case Profile::Source:
        return 1;
    }
    return 1;
}

Profile resolveProfile(const Model& m, Profile requested) noexcept
{
    if (requested != Profile::Auto) {
        return requested;
    }
    if (formatTraits(m.format).isCod()) {
        return Profile::Cod;
    }
    if (formatFamily(m.format) == FormatFamily::Compiled) { // version 10: GoldSrc's studiomdl
        return m.version == 10 ? Profile::GoldSrc : Profile::Source;
    }
    if (m.mesh.triangleCount() == 0) {
        return Profile::Source;
    }
    for (LinkState s : m.mesh.pointLinkState) {
        if (s != LinkState::Absent) {
            return Profile::Source;
        }
    }
    if (m.mesh.uvSetCount > 1) {
        return Profile::Source;
    }
    for (const Material& mat : m.mesh.materials) {
        if (!asciiIEndsWith(mat.name, ".bmp")) {
            return Profile::Source;
        }
    }
    return Profile::GoldSrc;
}

} // namespace rigscope::core
