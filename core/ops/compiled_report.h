#pragma once

// What `info` says about a compiled model beyond the model itself (issue 29): bodyparts with
// their models' vertex and triangle counts, skin families, sequences, attachments, hitboxes,
// pose parameters, flex controllers and the companions read. The JSON keys are the ones
// `compare` will set a prediction against (issue 30); docs/compiled.md lists them.

#include <string>

#include "core/formats/mdl/compiled_model.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// Writes the keys into the object `w` is in (info's object for the file).
void writeCompiledJson(JsonWriter& w, const CompiledModelInfo& c);
// Indented lines for `info` (verbose: every sequence, attachment and hitbox).
std::string compiledText(const CompiledModelInfo& c, bool verbose);

} // namespace rigscope::core
