#include "core/diag/diagnostic.h"

#include <cstdio>

#include "core/text/plural.h"

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

const DiagnosticSink::IdCount* DiagnosticSink::findId(std::string_view id) const noexcept
{
    for (const IdCount& c : m_ids) {
        if (c.id.data() == id.data() || c.id == id) {
            return &c;
        }
    }
    return nullptr;
}

std::size_t& DiagnosticSink::reportedFor(std::string_view id) noexcept
{
    if (const IdCount* c = findId(id)) {
        return const_cast<IdCount*>(c)->reported;
    }
    m_ids.push_back({id, 0});
    return m_ids.back().reported;
}

bool DiagnosticSink::keeps(std::string_view id) const noexcept
{
    if (m_maxPerId == 0) {
        return true;
    }
    const IdCount* c = findId(id);
    return !c || c->reported < m_maxPerId;
}

void DiagnosticSink::foldScratch() const
{
    if (!m_scratchPending) {
        return;
    }
    m_scratchPending = false;
    for (Diagnostic& s : m_summaries) {
        if (s.id == m_scratch.id && s.severity == m_scratch.severity &&
            s.fixedSeverity == m_scratch.fixedSeverity) {
            ++s.omitted;
            return;
        }
    }
    Diagnostic row = m_scratch;
    row.message.clear();
    row.related.clear();
    row.omitted = 1;
    m_summaries.push_back(std::move(row));
}

void DiagnosticSink::settle() const
{
    foldScratch();
    for (Diagnostic& s : m_summaries) {
        s.message = "… and " + groupedCount(s.omitted) + " more";
        m_diags.push_back(std::move(s));
    }
    m_summaries.clear();
}

Diagnostic& DiagnosticSink::report(Severity s, std::string_view id, SourceLoc where,
                                   std::string message, ElementRef element)
{
    if (m_maxPerId != 0) {
        foldScratch();
        if (reportedFor(id)++ >= m_maxPerId) {
            m_scratch.severity = s;
            m_scratch.id = id;
            m_scratch.message.clear(); // the caller's text is not kept
            m_scratch.file = m_file;
            m_scratch.where = where;
            m_scratch.binary = m_binary;
            m_scratch.element = element;
            m_scratch.related.clear();
            m_scratch.fixedSeverity = false;
            m_scratch.omitted = 0;
            m_scratchPending = true;
            return m_scratch;
        }
    }
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
        n += d.severity == s ? d.count() : 0;
    }
    return n;
}

std::size_t DiagnosticSink::count(Severity s) const noexcept
{
    return countSeverity(diagnostics(), s);
}

} // namespace rigscope::core
