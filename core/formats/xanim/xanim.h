#pragma once

#include <string>

#include "core/formats/registry.h"

namespace rigscope::core {

// Call of Duty XANIM_EXPORT v3 and NT_EXPORT (FORMATS.md §4).
int sniffXanim(std::string_view head) noexcept;
ReadResult readXanim(std::string_view bytes, const ReadContext& ctx);
WriteResult writeXanim(const Model& m, const WriteContext& ctx);

int sniffNtExport(std::string_view head) noexcept;
// An NT_EXPORT alone reads to a Model with one Animation holding only notes: no joints,
// times = FIRSTFRAME .. FIRSTFRAME + NUMFRAMES - 1, noteStyle SeparateFile.
ReadResult readNtExport(std::string_view bytes, const ReadContext& ctx);
WriteResult writeNtExport(const Model& m, const WriteContext& ctx);

// The sibling notetrack file of an XANIM (FORMATS.md §4.3): `<basename>.NT_EXPORT`, then
// `<basename>.nt_export`. Empty when neither exists. The core readers take bytes, so callers
// look the file up, read it with readNtExport and merge it with mergeNotetracks.
std::string ntExportPathFor(const std::string& xanimPath);

// Appends the notes of an NT_EXPORT model to anim.animations[0] (noteStyle SeparateFile).
// cod.ntexport-mismatch when FIRSTFRAME / NUMFRAMES differ from the anim's frames;
// cod.notetrack-range for notes outside the anim's frame range (kept).
void mergeNotetracks(Model& anim, const Model& nt, DiagnosticSink& sink);

} // namespace rigscope::core
