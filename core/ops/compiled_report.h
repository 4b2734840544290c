#pragma once

// What `info` says about a compiled model beyond the model itself (issue 29): bodyparts with
// their models' vertex and triangle counts, skin families, sequences, attachments, hitboxes,
// pose parameters, flex controllers and the companions read. The JSON keys are the ones
// `compare` will set a prediction against (issue 30); docs/compiled.md lists them.

#include <cstdint>
#include <string>

#include "core/formats/mdl/compiled_model.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// Writes the keys into the object `w` is in (info's object for the file).
void writeCompiledJson(JsonWriter& w, const CompiledModelInfo& c);
// LOD 0 triangles of the default body: the first model of every bodypart, as the game draws
// the model with body 0 (the mesh RigScope reads holds every model of every bodypart).
std::int64_t defaultBodyTriangles(const CompiledModelInfo& c);
// Indented lines for `info` (verbose: every sequence, attachment and hitbox).
std::string compiledText(const CompiledModelInfo& c, bool verbose);

} // namespace rigscope::core
