#pragma once

// A finding located at a place in a QC project (the script or an included .qci, and the line).

#include <string>
#include <string_view>
#include <utility>

#include "core/diag/diagnostic.h"
#include "core/formats/qc/qc_project.h"

namespace rigscope::core {

inline Diagnostic diagnosticAt(Severity severity, std::string_view id, const QcWhere& at,
                               std::string message)
{
    Diagnostic d;
    d.severity = severity;
    d.id = id;
    d.file = at.file;
    d.where = at.where;
    d.message = std::move(message);
    return d;
}

} // namespace rigscope::core
