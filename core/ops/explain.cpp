#include "core/ops/explain.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include "core/diag/check_explanations.h"
#include "core/diag/diagnostic_ids.h"
#include "core/diag/profile.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

namespace {

// The profile whose severity column of the catalog is `column` (profile.h's one list).
std::string_view columnProfileName(std::size_t column) noexcept
{
    for (const Profile p : kAllProfiles) {
        if (p != Profile::Auto && profileColumn(p) == static_cast<int>(column)) {
            return profileName(p);
        }
    }
    return {};
}

std::string_view severityWord(CatalogSeverity s) noexcept
{
    switch (s) {
    case CatalogSeverity::Error:
        return "error";
    case CatalogSeverity::Warning:
        return "warning";
    case CatalogSeverity::Note:
        return "note";
    case CatalogSeverity::Off:
        break;
    }
    return "off";
}

char severityLetter(CatalogSeverity s) noexcept
{
    switch (s) {
    case CatalogSeverity::Error:
        return 'E';
    case CatalogSeverity::Warning:
        return 'W';
    case CatalogSeverity::Note:
        return 'N';
    case CatalogSeverity::Off:
        break;
    }
    return '-';
}

// Paragraphs of `text` ("\n\n" between them) wrapped at `width` columns, each line indented.
void appendWrapped(std::string& out, std::string_view text, std::size_t indent,
                   std::size_t width = 80)
{
    std::size_t pos = 0;
    bool firstParagraph = true;
    while (pos <= text.size()) {
        std::size_t end = text.find("\n\n", pos);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const std::string_view para = text.substr(pos, end - pos);
        if (!firstParagraph) {
            out += '\n';
        }
        firstParagraph = false;
        std::size_t column = 0;
        std::size_t i = 0;
        while (i < para.size()) {
            while (i < para.size() && (para[i] == ' ' || para[i] == '\n')) {
                ++i;
            }
            std::size_t j = i;
            while (j < para.size() && para[j] != ' ' && para[j] != '\n') {
                ++j;
            }
            if (j == i) {
                break;
            }
            const std::string_view word = para.substr(i, j - i);
            if (column > 0 && column + 1 + word.size() > width) {
                out += '\n';
                column = 0;
            }
            if (column == 0) {
                out.append(indent, ' ');
                column = indent;
            } else {
                out += ' ';
                ++column;
            }
            out += word;
            column += word.size();
            i = j;
        }
        out += '\n';
        pos = end + 2;
    }
}

void appendIndentedLines(std::string& out, std::string_view text, std::size_t indent)
{
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        out.append(indent, ' ');
        out += text.substr(pos, end - pos);
        out += '\n';
        pos = end + 1;
    }
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// Families in catalog order of first appearance.
std::vector<std::string_view> families()
{
    std::vector<std::string_view> out;
    for (const CatalogEntry& e : diagnosticCatalog()) {
        const std::string_view f = checkFamily(e.id);
        if (std::find(out.begin(), out.end(), f) == out.end()) {
            out.push_back(f);
        }
    }
    return out;
}

void appendMarkdownBody(std::string& out, const CatalogEntry& entry, const CheckExplanation* x)
{
    out += "| goldsrc | source | source256 | cod |\n|---|---|---|---|\n|";
    for (CatalogSeverity s : entry.severity) {
        out += ' ';
        out += severityWord(s);
        out += " |";
    }
    out += "\n\n";
    out += "**Fires when:** ";
    out += entry.firesWhen;
    out += "\n\n";
    if (!x) {
        out += "*Not explained yet.*\n";
        return;
    }
    auto section = [&out](std::string_view title, std::string_view text) {
        out += "**";
        out += title;
        out += "** ";
        out += text;
        out += "\n\n";
    };
    section("What it means.", x->meaning);
    section("Why the compiler cares.", x->why);
    section("Limits.", x->limits);
    out += "**Example:**\n\n```text\n";
    out += x->example;
    out += "\n```\n\n";
    out += "**Fix.** ";
    out += x->fix;
    out += '\n';
}

} // namespace

std::string checkHelpUri(std::string_view id)
{
    std::string s(kChecksDocUrl);
    s += '#';
    s += id;
    return s;
}

std::string_view checkFamily(std::string_view id) noexcept
{
    const auto dot = id.find('.');
    return dot == std::string_view::npos ? id : id.substr(0, dot);
}

std::string severityLetters(std::string_view id)
{
    const CatalogEntry* e = findCatalogEntry(id);
    if (!e) {
        return {};
    }
    std::string s;
    for (std::size_t i = 0; i < 4; ++i) {
        if (i > 0) {
            s += '/';
        }
        s += severityLetter(e->severity[i]);
    }
    return s;
}

std::string severityWords(std::string_view id)
{
    const CatalogEntry* e = findCatalogEntry(id);
    if (!e) {
        return {};
    }
    std::string s;
    for (std::size_t i = 0; i < 4; ++i) {
        if (i > 0) {
            s += ", ";
        }
        s += columnProfileName(i);
        s += ' ';
        s += severityWord(e->severity[i]);
    }
    return s;
}

std::string explainText(std::string_view id)
{
    const CatalogEntry* e = findCatalogEntry(id);
    if (!e) {
        return {};
    }
    const CheckExplanation* x = findExplanation(id);
    std::string out(id);
    if (x) {
        out += ": ";
        out += x->summary;
    }
    out += '\n';
    out += "  family ";
    out += checkFamily(id);
    out += "\n  default severity per profile:\n    ";
    out += severityWords(id);
    out += "\n\nFires when\n";
    appendWrapped(out, e->firesWhen, 2);
    if (x) {
        out += "\nWhat it means\n";
        appendWrapped(out, x->meaning, 2);
        out += "\nWhy the compiler cares\n";
        appendWrapped(out, x->why, 2);
        out += "\nLimits\n";
        appendWrapped(out, x->limits, 2);
        out += "\nExample\n";
        appendIndentedLines(out, x->example, 4);
        out += "\nFix\n";
        appendWrapped(out, x->fix, 2);
    }
    out += "\nSee ";
    out += checkHelpUri(id);
    out += '\n';
    return out;
}

std::string explainMarkdown(std::string_view id)
{
    const CatalogEntry* e = findCatalogEntry(id);
    if (!e) {
        return {};
    }
    const CheckExplanation* x = findExplanation(id);
    std::string out;
    if (x) {
        out += x->summary;
        out += "\n\n";
    }
    appendMarkdownBody(out, *e, x);
    return out;
}

std::string listChecksText()
{
    std::size_t idWidth = 0;
    std::size_t familyWidth = 6;
    for (const CatalogEntry& e : diagnosticCatalog()) {
        idWidth = std::max(idWidth, e.id.size());
        familyWidth = std::max(familyWidth, checkFamily(e.id).size());
    }
    std::string out = "# severity per profile: goldsrc/source/source256/cod; E error, W warning, "
                      "N note, - off (--enable turns it on)\n";
    for (const CatalogEntry& e : diagnosticCatalog()) {
        out += e.id;
        out.append(idWidth + 2 - e.id.size(), ' ');
        const std::string_view family = checkFamily(e.id);
        out += family;
        out.append(familyWidth + 2 - family.size(), ' ');
        out += severityLetters(e.id);
        out += "  ";
        const CheckExplanation* x = findExplanation(e.id);
        out += x ? x->summary : e.firesWhen;
        out += '\n';
    }
    return out;
}

std::string listChecksJson()
{
    JsonWriter w;
    w.beginArray();
    for (const CatalogEntry& e : diagnosticCatalog()) {
        const CheckExplanation* x = findExplanation(e.id);
        w.beginObject();
        w.key("id").value(e.id);
        w.key("family").value(checkFamily(e.id));
        w.key("severity").beginObject();
        for (std::size_t i = 0; i < 4; ++i) {
            w.key(columnProfileName(i)).value(severityWord(e.severity[i]));
        }
        w.endObject();
        w.key("summary").value(x ? x->summary : e.firesWhen);
        w.key("helpUri").value(checkHelpUri(e.id));
        w.endObject();
    }
    w.endArray();
    std::string s = w.take();
    s += '\n';
    return s;
}

std::string checksMarkdown()
{
    std::string out;
    out += "# Check catalog\n\n";
    out += "<!-- Generated from core/diag/diagnostic_ids.cpp and core/diag/check_explanations.cpp;"
           " do not edit. Regenerate: cmake --build build -t checks_md -->\n\n";
    out += "Every diagnostic RigScope prints carries one of these ids, as in\n"
           "`body.smd:4120:3: warning: vertex has 4 links after culling; source keeps at most 3 "
           "[weights.too-many-links]`.\n"
           "An id is a stable name: it is never renamed or given another meaning. "
           "`rigscope-cli check --explain ID` prints the section of this page for one id, "
           "`rigscope-cli check --list-checks` the index, and `F1` on a row of the Problems dock "
           "shows the same text.\n"
           "A check on vertices reports each vertex once, at its first corner: an SMD writes a "
           "vertex again for every triangle that uses it, and the copies studiomdl welds (same "
           "position, parent and links; for a normal or UV check, the same normal or UV too) "
           "are one vertex.\n\n"
           "Severities: **error**, the compiler refuses the file, crashes or writes a broken "
           "model; **warning**, it compiles but data is silently changed or dropped, or tools "
           "disagree on what the file means; **note**, information only (never changes the exit "
           "code); **off**, not reported under that profile unless `--enable` turns it on. "
           "The profiles (`goldsrc`, `source`, `source256`, `cod`) and their limits are described "
           "in [profiles.md](profiles.md).\n\n";
    const std::vector<std::string_view> fams = families();
    out += "## Index\n\n";
    out += "G/S/2/C: severity under goldsrc / source / source256 / cod (E error, W warning, "
           "N note, - off).\n\n";
    out += "| Id | G/S/2/C | Summary |\n|---|---|---|\n";
    for (const std::string_view f : fams) {
        for (const CatalogEntry& e : diagnosticCatalog()) {
            if (checkFamily(e.id) != f) {
                continue;
            }
            const CheckExplanation* x = findExplanation(e.id);
            out += "| [`";
            out += e.id;
            out += "`](#";
            out += e.id;
            out += ") | ";
            out += severityLetters(e.id);
            out += " | ";
            std::string summary(x ? x->summary : e.firesWhen);
            std::string escaped;
            for (char c : summary) {
                if (c == '|') {
                    escaped += '\\';
                }
                escaped += c;
            }
            out += escaped;
            out += " |\n";
        }
    }
    for (const std::string_view f : fams) {
        out += "\n## ";
        out += f;
        out += "\n";
        for (const CatalogEntry& e : diagnosticCatalog()) {
            if (checkFamily(e.id) != f) {
                continue;
            }
            const CheckExplanation* x = findExplanation(e.id);
            out += "\n<a id=\"";
            out += e.id;
            out += "\"></a>\n\n### `";
            out += e.id;
            out += "`\n\n";
            if (x) {
                out += x->summary;
                out += "\n\n";
            }
            appendMarkdownBody(out, e, x);
        }
    }
    return out;
}

std::vector<std::string_view> closestCheckIds(std::string_view unknown, std::size_t max)
{
    struct Scored {
        std::size_t score;
        std::string_view id;
    };
    std::vector<Scored> scored;
    const std::string_view unknownName =
        unknown.substr(unknown.find('.') == std::string_view::npos ? 0 : unknown.find('.') + 1);
    for (const CatalogEntry& e : diagnosticCatalog()) {
        const std::string_view name = e.id.substr(e.id.find('.') + 1);
        // The whole id, or only the part after the dot when the family was left out or wrong.
        std::size_t d = std::min(editDistance(unknown, e.id), editDistance(unknownName, name) + 1);
        if (e.id.find(unknown) != std::string_view::npos && unknown.size() >= 3) {
            d = std::min<std::size_t>(d, 1);
        }
        scored.push_back({d, e.id});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const Scored& a, const Scored& b) { return a.score < b.score; });
    const std::size_t threshold = std::max<std::size_t>(3, unknown.size() / 3);
    std::vector<std::string_view> out;
    for (const Scored& s : scored) {
        if (out.size() >= max || s.score > threshold) {
            break;
        }
        out.push_back(s.id);
    }
    if (out.empty()) {
        // Nothing close: the ids of the family the user named, if any.
        const std::string_view family = checkFamily(unknown);
        for (const CatalogEntry& e : diagnosticCatalog()) {
            if (out.size() < max && checkFamily(e.id) == family) {
                out.push_back(e.id);
            }
        }
    }
    return out;
}

} // namespace rigscope::core
