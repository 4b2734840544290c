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
    // 0: this row is one diagnostic. N > 0: this row stands for N diagnostics of its id and
    // severity that a capped sink left out (DiagnosticSink::setMaxPerId); `where` and
    // `element` are the first one left out, the message says "… and N more".
    std::uint32_t omitted = 0;
    // How many diagnostics the row counts for (summaries, counts, exit codes use it).
    std::size_t count() const noexcept { return omitted > 0 ? omitted : 1; }
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
    // Capping (issue 27 item 10: a 100 MB mesh gives ~900k notes of one id): past `n`
    // diagnostics of one id, report() returns a scratch diagnostic (the caller may still grade
    // it) and the sink only counts it, per id, severity and fixedSeverity, into one summary row
    // (Diagnostic::omitted) that diagnostics() and take() append. 0 (the default) keeps all.
    void setMaxPerId(std::size_t n) noexcept { m_maxPerId = n; }
    std::size_t maxPerId() const noexcept { return m_maxPerId; }
    // False when report(id) would only be counted: the caller may skip building a message.
    bool keeps(std::string_view id) const noexcept;
    std::vector<Diagnostic>& diagnostics()
    {
        settle();
        return m_diags;
    }
    const std::vector<Diagnostic>& diagnostics() const
    {
        settle();
        return m_diags;
    }
    std::vector<Diagnostic> take()
    {
        settle();
        return std::move(m_diags);
    }
    std::size_t count(Severity s) const noexcept;
    bool hasErrors() const noexcept { return count(Severity::Error) > 0; }

private:
    struct IdCount {
        std::string_view id;
        std::size_t reported = 0;
    };
    std::size_t& reportedFor(std::string_view id) noexcept;
    const IdCount* findId(std::string_view id) const noexcept;
    void foldScratch() const;
    void settle() const; // folds the scratch and appends the summary rows

    std::string m_file;
    bool m_binary = false;
    mutable std::vector<Diagnostic> m_diags;
    std::size_t m_maxPerId = 0;
    std::vector<IdCount> m_ids;                  // per id reported so far (capped sinks only)
    mutable std::vector<Diagnostic> m_summaries; // rows with `omitted` not yet appended
    mutable Diagnostic m_scratch;                // the last one left out, until the next report
    mutable bool m_scratchPending = false;
};

// Diagnostics of severity `s`, a summary row counting for the diagnostics it stands for.
std::size_t countSeverity(const std::vector<Diagnostic>& diags, Severity s) noexcept;

} // namespace rigscope::core
