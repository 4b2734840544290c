// Valve SMD / VTA reader (FORMATS.md §1). One grammar on the line scanner: each line's fields
// are read one at a time where they stand (numbers by the inline scanners, the token path only
// for what they decline), then a build step resolves parents, sorts and densifies the skeleton
// frames and grades the profile-dependent syntax diagnostics. A large triangles block is also
// read in shares on threads by the same grammar; a share stops before the first triangle that
// would report anything, which the in-order reading then reports where it stands.
#include "core/formats/smd/smd_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "core/build/model_builder.h"
#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/io/file_buffer.h"
#include "core/text/ascii.h"
#include "core/text/line_scanner.h"
#include "core/text/names.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"
#include "core/text/text_cursor.h"

namespace rigscope::core {

namespace {

using K = ElementRef::Kind;

constexpr std::size_t kMaxTokens = 4096; // fields that may carry links / extra UVs on a line
constexpr std::size_t kMaxLinks = (kMaxTokens - 10) / 2;
constexpr std::size_t kMaxPerId = 10000; // reader diagnostics per id, then a summary

// Field names for messages.
constexpr const char* kPos[3] = {"position x", "position y", "position z"};
constexpr const char* kRot[3] = {"rotation x", "rotation y", "rotation z"};
constexpr const char* kNrm[3] = {"normal x", "normal y", "normal z"};

enum class Block : std::uint8_t { None, Nodes, Skeleton, Triangles, VertexAnimation };

constexpr std::array<std::string_view, 5> kBlockNames{"", "nodes", "skeleton", "triangles",
                                                      "vertexanimation"};

std::string_view blockName(Block b) noexcept
{
    return kBlockNames[static_cast<std::size_t>(b)];
}

Block blockFromKeyword(std::string_view tok) noexcept
{
    for (std::size_t i = 1; i < kBlockNames.size(); ++i) {
        if (equalsIgnoreCase(tok, kBlockNames[i])) {
            return static_cast<Block>(i);
        }
    }
    return Block::None;
}

// Character classes of the fields: 0 field, 1 blank, 2 '#' or ';', 3 '/', 4 '"'.
constexpr std::array<std::uint8_t, 256> kClasses = [] {
    std::array<std::uint8_t, 256> c{};
    c[' '] = c['\t'] = c['\f'] = c['\v'] = 1;
    c['#'] = c[';'] = 2;
    c['/'] = 3;
    c['"'] = 4;
    return c;
}();

inline std::uint8_t cls(char ch) noexcept
{
    return kClasses[static_cast<unsigned char>(ch)];
}

// The fields of one line, read one at a time where they stand (no token array). Blanks
// separate fields; '#', ';' and '//' start a comment; "..." is one field (quotes kept); a quote
// or a single '/' inside a field belongs to it. A field is never empty.
class Fields {
public:
    Fields(const char* b, const char* e) noexcept : m_cursor(b), m_end(e) {}

    // The next field, or an empty view at the end of the line (or its comment).
    std::string_view next() noexcept { return start() ? take() : std::string_view{}; }
    // The next field as a number (float or int32): the inline scanner where it takes the whole
    // field, else the token path. `tok` is the field (for messages).
    enum class Got : std::uint8_t { Ok, Missing, Bad };
    template <class T> Got number(T& out, std::string_view& tok) noexcept
    {
        if (!start()) {
            return Got::Missing;
        }
        const char* q = nullptr;
        if constexpr (std::is_same_v<T, float>) {
            q = scanFloat(m_cursor, m_end, out);
        } else {
            q = scanInt(m_cursor, m_end, out);
        }
        if (q && ends(q)) {
            tok = {m_cursor, static_cast<std::size_t>(q - m_cursor)};
            m_cursor = q;
            ++m_now.taken;
            return Got::Ok;
        }
        tok = take();
        m_slow = true;
        if constexpr (std::is_same_v<T, float>) {
            return parseFloat(tok, out) ? Got::Ok : Got::Bad;
        } else {
            return parseInt(tok, out) ? Got::Ok : Got::Bad;
        }
    }

    bool slow() const noexcept { return m_slow; } // a number went through the token path
    bool atEnd() noexcept { return !start(); }
    // About the whole line (walks a copy to its end once).
    std::size_t total() noexcept { return whole().taken; }
    const char* firstTab() noexcept { return whole().tab; }
    std::string_view comment() noexcept { return whole().comment; }
    bool unterminated() noexcept { return whole().unterminated; }

private:
    // Skips blanks; false at the end of the line or at a comment.
    bool start() noexcept
    {
        while (m_cursor != m_end && cls(*m_cursor) == 1) {
            if (*m_cursor == '\t' && !m_now.tab) {
                m_now.tab = m_cursor;
            }
            ++m_cursor;
        }
        if (m_cursor == m_end) {
            m_done = true;
            return false;
        }
        const std::uint8_t c = cls(*m_cursor);
        if (c == 2 || (c == 3 && m_cursor + 1 != m_end && m_cursor[1] == '/')) {
            m_now.comment = {m_cursor, static_cast<std::size_t>(m_end - m_cursor)};
            m_cursor = m_end;
            m_done = true;
            return false;
        }
        return true;
    }
    // Whether a number ending at q ends its field.
    bool ends(const char* q) const noexcept
    {
        if (q == m_end) {
            return true;
        }
        const std::uint8_t c = cls(*q);
        return c == 1 || c == 2 || (c == 3 && q + 1 != m_end && q[1] == '/');
    }
    std::string_view take() noexcept
    {
        const char* const s = m_cursor;
        if (cls(*m_cursor) == 4) {
            ++m_cursor;
            while (m_cursor != m_end && *m_cursor != '"') {
                ++m_cursor;
            }
            if (m_cursor == m_end) {
                m_now.unterminated = true;
            } else {
                ++m_cursor;
            }
        } else {
            for (;;) {
                while (m_cursor != m_end && cls(*m_cursor) == 0) {
                    ++m_cursor;
                }
                if (m_cursor != m_end &&
                    (cls(*m_cursor) == 4 ||
                     (cls(*m_cursor) == 3 && !(m_cursor + 1 != m_end && m_cursor[1] == '/')))) {
                    ++m_cursor;
                    continue;
                }
                break;
            }
        }
        ++m_now.taken;
        return {s, static_cast<std::size_t>(m_cursor - s)};
    }
    struct Whole {
        std::size_t taken = 0; // fields
        const char* tab = nullptr;
        std::string_view comment;
        bool unterminated = false; // a quoted field runs to the end of the line
    };
    const Whole& whole() noexcept
    {
        if (!m_done && !m_known) {
            Fields rest = *this;
            while (!rest.next().empty()) {
            }
            m_whole = rest.m_now;
            m_known = true;
        }
        return m_done ? m_now : m_whole;
    }

    const char* m_cursor;
    const char* m_end;
    Whole m_now; // the fields taken so far (the whole line once m_done)
    bool m_done = false;
    bool m_slow = false;
    bool m_known = false; // m_whole is computed
    Whole m_whole;
};

bool isFullLineComment(std::string_view trimmed) noexcept
{
    return trimmed.starts_with('#') || trimmed.starts_with(';') || trimmed.starts_with("//");
}

// The lines in [from, to), estimated from the first megabyte (to reserve arrays).
std::size_t estimatedLines(const char* from, const char* to) noexcept
{
    const auto size = static_cast<std::size_t>(to - from);
    const std::size_t sample = std::min(size, std::size_t(1) << 20);
    return countNewlines({from, sample}) * size / std::max<std::size_t>(sample, 1);
}

// The triangles in [from, to) (4 lines each), estimated from the first megabyte's lines with a
// little room. A triangle takes at least 56 bytes (3 x "0 0 0 0 0 0 0 0 0\n" and a material),
// so a hostile file of blank lines cannot reserve more than real triangles of its size use.
std::size_t estimatedTriangles(const char* from, const char* to) noexcept
{
    const auto size = static_cast<std::size_t>(to - from);
    const std::size_t lines = estimatedLines(from, to);
    return std::min(lines / 4 + lines / 64 + 1, size / 56 + 1);
}

// Whether a line starts as a vertex line does (an integer, then a number) and has at least
// `need` fields.
bool startsLikeVertex(const char* b, const char* e, std::size_t need = 0) noexcept
{
    Fields f(b, e);
    std::int32_t i = 0;
    float x = 0;
    std::string_view tok;
    return f.number(i, tok) == Fields::Got::Ok && f.number(x, tok) == Fields::Got::Ok &&
           (need == 0 || f.total() >= need);
}

// A guess at the first triangle starting at a line after p: a line that does not look like a
// vertex line (an integer, a blank, a number) followed by three that do. Only a guess: a share
// starting here is kept only when the share before it ended exactly here, which proves it.
const char* guessTriangleStart(const char* p, const char* end) noexcept
{
    LineScanner sc(p, p, end);
    if (!sc.next()) {
        return nullptr;
    }
    const char* candidate = nullptr; // the last line that is no vertex line
    int vertices = 0;                // vertex lines since
    for (int n = 0; n < 12; ++n) {
        const char* const at = sc.position();
        if (!sc.next()) {
            break;
        }
        if (!startsLikeVertex(sc.begin(), sc.end())) {
            candidate = at;
            vertices = 0;
        } else if (candidate && ++vertices == 3) {
            return candidate;
        }
    }
    return nullptr;
}

// Appends `src` (each element through `fix`) to `dst` and frees `src` at once, its whole huge
// pages given back first (the heap keeps freed arrays for reuse: reserveHeapForArrays), so
// splicing shares never holds two copies of more than one array.
template <class T, class F = std::identity>
void moveAppend(std::vector<T>& dst, std::vector<T>& src, F fix = {})
{
    if constexpr (std::is_same_v<F, std::identity>) {
        dst.insert(dst.end(), src.begin(), src.end());
    } else {
        std::transform(src.begin(), src.end(), std::back_inserter(dst), fix);
    }
    releasePages(src.data(), src.capacity() * sizeof(T));
    std::vector<T>().swap(src);
}

struct RawFrame {
    double time = 0;
    SourceLoc where;
    std::string comment;
    bool hasComment = false;
    std::size_t first = 0; // into states
    std::size_t count = 0;
};

struct RawState {
    JointIndex joint = kNoJoint;
    Vec3 position = Vec3::Zero();
    Vec3 rotation = Vec3::Zero();
};

struct Corner {
    JointIndex parent = kNoJoint;
    Vec3 position = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    Vec2 uv = Vec2::Zero();
    LinkState state = LinkState::Absent;
    std::vector<JointIndex> joints;
    std::vector<float> weights;
    std::vector<const char*> jointAt; // each link's bone field, for reports
    std::vector<Vec2> extraUvs;
    SourceLoc where;
    bool slow = false; // a number went through the token path
};

// Diagnostics whose severity or presence depends on the profile, graded after the build.
enum class Deferred : std::uint8_t {
    KeywordCase,
    BlockKeywordCase,
    TopLevelComment,
    UnknownParent
};

class SmdReader {
public:
    SmdReader(std::string_view bytes, const ReadContext& ctx)
        : m_bytes(bytes), m_ctx(ctx), m_sc(bytes), m_sink(ctx.fileName), m_direct(ctx.fastPaths)
    {
    }
    // A share of a triangles block: [begin, stop) read with `main`'s bones and version; line
    // numbers count from 1 at `begin`, offsets are the file's.
    SmdReader(const SmdReader& main, const char* begin, const char* stop)
        : m_bytes(main.m_bytes), m_ctx(main.m_ctx),
          m_sc(main.m_bytes.data(), begin, main.m_bytes.data() + main.m_bytes.size()),
          m_shareBegin(begin), m_shareStop(stop), m_share(true), m_ids(main.m_ids)
    {
        m_model.version = main.m_model.version;
    }

    ReadResult run();

private:
    // ---- diagnostics --------------------------------------------------------------------
    // A share reports nothing: the first report stops it, and reading in order reports.
    Diagnostic& report(Severity s, std::string_view id, SourceLoc where, std::string message,
                       ElementRef e = {})
    {
        ++m_reports;
        if (m_share) {
            m_stop = true;
            return m_dummy;
        }
        std::size_t& n = m_perId[id];
        if (++n > kMaxPerId) {
            m_dummy = Diagnostic{};
            return m_dummy;
        }
        return m_sink.report(s, id, where, std::move(message), e);
    }
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
    Diagnostic& fixed(Severity s, std::string_view id, SourceLoc where, std::string message,
                      ElementRef e = {})
    {
        Diagnostic& d = report(s, id, where, std::move(message), e);
        d.fixedSeverity = true;
        return d;
    }
    SourceLoc loc(const char* p) const noexcept
    {
        return {m_sc.lineNumber(), m_sc.column(p), m_sc.offset(p)};
    }
    SourceLoc loc(std::string_view tok) const noexcept { return loc(tok.data()); }
    // The current line's first non-blank column (column 1 on a blank line).
    SourceLoc lineLoc() const noexcept
    {
        const char* p = skipLineBlanks(m_sc.begin(), m_sc.end());
        return loc(p == m_sc.end() ? m_sc.begin() : p);
    }
    std::string_view line() const noexcept { return m_sc.line(); }
    void badNumber(std::string_view tok, bool integer, std::string_view field)
    {
        error(ids::kSyntaxBadNumber, loc(tok),
              std::string("expected ") + (integer ? "int" : "float") + " for " +
                  std::string(field) + ", got '" + shownToken(tok) + "'");
    }
    void shortLine(std::string_view kind, std::size_t have, std::size_t need)
    {
        if (isCutLine()) {
            truncated(lineLoc(), "file ends in the middle of a " + std::string(kind) + " line (" +
                                     std::to_string(have) + " of " + std::to_string(need) +
                                     " fields)");
            return;
        }
        error(ids::kSyntaxShortLine, lineLoc(),
              std::string(kind) + " line has " + plural(have, "field") + "; needs " +
                  std::to_string(need));
    }
    // syntax.non-ascii: a bone, material or shape name with bytes studiomdl mishandles.
    void checkName(std::string_view name, SourceLoc at, ElementRef e = {})
    {
        if (const std::string_view issue = nameIssue(name); !issue.empty()) {
            warning(ids::kSyntaxNonAscii, at,
                    "name '" + shownToken(name) + "' contains " + std::string(issue), e);
        }
    }
    // The fields after the `used` ones: a note that they are ignored.
    void extraFields(Fields& f, std::size_t used)
    {
        const std::string_view t = f.next();
        if (t.empty()) {
            return;
        }
        const std::size_t k = f.total() - used;
        note(ids::kSyntaxExtraFields, loc(t),
             std::to_string(k) + (k == 1 ? " extra field" : " extra fields") +
                 "; studiomdl ignores them, BinarySMD rejects them");
    }
    // The next field as a number of a `kind` line that needs `need` fields.
    template <class T>
    bool field(Fields& f, T& out, const char* name, const char* kind, std::size_t need,
               std::string_view* at = nullptr)
    {
        std::string_view tok;
        const Fields::Got got = f.number(out, tok);
        if (got == Fields::Got::Ok) {
            if (at) {
                *at = tok;
            }
            return true;
        }
        return badField(f, tok, got == Fields::Got::Missing, !std::is_same_v<T, float>, name, kind,
                        need);
    }
    // A missing field, or a bad one on a line with too few, is a short line; else a bad number.
    // Returns false.
    bool badField(Fields& f, std::string_view tok, bool missing, bool integer, const char* name,
                  const char* kind, std::size_t need)
    {
        if (missing || f.total() < need) {
            shortLine(kind, f.total(), need);
        } else {
            badNumber(tok, integer, name);
        }
        return false;
    }
    bool vec3(Fields& f, Vec3& out, const char* const names[3], const char* kind, std::size_t need)
    {
        return field(f, out.x(), names[0], kind, need) && field(f, out.y(), names[1], kind, need) &&
               field(f, out.z(), names[2], kind, need);
    }
    // An int from a field already taken (the first of a line).
    bool intOf(std::string_view tok, std::int32_t& out) const noexcept
    {
        const char* q = scanInt(tok.data(), tok.data() + tok.size(), out);
        return q == tok.data() + tok.size() || parseInt(tok, out);
    }

    // ---- lines --------------------------------------------------------------------------
    bool nextLine() noexcept
    {
        m_prev = m_sc;
        if (!m_sc.next()) {
            return false;
        }
        m_lastLine = m_sc.lineNumber();
        m_lastLineLength = static_cast<std::size_t>(m_sc.end() - m_sc.begin());
        m_lastWasEnd = false;
        return true;
    }
    void unread() noexcept { m_sc = m_prev; }
    // The last line of a file that does not end with a newline: it may be cut.
    bool isCutLine() const noexcept
    {
        return m_sc.end() != m_sc.begin() && m_sc.end() == m_bytes.data() + m_bytes.size();
    }
    SourceLoc eofLoc() const noexcept
    {
        return {m_lastLine == 0 ? 1 : m_lastLine, static_cast<std::uint32_t>(m_lastLineLength) + 1,
                m_bytes.size()};
    }
    void noteTab(const char* tab, bool manyLinks) noexcept;
    bool blankOrComment(Block b);
    bool blankBeforeLastEnd();
    bool isEndLine(std::string_view first, Fields& f, Block b);
    bool endsBlock(std::string_view first, Fields& f, Block b, SourceLoc opened);
    void keywordCase(std::string_view tok, std::string_view exact, bool block);

    // ---- blocks -------------------------------------------------------------------------
    void openBlock(Block b, std::string_view kw, Fields& f);
    void missingEnd(Block b, SourceLoc opened, SourceLoc at);
    // syntax.truncated (issue 15): the file ends before its structure is complete. Reported
    // once: a cut last line already says where the file ends.
    void truncated(SourceLoc at, std::string message, SourceLoc opened = {},
                   std::string_view block = {});
    void endsInside(Block b, SourceLoc opened, const std::string& read);
    void clearVertexRefs(std::size_t mark) noexcept;
    // Keeps the index of the report just made (none when it was not listed) to grade it by
    // profile, or to renumber its raw frame once frames are sorted.
    void defer(const Diagnostic& d, Deferred what)
    {
        if (&d != &m_dummy) {
            m_deferred.emplace_back(m_sink.diagnostics().size() - 1, what);
        }
    }
    void frameDiag(const Diagnostic& d)
    {
        if (&d != &m_dummy) {
            m_frameDiags.push_back(m_sink.diagnostics().size() - 1);
        }
    }
    void skipUnknownBlock(std::string_view kw);
    void parseNodes(SourceLoc opened);
    void parseFrames(Block b, SourceLoc opened);
    void beginFrame(RawFrame&& f);
    void addPose(JointIndex joint, const Vec3& position, const Vec3& rotation);
    void leaveDirect();
    bool parseTimeLine(std::string_view kw, Fields& f, RawFrame& rf);
    void parseTriangles(SourceLoc opened);
    bool triangles(SourceLoc opened, const char* stopAt);
    bool parseCorner(Corner& c, std::uint32_t vertex);
    void appendTriangle(std::uint32_t mat, SourceLoc matAt);
    std::uint32_t internMaterial(std::string_view name, SourceLoc at);
    int parallelTriangles(SourceLoc opened);
    void reserveFor(const char* from, const char* to);
    void splice(SmdReader& share);

    // ---- build --------------------------------------------------------------------------
    void build();
    void buildSkeleton();
    void buildAnimation();
    void buildExtraUvs();
    void buildVertexFrames();
    void gradeByProfile();

    std::string_view m_bytes;
    const ReadContext& m_ctx;
    LineScanner m_sc;
    LineScanner m_prev; // before the current line, for unread()
    DiagnosticSink m_sink;
    Diagnostic m_dummy;
    std::unordered_map<std::string_view, std::size_t> m_perId;
    const char* m_shareBegin = nullptr;
    const char* m_shareStop = nullptr;
    bool m_share = false; // reading a share on a thread: the first report stops it
    bool m_stop = false;
    bool m_truncated = false;
    std::size_t m_reports = 0; // reports so far, for ReadStats::fastLines
    bool m_slowTime = false;

    // Tabs (reported once), line state.
    SourceLoc m_tabAt;
    SourceLoc m_tabManyLinksAt;
    std::uint32_t m_lastLine = 0;
    std::size_t m_lastLineLength = 0;
    bool m_lastWasEnd = false;

    // What the file said.
    Model m_model;
    bool m_sawUnknown = false; // an unknown block or stray 'end': the file is not just comments
    bool m_sawBlock = false;
    bool m_sawVersion = false;
    SourceLoc m_versionTokAt;
    // Where the first block of each kind opened (line 0: none).
    std::array<SourceLoc, kBlockNames.size()> m_openedAt{};
    SourceLoc& openedAt(Block b) noexcept { return m_openedAt[static_cast<std::size_t>(b)]; }
    bool has(Block b) noexcept { return openedAt(b).line != 0; }

    IdMap m_ids;
    std::vector<std::int32_t> m_rawParents;
    std::vector<SourceLoc> m_parentTokAt;

    std::vector<RawFrame> m_frames;
    std::vector<RawState> m_states;
    // While frame times only increase (nearly every file), poses go straight into the dense
    // animation (m_anim, frame i = raw frame i) and m_states stays empty: no second copy of
    // the keys. The first frame out of order converts to m_states and the sorting build.
    // ReadContext::fastPaths = false keeps every pose in m_states (tst_fast_paths compares).
    Animation m_anim;
    bool m_direct = true;
    std::vector<std::size_t> m_frameDiags; // diagnostics whose Frame index is a raw frame index

    MaterialInterner m_materials;
    // The last few materials and their indices (names in the file): most triangles name one.
    std::array<std::pair<std::string_view, std::uint32_t>, 4> m_recent{};
    std::size_t m_recentNext = 0;
    std::vector<std::uint32_t> m_extraCounts; // v3: extra UV pairs per corner (before padding)
    std::vector<Vec2> m_extraRaw;
    std::uint32_t m_maxExtra = 0;
    Corner m_corner[3];

    std::vector<std::pair<std::size_t, Deferred>> m_deferred;
    bool m_triedParallel = false;
    ReadStats m_stats;
};

// ---- lines ----------------------------------------------------------------------------------

void SmdReader::noteTab(const char* tab, bool manyLinks) noexcept
{
    if (!tab) {
        return;
    }
    const SourceLoc at = loc(tab);
    if (m_tabAt.line == 0) {
        m_tabAt = at;
    }
    if (manyLinks && m_tabManyLinksAt.line == 0) {
        m_tabManyLinksAt = at;
    }
}

// A blank line where 'triangles' expects a material: studiomdl (HL1 and Source Grab_Triangles)
// takes it as an empty texture name and skips it and the next 3 lines. When all that follows
// is the block's `end` and blank lines, those lines hold nothing, the compile ends cleanly and
// no triangle is lost (an exporter's empty 'triangles' block): a note, reported here.
bool SmdReader::blankBeforeLastEnd()
{
    if (!trim(line()).empty()) {
        return false;
    }
    LineScanner ahead = m_sc;
    bool sawEnd = false;
    while (ahead.next()) {
        const std::string_view t = trim(ahead.line());
        if (t.empty()) {
            continue;
        }
        if (sawEnd || !equalsIgnoreCase(t, "end")) {
            return false;
        }
        sawEnd = true;
    }
    if (!sawEnd) {
        return false;
    }
    fixed(Severity::Note, ids::kSyntaxBlankLineInBlock, loc(m_sc.begin()),
          "blank line in 'triangles': studiomdl skips it and the 3 lines after it, here only the "
          "block's 'end' (no triangle is lost)");
    return true;
}

// Blank lines and full-line comments inside a block: report and tell the caller to skip.
bool SmdReader::blankOrComment(Block b)
{
    const std::string_view trimmed = trim(line());
    if (trimmed.empty()) {
        const SourceLoc at = loc(m_sc.begin());
        if (b == Block::Nodes) {
            error(ids::kSyntaxBlankLineInBlock, at, "blank line ends 'nodes' in studiomdl");
        } else if (b == Block::Triangles) {
            error(ids::kSyntaxBlankLineInBlock, at, "blank line desyncs 'triangles' in studiomdl");
        } else {
            fixed(Severity::Warning, ids::kSyntaxBlankLineInBlock, at,
                  "blank line in '" + std::string(blockName(b)) +
                      "'; Blender Source Tools ends the block here");
        }
        return true;
    }
    if (!isFullLineComment(trimmed)) {
        return false;
    }
    const SourceLoc at = lineLoc();
    error(ids::kSyntaxCommentGoldsrc, at, "GoldSrc studiomdl has no comments");
    if (!line().starts_with("//")) {
        error(ids::kSyntaxCommentInBlock, at, "only '//' at column 1 is skipped inside blocks");
    }
    return true;
}

// `end` (any case, blanks around it; `first` is the line's first field). Reports inexact
// spellings.
bool SmdReader::isEndLine(std::string_view first, Fields& f, Block b)
{
    if (!equalsIgnoreCase(first, "end") || f.total() != 1) {
        return false;
    }
    keywordCase(first, "end", false);
    if (first.data() != m_sc.begin() || first.size() != line().size()) {
        const SourceLoc at = lineLoc();
        if (b == Block::Triangles) {
            error(ids::kSyntaxEndNotExact, at, "studiomdl reads this 'end' as a material name");
        } else {
            fixed(Severity::Note, ids::kSyntaxEndNotExact, at,
                  "'end' with blanks or a comment around it; studiomdl compares the raw line");
        }
    }
    m_lastWasEnd = true;
    return true;
}

// Whether the line (`first` its first field) ends block `b`: its `end`, or a new block's
// keyword (syntax.missing-end; the line is then read again at the top level).
bool SmdReader::endsBlock(std::string_view first, Fields& f, Block b, SourceLoc opened)
{
    if (isEndLine(first, f, b)) {
        return true;
    }
    if (blockFromKeyword(first) == Block::None || f.total() != 1) {
        return false;
    }
    missingEnd(b, opened, lineLoc());
    unread();
    return true;
}

// A keyword (`tok`, equal to `exact` in any case) not spelled exactly.
void SmdReader::keywordCase(std::string_view tok, std::string_view exact, bool block)
{
    if (tok == exact) {
        return;
    }
    defer(error(ids::kSyntaxKeywordCase, loc(tok),
                "'" + shownToken(tok) + "' must be '" + std::string(exact) + "'"),
          block ? Deferred::BlockKeywordCase : Deferred::KeywordCase);
}

// ---- top level ------------------------------------------------------------------------------

ReadResult SmdReader::run()
{
    bool beforeKeyword = true;
    while (nextLine()) {
        const std::string_view trimmed = trim(line());
        if (trimmed.empty()) {
            continue;
        }
        if (isFullLineComment(trimmed)) {
            if (beforeKeyword) {
                m_model.headerComments.emplace_back(line());
            }
            defer(note(ids::kSyntaxCommentGoldsrc, lineLoc(), "GoldSrc studiomdl has no comments"),
                  Deferred::TopLevelComment);
            continue;
        }
        Fields f(m_sc.begin(), m_sc.end());
        const std::string_view kw = f.next();
        noteTab(f.firstTab(), false);
        beforeKeyword = false;
        if (equalsIgnoreCase(kw, "version")) {
            keywordCase(kw, "version", true);
            const std::string_view tok = f.next();
            m_sawVersion = !tok.empty(); // a bare 'version' is reported as missing
            m_versionTokAt = lineLoc();
            std::int32_t v = 1;
            if (m_sawVersion && !parseInt(tok, v)) {
                badNumber(tok, true, "version");
            } else if (m_sawVersion) {
                m_model.version = v;
                m_versionTokAt = loc(tok);
                extraFields(f, 2);
            }
            continue;
        }
        const Block b = blockFromKeyword(kw);
        if (b != Block::None) {
            openBlock(b, kw, f);
        } else if (equalsIgnoreCase(kw, "end") && f.total() == 1) {
            warning(ids::kSyntaxUnknownBlock, lineLoc(), "stray 'end' ignored");
            m_lastWasEnd = true;
        } else {
            skipUnknownBlock(kw);
        }
    }
    ReadResult r;
    if (!m_sawBlock) {
        if (m_sawUnknown) {
            // Text that is neither comments nor SMD blocks (a 1 GB line of garbage, another
            // format with a wrong extension): what was skipped, and no bones, not "empty".
            if (!m_sawVersion) {
                m_sink.error(ids::kSyntaxBadVersion, {1, 1, 0},
                             "version missing; no SMD block found");
            }
            m_sink.error(ids::kSkeletonNoBones, {1, 1, 0},
                         "file declares no bones (no 'nodes' block)");
        } else {
            m_sink.diagnostics().clear();
            m_sink.error(ids::kSyntaxEmptyFile, {1, 1, 0}, "file is empty");
        }
        r.diagnostics = m_sink.take();
        return r;
    }
    build();
    for (const auto& [id, n] : m_perId) {
        if (n > kMaxPerId) {
            m_sink
                .report(Severity::Note, id, {1, 1, 0},
                        std::to_string(n - kMaxPerId) + " more not listed by the reader")
                .fixedSeverity = true;
        }
    }
    r.model = std::move(m_model);
    r.hasModel = true;
    r.stats = m_stats;
    r.diagnostics = m_sink.take();
    std::stable_sort(
        r.diagnostics.begin(), r.diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.where.offset < b.where.offset; });
    return r;
}

void SmdReader::skipUnknownBlock(std::string_view kw)
{
    m_sawUnknown = true;
    const std::string name = shownToken(kw);
    warning(ids::kSyntaxUnknownBlock, lineLoc(),
            "unknown block '" + name + "' skipped to its 'end'");
    while (nextLine()) {
        if (equalsIgnoreCase(trim(line()), "end")) {
            m_lastWasEnd = true;
            return;
        }
    }
    if (m_sawBlock) { // text before any SMD block is no SMD cut short, but no SMD at all
        truncated(eofLoc(), "file ends inside unknown block '" + name + "'; no 'end'");
    }
}

void SmdReader::openBlock(Block b, std::string_view kw, Fields& f)
{
    m_sawBlock = true;
    keywordCase(kw, blockName(b), true);
    extraFields(f, 1);
    const SourceLoc opened = lineLoc();
    if (!has(b)) {
        openedAt(b) = opened;
    }
    switch (b) {
    case Block::Nodes:
        parseNodes(opened);
        break;
    case Block::Triangles:
        parseTriangles(opened);
        break;
    case Block::Skeleton:
    case Block::VertexAnimation:
        parseFrames(b, opened);
        break;
    case Block::None:
        break;
    }
}

void SmdReader::missingEnd(Block b, SourceLoc opened, SourceLoc at)
{
    const std::string name = "'" + std::string(blockName(b)) + "'";
    const std::string msg =
        name + " opened at line " + std::to_string(opened.line) + " has no 'end'";
    Diagnostic& d = b == Block::Triangles
                        ? fixed(Severity::Warning, ids::kSyntaxMissingEnd, at, msg)
                        : error(ids::kSyntaxMissingEnd, at, msg);
    d.related.push_back({m_ctx.fileName, opened, name + " opened here"});
}

void SmdReader::truncated(SourceLoc at, std::string message, SourceLoc opened,
                          std::string_view block)
{
    if (m_truncated) {
        return;
    }
    m_truncated = !m_share;
    Diagnostic& d = error(ids::kSyntaxTruncated, at, std::move(message));
    if (opened.line != 0) {
        d.related.push_back({m_ctx.fileName, opened, "'" + std::string(block) + "' opened here"});
    }
}

void SmdReader::endsInside(Block b, SourceLoc opened, const std::string& read)
{
    truncated(eofLoc(),
              "file ends inside '" + std::string(blockName(b)) + "' opened at line " +
                  std::to_string(opened.line) + " after " + read + "; no 'end'",
              opened, blockName(b));
}

void SmdReader::clearVertexRefs(std::size_t mark) noexcept
{
    auto& diags = m_sink.diagnostics();
    for (std::size_t i = mark; i < diags.size(); ++i) {
        if (diags[i].element.kind == K::Vertex) {
            diags[i].element = {};
        }
    }
}

// ---- nodes ----------------------------------------------------------------------------------

void SmdReader::parseNodes(SourceLoc opened)
{
    Skeleton& s = m_model.skeleton;
    while (nextLine()) {
        if (blankOrComment(Block::Nodes)) {
            continue;
        }
        Fields f(m_sc.begin(), m_sc.end());
        const std::string_view idTok = f.next();
        noteTab(f.firstTab(), false);
        if (endsBlock(idTok, f, Block::Nodes, opened)) {
            return;
        }
        const SourceLoc at = lineLoc();
        if (f.unterminated()) {
            if (isCutLine()) {
                truncated(at, "file ends in the middle of a node line (quoted name not closed)");
            } else {
                fixed(Severity::Warning, ids::kSyntaxUnterminatedString, at,
                      "quoted name runs to the end of the line; line dropped");
            }
            continue;
        }
        const std::string_view nameTok = f.next();
        const std::string_view parentTok = f.next();
        if (parentTok.empty()) {
            shortLine("node", f.total(), 3);
            continue;
        }
        std::int32_t id = 0;
        std::int32_t parent = -1;
        if (!parseInt(idTok, id)) {
            badNumber(idTok, true, "node id");
            continue;
        }
        if (!parseInt(parentTok, parent)) {
            badNumber(parentTok, true, "parent id");
            continue;
        }
        extraFields(f, 3);
        if (id < 0) {
            fixed(Severity::Error, ids::kSkeletonNegativeId, loc(idTok),
                  "node id " + std::to_string(id) + " is negative; line skipped");
            continue;
        }
        const bool quoted = nameTok.size() >= 2 && nameTok.front() == '"' && nameTok.back() == '"';
        const std::string_view name = quoted ? nameTok.substr(1, nameTok.size() - 2) : nameTok;
        checkName(name, loc(nameTok));
        JointIndex j = m_ids.find(id);
        if (j != kNoJoint) {
            const auto u = static_cast<std::size_t>(j);
            const bool same = s.names[u] == name && m_rawParents[u] == parent;
            const std::string msg = "bone id " + std::to_string(id) +
                                    " redefined; studiomdl keeps the last ('" + shownToken(name) +
                                    "')";
            Diagnostic& d =
                same ? fixed(Severity::Note, ids::kSkeletonDuplicateId, at, msg, {K::Joint, j})
                     : error(ids::kSkeletonDuplicateId, at, msg, {K::Joint, j});
            d.related.push_back({m_ctx.fileName, s.where[u], "first defined here"});
            s.names[u].assign(name);
            s.where[u] = at;
            m_rawParents[u] = parent;
            m_parentTokAt[u] = loc(parentTok);
        } else {
            j = s.addJoint(std::string(name), kNoJoint, id, at);
            m_ids.set(id, j);
            m_rawParents.push_back(parent);
            m_parentTokAt.push_back(loc(parentTok));
        }
        if (!quoted) {
            error(ids::kSyntaxUnquotedName, at,
                  "bone name not quoted; studiomdl ends the nodes block here (" +
                      plural(static_cast<std::size_t>(j), "bone") + " read)",
                  {K::Joint, j});
        }
    }
    endsInside(Block::Nodes, opened, plural(s.size(), "bone"));
}

// ---- skeleton -------------------------------------------------------------------------------

bool SmdReader::parseTimeLine(std::string_view kw, Fields& f, RawFrame& rf)
{
    keywordCase(kw, "time", false);
    const std::string_view tok = f.next();
    if (tok.empty()) {
        shortLine("time", 1, 2);
        return false;
    }
    std::int32_t whole = 0; // most times are integers: the inline scanner (not "-0")
    if (tok.front() != '-' &&
        scanInt(tok.data(), tok.data() + tok.size(), whole) == tok.data() + tok.size()) {
        rf.time = whole;
    } else if (!parseDouble(tok, rf.time) || !std::isfinite(rf.time)) {
        badNumber(tok, false, "time");
        return false;
    } else {
        m_slowTime = true;
    }
    extraFields(f, 2);
    std::string_view text = f.comment(); // its '#', ';' or '//' and blanks off
    rf.hasComment = !text.empty();
    text.remove_prefix(text.starts_with("//") ? 2 : text.empty() ? 0 : 1);
    rf.comment.assign(trim(text));
    checkName(rf.comment, rf.hasComment ? loc(f.comment()) : SourceLoc{});
    return true;
}

// `skeleton` and `vertexanimation`: `time T` starts a frame, then lines of an id and six
// numbers (a bone's position and rotation, or a vertex's position and normal).
void SmdReader::parseFrames(Block b, SourceLoc opened)
{
    const bool skel = b == Block::Skeleton;
    const char* const kind = skel ? "bone" : "vertex animation";
    if (skel) { // a state a line: reserve for the lines estimated
        const char* const end = m_bytes.data() + m_bytes.size();
        const auto size = static_cast<std::size_t>(end - m_sc.position());
        const std::size_t lines = estimatedLines(m_sc.position(), end);
        // A pose line takes at least 14 bytes; at most 4M keys ahead, growth after that
        // (address space: pages come as written).
        const std::size_t keys = std::min({lines, size / 14, std::size_t(1) << 22});
        if (m_direct && m_frames.empty()) {
            m_anim.jointCount = m_model.skeleton.size();
            const std::size_t dense = (keys / (m_anim.jointCount + 1) + 1) * m_anim.jointCount;
            m_anim.positions.reserve(dense);
            m_anim.rotations.reserve(dense);
            m_anim.explicitKey.reserve(dense);
        } else if (!m_direct) {
            m_states.reserve(m_states.size() + keys);
        }
    }
    bool inFrame = false;
    bool skipFrame = false; // its `time` line was bad and is reported
    while (nextLine()) {
        if (blankOrComment(b)) {
            continue;
        }
        Fields f(m_sc.begin(), m_sc.end());
        const std::string_view first = f.next();
        const std::size_t reports = m_reports;
        std::int32_t id = 0;
        if (!intOf(first, id)) {
            noteTab(f.firstTab(), false);
            if (endsBlock(first, f, b, opened)) {
                return;
            }
            if (equalsIgnoreCase(first, "time")) {
                RawFrame rf;
                m_slowTime = false;
                skipFrame = !parseTimeLine(first, f, rf);
                m_stats.fastLines += !m_slowTime && m_reports == reports ? 1 : 0;
                inFrame = !skipFrame;
                rf.where = lineLoc();
                if (inFrame && skel) {
                    beginFrame(std::move(rf));
                } else if (inFrame) {
                    VertexFrame& vf = m_model.vertexFrames.emplace_back();
                    vf.time = rf.time;
                    vf.name = std::move(rf.comment);
                    vf.nameFromComment = rf.hasComment;
                    vf.where = rf.where;
                }
                continue;
            }
        }
        if (!inFrame) { // before any 'time', or after a bad one
            noteTab(f.firstTab(), false);
            if (!skipFrame) {
                error(skel ? ids::kSkeletonNoTime : ids::kFlexFrameSync, lineLoc(),
                      skel ? "pose line before any 'time' (studiomdl: missing frame start)"
                           : "vertex before any 'time' (studiomdl: VTA Frame Sync)");
            }
            continue;
        }
        Vec3 a;
        Vec3 c;
        const bool ok = (intOf(first, id) || badField(f, first, false, true,
                                                      skel ? "bone id" : "vertex id", kind, 7)) &&
                        vec3(f, a, kPos, kind, 7) && vec3(f, c, skel ? kRot : kNrm, kind, 7);
        f.atEnd();
        noteTab(f.firstTab(), false);
        if (!ok) {
            continue;
        }
        extraFields(f, 7);
        const bool fast = !f.slow() && m_reports == reports;
        if (!skel) {
            m_stats.fastLines += fast ? 1 : 0;
            VertexFrame& vf = m_model.vertexFrames.back();
            vf.ids.push_back(id);
            vf.positions.push_back(a);
            vf.normals.push_back(c);
            vf.lineWhere.push_back(lineLoc());
            continue;
        }
        const JointIndex j = m_ids.find(id);
        if (j == kNoJoint) {
            frameDiag(error(ids::kSkeletonUnknownBoneInFrame, loc(first),
                            "frame " + numberText(m_frames.back().time) +
                                " animates undeclared bone id " + std::to_string(id),
                            {K::Frame, static_cast<std::int32_t>(m_frames.size() - 1)}));
            continue;
        }
        addPose(j, a, c);
        m_stats.fastLines += fast ? 1 : 0;
    }
    endsInside(b, opened,
               skel ? plural(m_frames.size(), "frame")
                    : plural(m_model.vertexFrames.size(), "shape"));
}

void SmdReader::beginFrame(RawFrame&& f)
{
    if (m_direct && !m_anim.times.empty() && !(f.time > m_anim.times.back())) {
        leaveDirect();
    }
    if (m_direct) {
        m_anim.appendFrame(f.time, f.where);
    }
    f.first = m_states.size();
    m_frames.push_back(std::move(f));
}

void SmdReader::addPose(JointIndex joint, const Vec3& position, const Vec3& rotation)
{
    if (m_direct && static_cast<std::size_t>(joint) >= m_anim.jointCount) {
        leaveDirect(); // a bone declared after the skeleton block began
    }
    if (m_direct) {
        const std::size_t k = m_anim.key(m_anim.frameCount() - 1, static_cast<std::size_t>(joint));
        m_anim.positions[k] = position;
        m_anim.rotations[k] = rotation;
        m_anim.explicitKey[k] = 1;
    } else {
        m_states.push_back({joint, position, rotation});
    }
    ++m_frames.back().count;
}

// The keys written so far become raw states (one per explicit key, in joint order within a
// frame: the same keys, and a frame's later line for a joint already won). Callers test
// m_direct.
void SmdReader::leaveDirect()
{
    m_direct = false;
    const std::size_t n = m_anim.jointCount;
    for (std::size_t f = 0; f < m_frames.size() && f < m_anim.frameCount(); ++f) {
        m_frames[f].first = m_states.size();
        m_frames[f].count = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t k = m_anim.key(f, j);
            if (m_anim.explicitKey[k]) {
                m_states.push_back(
                    {static_cast<JointIndex>(j), m_anim.positions[k], m_anim.rotations[k]});
                ++m_frames[f].count;
            }
        }
    }
    m_anim = Animation{};
}

// ---- triangles ------------------------------------------------------------------------------

// `parent x y z nx ny nz u v [count (bone weight)* [extra u v]*]` (v3: extra UV pairs).
bool SmdReader::parseCorner(Corner& c, std::uint32_t vertex)
{
    c.where = lineLoc();
    Fields f(m_sc.begin(), m_sc.end());
    std::int32_t parent = 0;
    const char* const parentAt = skipLineBlanks(m_sc.begin(), m_sc.end());
    if (!field(f, parent, "parent bone", "vertex", 9) || !vec3(f, c.position, kPos, "vertex", 9) ||
        !vec3(f, c.normal, kNrm, "vertex", 9) || !field(f, c.uv.x(), "u", "vertex", 9) ||
        !field(f, c.uv.y(), "v", "vertex", 9)) {
        return false;
    }
    c.joints.clear();
    c.weights.clear();
    c.jointAt.clear();
    c.extraUvs.clear();
    c.state = LinkState::Absent;
    std::size_t used = 9;
    std::int32_t links = 0;
    std::string_view tok;
    if (const Fields::Got got = f.number(links, tok); got != Fields::Got::Missing) {
        if (got == Fields::Got::Bad) {
            badNumber(tok, true, "link count");
            return false;
        }
        if (links < 0 || static_cast<std::size_t>(links) > kMaxLinks) {
            error(ids::kSyntaxBadNumber, loc(tok),
                  "expected int for link count, got '" + shownToken(tok) + "' (0.." +
                      std::to_string(kMaxLinks) + ")");
            return false;
        }
        used = 10 + 2 * static_cast<std::size_t>(links);
        for (std::int32_t l = 0; l < links; ++l) {
            std::int32_t bone = 0;
            float w = 0;
            std::string_view at;
            if (!field(f, bone, "link bone", "vertex", used, &at) ||
                !field(f, w, "link weight", "vertex", used)) {
                return false;
            }
            c.joints.push_back(bone); // source id for now, resolved below
            c.weights.push_back(w);
            c.jointAt.push_back(at.data());
        }
        c.state = LinkState::Zero;
    }
    f.atEnd(); // the rest of the line is known when nothing follows
    noteTab(f.firstTab(), links > 4);
    // Extra fields: v3 extra UV pairs (as far as the first 4096 fields), else ignored.
    if (m_model.version == 3 && c.state != LinkState::Absent) {
        while (used + 1 < std::min(f.total(), kMaxTokens)) {
            Vec2 uv;
            if (!field(f, uv.x(), "extra u", "vertex", 0) ||
                !field(f, uv.y(), "extra v", "vertex", 0)) {
                return false;
            }
            c.extraUvs.push_back(uv);
            used += 2;
        }
    }
    extraFields(f, used);
    c.slow = f.slow();
    // Resolve bones (after the whole line parsed, so a bad line reports only its syntax).
    const ElementRef ref{K::Vertex, static_cast<std::int32_t>(vertex)};
    c.parent = m_ids.find(parent);
    if (c.parent == kNoJoint) {
        error(ids::kWeightsUnknownBone, loc(parentAt),
              "vertex weighted to undeclared bone id " + std::to_string(parent), ref);
        c.parent = m_model.skeleton.empty() ? kNoJoint : 0;
    }
    std::size_t kept = 0;
    for (std::size_t l = 0; l < c.joints.size(); ++l) {
        const JointIndex j = m_ids.find(c.joints[l]);
        if (j == kNoJoint) {
            error(ids::kWeightsUnknownBone, loc(c.jointAt[l]),
                  "vertex weighted to undeclared bone id " + std::to_string(c.joints[l]), ref);
            continue;
        }
        c.joints[kept] = j;
        c.weights[kept] = c.weights[l];
        ++kept;
    }
    c.joints.resize(kept);
    c.weights.resize(kept);
    if (kept > 0) {
        c.state = LinkState::List;
    }
    return true;
}

void SmdReader::parseTriangles(SourceLoc opened)
{
    const char* const end = m_bytes.data() + m_bytes.size();
    // Shares are tried on the first triangles block only (-1: not read in shares).
    const int r = std::exchange(m_triedParallel, true) ? -1 : parallelTriangles(opened);
    if (r < 0) {
        reserveHeapForArrays(static_cast<std::size_t>(end - m_sc.position()) +
                             triangleArrayBytes(estimatedTriangles(m_sc.position(), end)));
        reserveFor(m_sc.position(), end);
    }
    if (r <= 0) {
        triangles(opened, end);
    }
}

// Reserves the mesh arrays for the triangles in [from, to): they then grow once, not by
// doubling, which cuts page faults, copies and the peak memory.
void SmdReader::reserveFor(const char* from, const char* to)
{
    reserveTriangles(m_model.mesh, estimatedTriangles(from, to));
}

// Reads triangles until the block ends (true) or, at a triangle's start, the position reaches
// `stopAt` (false). A share also stops (false) before a triangle that would report anything.
bool SmdReader::triangles(SourceLoc opened, const char* stopAt)
{
    Mesh& mesh = m_model.mesh;
    const char* const end = m_bytes.data() + m_bytes.size();
    for (;;) {
        if (stopAt != end && m_sc.position() >= stopAt) {
            return false;
        }
        const LineScanner atStart = m_sc;
        const SourceLoc tabs[2] = {m_tabAt, m_tabManyLinksAt};
        const std::size_t lastLength = m_lastLineLength;
        auto stop = [&] {
            m_sc = atStart;
            m_tabAt = tabs[0];
            m_tabManyLinksAt = tabs[1];
            m_lastLineLength = lastLength;
            return false;
        };
        if (!nextLine()) {
            if (m_share) {
                return stop();
            }
            endsInside(Block::Triangles, opened, plural(mesh.triangleCount(), "triangle"));
            return true;
        }
        const std::string_view material = trim(line());
        SourceLoc matAt = lineLoc();
        const auto recent =
            std::find_if(m_recent.begin(), m_recent.end(), [material](const auto& r) {
                return !r.first.empty() && r.first == material;
            });
        const bool same = recent != m_recent.end();
        if (same) {
        } else if (m_share && (material.empty() || material.starts_with("//") ||
                               equalsIgnoreCase(material, "end") ||
                               blockFromKeyword(material) != Block::None)) {
            return stop();
        } else if (material.empty()) {
            // A blank material line is an empty material when vertex lines follow.
            matAt = loc(m_sc.begin());
            LineScanner ahead = m_sc;
            if (!(ahead.next() && startsLikeVertex(ahead.begin(), ahead.end(), 9))) {
                if (!blankBeforeLastEnd()) {
                    blankOrComment(Block::Triangles);
                }
                continue;
            }
        } else if (material.starts_with("//")) {
            blankOrComment(Block::Triangles);
            continue;
        } else if (equalsIgnoreCase(material, "end")) {
            Fields f(m_sc.begin(), m_sc.end());
            isEndLine(f.next(), f, Block::Triangles);
            return true;
        } else if (blockFromKeyword(material) != Block::None) {
            missingEnd(Block::Triangles, opened, matAt);
            unread();
            return true;
        }
        // Three vertex lines.
        const std::size_t reports = m_reports;
        const auto t = static_cast<std::uint32_t>(mesh.triangleCount());
        const std::size_t mark = m_sink.diagnostics().size();
        std::size_t got = 0;
        bool dropped = false;
        while (got < 3) {
            if (!nextLine()) {
                clearVertexRefs(mark);
                truncated(eofLoc(),
                          "file ends after " + std::to_string(got) +
                              " of 3 vertex lines of triangle " + std::to_string(t) +
                              " (material line " + std::to_string(matAt.line) + "); no 'end'",
                          opened, blockName(Block::Triangles));
                return m_share ? stop() : true;
            }
            if (blankOrComment(Block::Triangles)) {
                if (m_share) {
                    return stop();
                }
                continue;
            }
            if (const char* p = skipLineBlanks(m_sc.begin(), m_sc.end()); (*p | 0x20) == 'e') {
                Fields f(m_sc.begin(), m_sc.end());
                if (isEndLine(f.next(), f, Block::Triangles)) {
                    if (m_share) {
                        return stop();
                    }
                    error(ids::kSyntaxShortLine, lineLoc(),
                          "triangle cut by 'end' after " + std::to_string(got) +
                              " of 3 vertex lines");
                    clearVertexRefs(mark);
                    return true;
                }
            }
            if (!parseCorner(m_corner[got], 3 * t + static_cast<std::uint32_t>(got))) {
                dropped = true;
                unread(); // re-read as the next material line
                break;
            }
            ++got;
        }
        if (m_stop ||
            (m_share && std::any_of(std::begin(m_corner), std::end(m_corner),
                                    [](const Corner& c) { return !c.extraUvs.empty(); }))) {
            return stop();
        }
        if (dropped) {
            clearVertexRefs(mark);
            continue;
        }
        const std::uint32_t mat = same ? recent->second : internMaterial(material, matAt);
        if (m_stop) {
            return stop();
        }
        if (!same) {
            m_recent[m_recentNext++ % m_recent.size()] = {material, mat};
        }
        appendTriangle(mat, matAt);
        const bool slow = m_corner[0].slow || m_corner[1].slow || m_corner[2].slow;
        m_stats.fastLines += !slow && m_reports == reports ? 4 : 0;
    }
}

void SmdReader::appendTriangle(std::uint32_t mat, SourceLoc matAt)
{
    Mesh& mesh = m_model.mesh;
    for (const Corner& c : m_corner) {
        const auto point = static_cast<std::uint32_t>(mesh.pointPositions.size());
        if (!c.extraUvs.empty()) {
            // Extra UV counts are kept from the first corner that has any (zeros before).
            m_extraCounts.resize(mesh.cornerCount(), 0);
            m_extraCounts.push_back(static_cast<std::uint32_t>(c.extraUvs.size()));
            m_extraRaw.insert(m_extraRaw.end(), c.extraUvs.begin(), c.extraUvs.end());
            m_maxExtra = std::max(m_maxExtra, static_cast<std::uint32_t>(c.extraUvs.size()));
        }
        appendPoint(mesh, c.position, c.parent, c.state, c.joints.data(), c.weights.data(),
                    c.joints.size(), c.where);
        mesh.cornerPoints.push_back(point);
        mesh.cornerNormals.push_back(c.normal);
        mesh.cornerUvs.push_back(c.uv);
        mesh.cornerWhere.push_back(c.where);
    }
    mesh.triangleMaterials.push_back(mat);
    mesh.triangleWhere.push_back(matAt);
}

std::uint32_t SmdReader::internMaterial(std::string_view name, SourceLoc at)
{
    Mesh& mesh = m_model.mesh;
    const std::size_t before = mesh.materials.size();
    if (m_share && !nameIssue(name).empty()) {
        m_stop = true; // reading in order warns
        return 0;
    }
    const std::uint32_t mat = m_materials.intern(mesh, name, at);
    if (mesh.materials.size() != before) {
        checkName(name, at, {K::Material, static_cast<std::int32_t>(mat)});
    }
    return mat;
}

// Large triangles blocks: the rest of the file is cut into shares at guessed triangle starts;
// the first is read here straight into the model while the others are read on threads into
// their own meshes. Shares are spliced in file order for as long as each one ended exactly
// where the next began (which proves the next one's start); at the first that did not, reading
// in order goes on from where the kept text ends. So the model, locations and diagnostics are
// exactly those of reading in order. -1: not cut in shares; 1: the block ended in the first
// share; 0: reading in order goes on.
int SmdReader::parallelTriangles(SourceLoc opened)
{
    const char* const end = m_bytes.data() + m_bytes.size();
    const char* const start = m_sc.position();
    const auto rest = static_cast<std::size_t>(end - start);
    const std::size_t count = shareCount(m_ctx.threads, m_ctx.parallelMinBytes, rest);
    if (count < 2) {
        return -1;
    }
    std::vector<const char*> starts{start};
    for (std::size_t k = 1; k < count; ++k) {
        const char* s = guessTriangleStart(start + k * (rest / count), end);
        if (s && s > starts.back()) {
            starts.push_back(s);
        }
    }
    if (starts.size() < 2) {
        return -1;
    }
    struct Share {
        std::unique_ptr<SmdReader> reader;
        bool failed = false;
    };
    // Sizes from the file: the model's arrays for the whole block and each share's for its
    // text, reserved here, before the threads start, from one region of the heap; with room as
    // large as the text for what follows the read (the weld's and the checks' tables).
    std::size_t arrays = rest + triangleArrayBytes(estimatedTriangles(start, end));
    for (std::size_t k = 1; k < starts.size(); ++k) {
        arrays += triangleArrayBytes(
            estimatedTriangles(starts[k], k + 1 < starts.size() ? starts[k + 1] : end));
    }
    reserveHeapForArrays(arrays);
    reserveFor(start, end);
    std::vector<Share> shares(starts.size() - 1);
    for (std::size_t k = 0; k < shares.size(); ++k) {
        shares[k].reader = std::make_unique<SmdReader>(*this, starts[k + 1],
                                                       k + 2 < starts.size() ? starts[k + 2] : end);
        try {
            shares[k].reader->reserveFor(starts[k + 1], shares[k].reader->m_shareStop);
        } catch (...) {
            shares[k].failed = true; // out of memory: read in order instead
        }
    }
    bool ended = false;
    const int kept = readInShares(
        shares,
        [](Share& sh) {
            SmdReader& r = *sh.reader;
            if (!sh.failed) {
                r.triangles({}, r.m_shareStop);
            }
        },
        [&] {
            ended = triangles(opened, starts[1]);
            return !ended;
        },
        [&](Share& sh) {
            if (m_sc.position() != sh.reader->m_shareBegin) {
                return false;
            }
            if (&sh == &shares.front()) { // room for every share at once
                std::size_t tris = 0;
                for (const Share& x : shares) {
                    tris += x.failed ? 0 : x.reader->m_model.mesh.triangleCount();
                }
                reserveTriangles(m_model.mesh, tris);
            }
            splice(*sh.reader);
            return true;
        });
    m_stats.parallelShares = static_cast<std::uint32_t>(std::max(kept, 0));
    return ended ? 1 : 0;
}

void SmdReader::splice(SmdReader& sh)
{
    const std::uint32_t lineBase = m_sc.lineNumber();
    const std::uint32_t lines = sh.m_sc.lineNumber();
    if (lines == 0) {
        return;
    }
    Mesh& m = m_model.mesh;
    Mesh& t = sh.m_model.mesh;
    auto relocate = [lineBase](SourceLoc w) {
        w.line += lineBase;
        return w;
    };
    // Materials in the order the share first used them: the indices reading in order gives.
    std::vector<std::uint32_t> remap(t.materials.size());
    for (std::size_t i = 0; i < t.materials.size(); ++i) {
        remap[i] = internMaterial(t.materials[i].name, relocate(t.materials[i].where));
    }
    const auto pointBase = static_cast<std::uint32_t>(m.pointPositions.size());
    const auto linkBase = static_cast<std::uint32_t>(m.influenceJoints.size());
    moveAppend(m.pointPositions, t.pointPositions);
    moveAppend(m.pointParents, t.pointParents);
    moveAppend(m.pointLinkState, t.pointLinkState);
    moveAppend(m.pointWhere, t.pointWhere, relocate);
    if (m.influenceOffsets.empty()) {
        m.influenceOffsets.push_back(0);
    }
    if (!t.influenceOffsets.empty()) {
        t.influenceOffsets.erase(t.influenceOffsets.begin()); // its leading 0
    }
    moveAppend(m.influenceOffsets, t.influenceOffsets,
               [linkBase](std::uint32_t o) { return o + linkBase; });
    moveAppend(m.influenceJoints, t.influenceJoints);
    moveAppend(m.influenceWeights, t.influenceWeights);
    moveAppend(m.cornerPoints, t.cornerPoints,
               [pointBase](std::uint32_t p) { return p + pointBase; });
    moveAppend(m.cornerNormals, t.cornerNormals);
    moveAppend(m.cornerUvs, t.cornerUvs);
    moveAppend(m.cornerWhere, t.cornerWhere, relocate);
    moveAppend(m.triangleMaterials, t.triangleMaterials,
               [&remap](std::uint32_t i) { return remap[i]; });
    moveAppend(m.triangleWhere, t.triangleWhere, relocate);
    if (m_tabAt.line == 0 && sh.m_tabAt.line != 0) {
        m_tabAt = relocate(sh.m_tabAt);
    }
    if (m_tabManyLinksAt.line == 0 && sh.m_tabManyLinksAt.line != 0) {
        m_tabManyLinksAt = relocate(sh.m_tabManyLinksAt);
    }
    m_sc.skipTo(sh.m_sc.position(), lineBase + lines, sh.m_sc.lfCount(), sh.m_sc.crlfCount(),
                sh.m_sc.crCount());
    m_lastLine = lineBase + lines;
    m_lastLineLength = sh.m_lastLineLength;
    m_lastWasEnd = false;
    m_recent = {};
    m_stats.fastLines += sh.m_stats.fastLines;
}

// ---- build ----------------------------------------------------------------------------------

void SmdReader::buildSkeleton()
{
    Skeleton& s = m_model.skeleton;
    for (std::size_t j = 0; j < s.size(); ++j) {
        const std::int32_t p = m_rawParents[j];
        if (p == -1) {
            continue;
        }
        const JointIndex pj = m_ids.find(p);
        if (pj == kNoJoint) {
            defer(error(ids::kSkeletonUnknownParent, m_parentTokAt[j],
                        "parent " + std::to_string(p) + " of bone '" + shownToken(s.names[j]) +
                            "' is not declared",
                        {K::Joint, static_cast<std::int32_t>(j)}),
                  Deferred::UnknownParent);
            continue;
        }
        s.parents[j] = pj;
    }
}

void SmdReader::buildAnimation()
{
    if (!has(Block::Skeleton)) {
        return;
    }
    if (m_direct && m_anim.jointCount != m_model.skeleton.size()) {
        leaveDirect(); // bones were declared after the skeleton block
    }
    // m_direct: times strictly increased, so nothing to sort, merge or report, and raw frame i
    // is frame i (so diagnostics' frame indices stand).
    Animation& a = m_model.animations.emplace_back(m_direct ? std::move(m_anim) : Animation{});
    a.name = fileStem(m_ctx.fileName);
    if (m_direct) {
        return;
    }
    a.jointCount = m_model.skeleton.size();
    const std::size_t nf = m_frames.size();
    a.positions.reserve(nf * a.jointCount);
    a.rotations.reserve(nf * a.jointCount);
    a.explicitKey.reserve(nf * a.jointCount);
    for (std::size_t i = 1; i < nf; ++i) {
        const double t = m_frames[i].time;
        const double prev = m_frames[i - 1].time;
        if (!(t < prev)) {
            continue;
        }
        const ElementRef ref{K::Frame, static_cast<std::int32_t>(i)};
        if (t < m_frames.front().time) {
            frameDiag(error(ids::kSkeletonTimeOrder, m_frames[i].where,
                            "time " + numberText(t) + " precedes the first frame " +
                                numberText(m_frames.front().time),
                            ref));
        } else {
            frameDiag(fixed(Severity::Warning, ids::kSkeletonTimeOrder, m_frames[i].where,
                            "time " + numberText(t) + " follows time " + numberText(prev) +
                                "; frames sorted by time",
                            ref));
        }
    }
    std::vector<std::size_t> order(nf);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
        return m_frames[x].time < m_frames[y].time;
    });
    std::vector<std::int32_t> rawToFrame(nf, 0);
    for (std::size_t o : order) {
        const RawFrame& f = m_frames[o];
        if (!a.times.empty() && a.times.back() == f.time) {
            frameDiag(warning(ids::kSkeletonDuplicateFrame, f.where,
                              "time " + numberText(f.time) +
                                  " repeated; studiomdl merges, BST adds a frame",
                              {K::Frame, static_cast<std::int32_t>(o)}));
        } else {
            a.appendFrame(f.time, f.where);
        }
        const std::size_t frame = a.times.size() - 1;
        rawToFrame[o] = static_cast<std::int32_t>(frame);
        for (std::size_t i = f.first; i < f.first + f.count; ++i) {
            const RawState& st = m_states[i];
            const std::size_t k = a.key(frame, static_cast<std::size_t>(st.joint));
            a.positions[k] = st.position;
            a.rotations[k] = st.rotation;
            a.explicitKey[k] = 1;
        }
    }
    auto& diags = m_sink.diagnostics();
    for (std::size_t di : m_frameDiags) {
        Diagnostic& d = diags[di];
        if (d.element.kind == K::Frame && d.element.index >= 0 &&
            static_cast<std::size_t>(d.element.index) < nf) {
            d.element.index = rawToFrame[static_cast<std::size_t>(d.element.index)];
        }
    }
}

void SmdReader::buildExtraUvs()
{
    Mesh& mesh = m_model.mesh;
    if (m_maxExtra == 0) {
        return;
    }
    m_extraCounts.resize(mesh.cornerCount(), 0);
    mesh.uvSetCount = m_maxExtra + 1;
    mesh.cornerExtraUvs.assign(mesh.cornerCount() * m_maxExtra, Vec2::Zero());
    std::size_t src = 0;
    for (std::size_t c = 0; c < m_extraCounts.size(); ++c) {
        for (std::uint32_t i = 0; i < m_extraCounts[c]; ++i) {
            mesh.cornerExtraUvs[c * m_maxExtra + i] = m_extraRaw[src++];
        }
    }
}

void SmdReader::buildVertexFrames()
{
    auto& frames = m_model.vertexFrames;
    // Names: the vertexanimation comment, else the skeleton comment at the same time.
    for (VertexFrame& f : frames) {
        if (f.nameFromComment) {
            continue;
        }
        for (const RawFrame& rf : m_frames) {
            if (rf.hasComment && rf.time == f.time) {
                f.name = rf.comment;
                f.nameFromComment = true;
                break;
            }
        }
    }
    checkVertexFrameIds(frames, [this](std::string_view id, SourceLoc where, std::string message,
                                       ElementRef e) { error(id, where, std::move(message), e); });
}

void SmdReader::build()
{
    buildSkeleton();
    buildAnimation();
    buildExtraUvs();
    buildVertexFrames();
    Model& m = m_model;
    m.kind = has(Block::VertexAnimation) ? ModelKind::Flex
             : has(Block::Triangles)     ? ModelKind::Reference
                                         : ModelKind::Animation;
    if (has(Block::VertexAnimation)) {
        if (has(Block::Triangles)) {
            fixed(Severity::Warning, ids::kFlexHasTriangles, openedAt(Block::Triangles),
                  "a 'triangles' block inside a vertex animation file");
        }
        if (has(Block::Skeleton) && !m.animations.empty() &&
            m.animations.front().frameCount() != m.vertexFrames.size()) {
            fixed(Severity::Warning, ids::kFlexFrameCountMismatch, openedAt(Block::VertexAnimation),
                  "skeleton has " + std::to_string(m.animations.front().frameCount()) +
                      " frames, vertexanimation " + std::to_string(m.vertexFrames.size()));
        }
    }
    m.format =
        has(Block::VertexAnimation) || asciiIEndsWith(m_ctx.fileName, ".vta") ? "vta" : "smd";
    orderSkeleton(m, m_sink);
    bindFromFirstFrame(m);
    deriveFlexShapes(m);
    gradeByProfile();
}

void SmdReader::gradeByProfile()
{
    const Profile p = resolveProfile(m_model, m_ctx.profile);
    const std::string pname(profileName(p));
    auto& diags = m_sink.diagnostics();
    for (const auto& [i, what] : m_deferred) {
        Diagnostic& d = diags[i];
        switch (what) {
        case Deferred::BlockKeywordCase:
            if (!goldSrcStudiomdl(p)) {
                d.severity = Severity::Note;
                d.fixedSeverity = true;
            }
            [[fallthrough]];
        case Deferred::KeywordCase:
            d.message += " for " + pname;
            break;
        case Deferred::TopLevelComment:
            if (goldSrcStudiomdl(p)) {
                d.severity = Severity::Warning;
                d.fixedSeverity = true;
            }
            break;
        case Deferred::UnknownParent:
            // HL1 studiomdl.c SimplifyModel (and vbmcompiler's CreateBoneTable) keep only the
            // bones vertices use (and their parents); a reference with an empty 'triangles'
            // block (a null model) gives none, so the broken parent reaches nothing
            // (tschumann/basis null.mdl: 0 bones).
            if (goldSrcFamily(p) && has(Block::Triangles) && m_model.mesh.triangleCount() == 0) {
                d.severity = Severity::Note;
                d.fixedSeverity = true;
                d.message += "; " + pname + " keeps no bone of a file without triangles";
            }
            break;
        }
    }
    // Version (CHECKS.md §3 "File version").
    const int v = m_model.version;
    const std::string accepts =
        pname + " accepts " + (goldSrcStudiomdl(p) || p == Profile::Cod ? "1" : "1-2");
    if (!m_sawVersion) {
        error(ids::kSyntaxBadVersion, {1, 1, 0}, "version missing; " + accepts);
    } else if (v != 1) {
        if (p == Profile::Source && v == 2) {
            fixed(Severity::Warning, ids::kSyntaxBadVersion, m_versionTokAt,
                  "version 2; source accepts 1 (version 2 is accepted by SDK 2013 only)");
        } else if (!(p == Profile::Source256 && v == 2)) {
            error(ids::kSyntaxBadVersion, m_versionTokAt,
                  "version " + std::to_string(v) + "; " + accepts);
        }
    }
    // Tabs: once per file.
    if (m_tabManyLinksAt.line != 0 && (p == Profile::Source || p == Profile::Source256)) {
        fixed(Severity::Warning, ids::kSyntaxTabInFile, m_tabManyLinksAt,
              "tabs; studiomdl splits > 4 links on spaces only");
    } else if (m_tabAt.line != 0) {
        note(ids::kSyntaxTabInFile, m_tabAt, "tabs; studiomdl splits > 4 links on spaces only");
    }
    // Line endings (all per-case severities).
    const std::uint64_t lf = m_sc.lfCount(), crlf = m_sc.crlfCount(), cr = m_sc.crCount();
    if (cr > 0) {
        fixed(Severity::Error, ids::kSyntaxLineEnding, {1, 1, 0},
              "bare CR line endings: fgets sees one line");
    } else if (lf > 0 && crlf > 0) {
        fixed(Severity::Warning, ids::kSyntaxLineEnding, {1, 1, 0},
              "mixed line endings (" + std::to_string(lf) + " LF, " + std::to_string(crlf) +
                  " CRLF)");
    }
    if (m_bytes.back() != '\n' && m_bytes.back() != '\r' && m_lastWasEnd) {
        fixed(Severity::Note, ids::kSyntaxLineEnding, {1, 1, 0}, "no newline after the last 'end'");
    }
    m_model.lineEnding = crlf > lf && crlf >= cr ? LineEnding::CRLF
                         : cr > lf && cr > crlf  ? LineEnding::CR
                                                 : LineEnding::LF;
}

} // namespace

int sniffSmd(std::string_view head) noexcept
{
    LineScanner sc(head);
    while (sc.next()) {
        const std::string_view t = trim(sc.line());
        if (!t.empty() && !isFullLineComment(t)) {
            const std::string_view kw = t.substr(0, t.find_first_of(" \t\f\v"));
            return equalsIgnoreCase(kw, "version") || equalsIgnoreCase(kw, "nodes") ? 90 : 0;
        }
    }
    return 0;
}

ReadResult readSmd(std::string_view bytes, const ReadContext& ctx)
{
    return std::make_unique<SmdReader>(bytes, ctx)->run();
}

} // namespace rigscope::core
