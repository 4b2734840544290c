#pragma once

// What a format id (Model::format, FormatInfo::id) says about the file: its family and whether
// it is binary. The one table; code asks `formatTraits(m.format)` instead of comparing strings.

#include <cstdint>
#include <string_view>

namespace rigscope::core {

enum class FormatFamily : std::uint8_t {
    Unknown,
    Smd,      // smd, vta, smdx: Valve's SMD family (text, or BinarySMD)
    CodModel, // xmodel, xmodel_bin
    CodAnim,  // xanim, xanim_bin
    CodNotes, // nt (NT_EXPORT)
    Dmx,      // dmx (keyvalues2 or binary: Model::dmx.encoding)
    Qc,       // a QC project's compiled model
    Compiled, // mdl: what studiomdl wrote (Source or GoldSrc)
};

struct FormatTraits {
    FormatFamily family = FormatFamily::Unknown;
    bool binary = false; // the bytes are binary (a DMX's depend on its encoding: false here)
    bool isCod() const noexcept
    {
        return family == FormatFamily::CodModel || family == FormatFamily::CodAnim ||
               family == FormatFamily::CodNotes;
    }
};

constexpr FormatTraits formatTraits(std::string_view id) noexcept
{
    struct Row {
        std::string_view id;
        FormatTraits traits;
    };
    constexpr Row kRows[] = {
        {"smd", {FormatFamily::Smd, false}},
        {"vta", {FormatFamily::Smd, false}},
        {"smdx", {FormatFamily::Smd, true}},
        {"xmodel", {FormatFamily::CodModel, false}},
        {"xmodel_bin", {FormatFamily::CodModel, true}},
        {"xanim", {FormatFamily::CodAnim, false}},
        {"xanim_bin", {FormatFamily::CodAnim, true}},
        {"nt", {FormatFamily::CodNotes, false}},
        {"dmx", {FormatFamily::Dmx, false}},
        {"qc", {FormatFamily::Qc, false}},
        {"mdl", {FormatFamily::Compiled, true}},
    };
    for (const Row& r : kRows) {
        if (r.id == id) {
            return r.traits;
        }
    }
    return {};
}

constexpr FormatFamily formatFamily(std::string_view id) noexcept
{
    return formatTraits(id).family;
}

} // namespace rigscope::core
