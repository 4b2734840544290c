#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/types.h"

namespace rigscope::core {

enum class Severity : std::uint8_t { Note, Warning, Error };
std::string_view severityName(Severity s) noexcept; // "note", "warning", "error"

// What the GUI selects for a diagnostic. Indices are core indices (0-based, file order for
// triangles; SMD vertex = corner 3t+c; XMODEL vertex = pool index).
struct ElementRef {
    enum class Kind : std::uint8_t { None, Joint, Triangle, Vertex, Material, Frame, Shape, Part };
    Kind kind = Kind::None;
    std::int32_t index = -1;
    bool operator==(const ElementRef&) const = default;
};
std::string_view elementKindName(ElementRef::Kind k) noexcept;

struct RelatedNote {
    std::string file;
    SourceLoc where;
    std::string message;
};

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string_view id; // points into diagnostic_ids.h (static storage)
    std::string message; // lower-case, no final period
    std::string file;
    SourceLoc where;
    bool binary = false; // print @0x offset instead of line:col
    ElementRef element;
    std::vector<RelatedNote> related;
    bool fixedSeverity = false; // the reader chose the severity for a special case; do not regrade
};

// `FILE:LINE:COL: severity: message [id]`, or `FILE:@0x1A2B: ...` for binary inputs.
std::string formatDiagnostic(const Diagnostic& d);
std::string formatLocation(const std::string& file, const SourceLoc& where, bool binary);

// Collects diagnostics for one file. Readers and checks report through it.
class DiagnosticSink {
public:
    explicit DiagnosticSink(std::string file = {}, bool binary = false)
        : m_file(std::move(file)), m_binary(binary)
    {
    }

    Diagnostic& report(Severity s, std::string_view id, SourceLoc where, std::string message,
                       ElementRef element = {});
    Diagnostic& error(std::string_view id, SourceLoc where, std::string message, ElementRef e = {})
    {
        return report(Severity::Error, id, where, std::move(message), e);
    }
    Diagnostic& warning(std::string_view id, SourceLoc where, std::string message,
                        ElementRef e = {})
    {
        return report(Severity::Warning, id, where, std::move(message), e);
    }
    Diagnostic& note(std::string_view id, SourceLoc where, std::string message, ElementRef e = {})
    {
        return report(Severity::Note, id, where, std::move(message), e);
    }

    const std::string& file() const noexcept { return m_file; }
    std::vector<Diagnostic>& diagnostics() noexcept { return m_diags; }
    const std::vector<Diagnostic>& diagnostics() const noexcept { return m_diags; }
    std::vector<Diagnostic> take() noexcept { return std::move(m_diags); }
    std::size_t count(Severity s) const noexcept;
    bool hasErrors() const noexcept { return count(Severity::Error) > 0; }

private:
    std::string m_file;
    bool m_binary = false;
    std::vector<Diagnostic> m_diags;
};

std::size_t countSeverity(const std::vector<Diagnostic>& diags, Severity s) noexcept;

} // namespace rigscope::core
