#include "core/diag/diagnostic.h"

#include <cstdio>

namespace rigscope::core {

std::string_view severityName(Severity s) noexcept
{
    switch (s) {
    case Severity::Note:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

std::string_view elementKindName(ElementRef::Kind k) noexcept
{
    using K = ElementRef::Kind;
    switch (k) {
    case K::None:
        return "none";
    case K::Joint:
        return "bone";
    case K::Triangle:
        return "triangle";
    case K::Vertex:
        return "vertex";
    case K::Material:
        return "material";
    case K::Frame:
        return "frame";
    case K::Shape:
        return "shape";
    case K::Part:
        return "part";
    }
    return "none";
}

std::string formatLocation(const std::string& file, const SourceLoc& where, bool binary)
{
    char buf[64];
    if (binary) {
        std::snprintf(buf, sizeof buf,
                      ":@0x%04llX:", static_cast<unsigned long long>(where.offset));
    } else {
        const unsigned line = where.line == 0 ? 1u : where.line;
        const unsigned col = where.column == 0 ? 1u : where.column;
        std::snprintf(buf, sizeof buf, ":%u:%u:", line, col);
    }
    return file + buf;
}

std::string formatDiagnostic(const Diagnostic& d)
{
    std::string out = formatLocation(d.file, d.where, d.binary);
    out += ' ';
    out += severityName(d.severity);
    out += ": ";
    out += d.message;
    out += " [";
    out += d.id;
    out += ']';
    return out;
}

Diagnostic& DiagnosticSink::report(Severity s, std::string_view id, SourceLoc where,
                                   std::string message, ElementRef element)
{
    Diagnostic d;
    d.severity = s;
    d.id = id;
    d.message = std::move(message);
    d.file = m_file;
    d.where = where;
    d.binary = m_binary;
    d.element = element;
    m_diags.push_back(std::move(d));
    return m_diags.back();
}

std::size_t countSeverity(const std::vector<Diagnostic>& diags, Severity s) noexcept
{
    std::size_t n = 0;
    for (const auto& d : diags) {
        n += d.severity == s ? 1 : 0;
    }
    return n;
}

std::size_t DiagnosticSink::count(Severity s) const noexcept
{
    return countSeverity(m_diags, s);
}

} // namespace rigscope::core
