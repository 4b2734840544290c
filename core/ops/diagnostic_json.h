#pragma once

// The one JSON shape of a diagnostic (issue 28): `check --format=json`, `info --json` and the
// QC reports write each diagnostic with it (docs/cli.md "check").
//   {file, line, col, offset, severity, id, message, profile, object, fix, related}
// line / col are 1-based (0 for a binary file, whose `offset` is the byte offset; null for a
// text file); object is {kind, index, name} or null; related is [{file, line, col, message}].

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/model/model.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// The name of what a diagnostic's element points at in `m` (bone, material, shape; "" when it
// has none): the JSON's object.name.
std::string elementName(const Model& m, const ElementRef& e);

// `objectName`: the bone / material / shape the element names ("" = unknown: null).
void writeDiagnosticJson(JsonWriter& w, const Diagnostic& d, Profile profile,
                         const std::string& objectName = {});

// A file's "diagnostics" array (each with writeDiagnosticJson) and its "omitted" array: the
// ids past the checks' cap per id, {id, severity, count}, counted but not listed.
void writeDiagnosticsJson(JsonWriter& w, const std::vector<Diagnostic>& diagnostics,
                          Profile profile, const std::vector<std::string>& objectNames);

} // namespace rigscope::core
