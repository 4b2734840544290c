// Valve SMD / VTA reader (FORMATS.md §1). One pass over the lines with a reusable token array
// (no per-token allocation), then a build step that resolves parents, sorts and densifies the
// skeleton frames, and grades the profile-dependent syntax diagnostics.
#pragma once
// TEMPORARY: the SMD reader before issue 16 (fast path + general path), kept only for the
// differential test that compares it with the one-grammar reader. Deleted once that is green.
#include "core/formats/smd/smd_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/build/model_builder.h"
#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/io/file_buffer.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"
#include "core/text/text_cursor.h"

namespace rigscope::core {

namespace oldsmd {

using K = ElementRef::Kind;

constexpr std::size_t kMaxTokens = 4096; // tokens kept per line; the rest are counted
constexpr std::size_t kMaxLinks = (kMaxTokens - 10) / 2;
constexpr std::size_t kMaxPerId = 10000;    // reader diagnostics per id, then a summary
constexpr std::size_t kDenseIds = 1u << 16; // ids below this use a flat table

enum class Block : std::uint8_t { None, Nodes, Skeleton, Triangles, VertexAnimation };

std::string_view blockName(Block b) noexcept
{
    switch (b) {
    case Block::Nodes:
        return "nodes";
    case Block::Skeleton:
        return "skeleton";
    case Block::Triangles:
        return "triangles";
    case Block::VertexAnimation:
        return "vertexanimation";
    case Block::None:
        break;
    }
    return "";
}

Block blockFromKeyword(std::string_view tok) noexcept
{
    if (equalsIgnoreCase(tok, "nodes")) {
        return Block::Nodes;
    }
    if (equalsIgnoreCase(tok, "skeleton")) {
        return Block::Skeleton;
    }
    if (equalsIgnoreCase(tok, "triangles")) {
        return Block::Triangles;
    }
    if (equalsIgnoreCase(tok, "vertexanimation")) {
        return Block::VertexAnimation;
    }
    return Block::None;
}

// Character classes for the tokenizer: 0 token, 1 blank, 2 '#' or ';', 3 '/', 4 '"'.
struct CharClasses {
    std::array<std::uint8_t, 256> c{};
    constexpr CharClasses()
    {
        c[static_cast<unsigned char>(' ')] = 1;
        c[static_cast<unsigned char>('\t')] = 1;
        c[static_cast<unsigned char>('\f')] = 1;
        c[static_cast<unsigned char>('\v')] = 1;
        c[static_cast<unsigned char>('#')] = 2;
        c[static_cast<unsigned char>(';')] = 2;
        c[static_cast<unsigned char>('/')] = 3;
        c[static_cast<unsigned char>('"')] = 4;
    }
};
constexpr CharClasses kClasses;

inline std::uint8_t cls(char ch) noexcept
{
    return kClasses.c[static_cast<unsigned char>(ch)];
}

// A token for messages: long tokens are cut so hostile input cannot blow up a message.
// Control bytes print as '?'.
std::string shown(std::string_view tok)
{
    const bool cut = tok.size() > 40;
    std::string out(cut ? tok.substr(0, 40) : tok);
    for (char& ch : out) {
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) {
            ch = '?';
        }
    }
    if (cut) {
        out += "...";
    }
    return out;
}

std::string numberText(double v)
{
    std::string s;
    appendNumber(s, v);
    return s;
}

// What is wrong with a bone / material / shape name, or "" when nothing: bytes >= 0x80 (invalid
// UTF-8 included) or control bytes such as NUL, which studiomdl's C strings cut at.
std::string_view nameIssue(std::string_view s) noexcept
{
    bool high = false, control = false;
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        high = high || c >= 0x80;
        control = control || (c < 0x20 && c != 0x09) || c == 0x7F;
    }
    if (s.find('\0') != std::string_view::npos) {
        return "a NUL byte";
    }
    return control ? "control characters" : high ? "non-ASCII characters" : "";
}

bool isFullLineComment(std::string_view trimmed) noexcept
{
    return !trimmed.empty() &&
           (trimmed.front() == '#' || trimmed.front() == ';' || trimmed.starts_with("//"));
}

std::string fileStem(std::string_view fileName)
{
    const std::size_t slash = fileName.find_last_of("/\\");
    if (slash != std::string_view::npos) {
        fileName.remove_prefix(slash + 1);
    }
    const std::size_t dot = fileName.rfind('.');
    if (dot != std::string_view::npos && dot > 0) {
        fileName = fileName.substr(0, dot);
    }
    return std::string(fileName);
}

bool hasVtaExtension(std::string_view fileName) noexcept
{
    return fileName.size() >= 4 && equalsIgnoreCase(fileName.substr(fileName.size() - 4), ".vta");
}

// Source id -> file-order joint index: a flat table for small ids, a hash map for the rest.
class IdMap {
public:
    void set(std::int32_t id, JointIndex j)
    {
        if (id >= 0 && static_cast<std::uint32_t>(id) < kDenseIds) {
            const auto u = static_cast<std::size_t>(id);
            if (u >= m_dense.size()) {
                m_dense.resize(u + 1, kNoJoint);
            }
            m_dense[u] = j;
        } else {
            m_sparse[id] = j;
        }
    }
    JointIndex find(std::int32_t id) const noexcept
    {
        if (id >= 0 && static_cast<std::uint32_t>(id) < kDenseIds) {
            const auto u = static_cast<std::size_t>(id);
            return u < m_dense.size() ? m_dense[u] : kNoJoint;
        }
        auto it = m_sparse.find(id);
        return it == m_sparse.end() ? kNoJoint : it->second;
    }

private:
    std::vector<JointIndex> m_dense;
    std::unordered_map<std::int32_t, JointIndex> m_sparse;
};

// ---- fast path ------------------------------------------------------------------------------
// Regular triangles (a material line and three vertex lines of plain numbers, every bone
// declared, nothing else on the line) are read straight from the bytes: no token array, no
// diagnostics possible. Anything else stops the fast path before that triangle, and the general
// path reads it and reports what is wrong, so both paths give the same model and diagnostics.

constexpr std::uint32_t kFastLinks = 32; // links a fast vertex line may carry

struct FastCorner {
    JointIndex parent = kNoJoint;
    Vec3 position;
    Vec3 normal;
    Vec2 uv;
    LinkState state = LinkState::Absent;
    std::uint32_t links = 0;
    std::array<JointIndex, kFastLinks> joints;
    std::array<float, kFastLinks> weights;
    std::uint32_t column = 1;      // first non-blank, 1-based
    const char* firstTab = nullptr;
};

inline bool isSpaceOrTab(char c) noexcept
{
    return c == ' ' || c == '\t';
}

// `parent x y z nx ny nz u v [count (bone weight)*]` over [p, e) (no line terminator).
bool fastVertexLine(const char* p, const char* const e, const IdMap& ids, FastCorner& c) noexcept
{
    const char* const b = p;
    c.firstTab = nullptr;
    auto skip = [&] {
        while (p != e && isSpaceOrTab(*p)) {
            if (*p == '\t' && !c.firstTab) {
                c.firstTab = p;
            }
            ++p;
        }
    };
    // A blank must separate the number just read from the next one.
    auto gap = [&]() noexcept {
        if (p == e || !isSpaceOrTab(*p)) {
            return false;
        }
        skip();
        return true;
    };
    skip();
    c.column = static_cast<std::uint32_t>(p - b) + 1;
    std::int32_t parent = 0;
    const char* q = scanInt(p, e, parent);
    if (!q) {
        return false;
    }
    p = q;
    float v[8];
    for (float& x : v) {
        if (!gap() || !(q = scanFloat(p, e, x))) {
            return false;
        }
        p = q;
    }
    if (p != e && !isSpaceOrTab(*p)) {
        return false;
    }
    skip();
    std::int32_t n = 0;
    if (p == e) {
        c.state = LinkState::Absent;
    } else {
        if (!(q = scanInt(p, e, n)) || n < 0 || n > static_cast<std::int32_t>(kFastLinks)) {
            return false;
        }
        p = q;
        for (std::int32_t i = 0; i < n; ++i) {
            std::int32_t bone = 0;
            if (!gap() || !(q = scanInt(p, e, bone))) {
                return false;
            }
            p = q;
            if (!gap() || !(q = scanFloat(p, e, c.weights[static_cast<std::size_t>(i)]))) {
                return false;
            }
            p = q;
            const JointIndex j = ids.find(bone);
            if (j == kNoJoint) {
                return false;
            }
            c.joints[static_cast<std::size_t>(i)] = j;
        }
        if (p != e && !isSpaceOrTab(*p)) {
            return false;
        }
        skip();
        if (p != e) {
            return false; // extra fields or a comment
        }
        c.state = n > 0 ? LinkState::List : LinkState::Zero;
    }
    c.parent = ids.find(parent);
    if (c.parent == kNoJoint) {
        return false;
    }
    c.links = static_cast<std::uint32_t>(n);
    c.position = Vec3(v[0], v[1], v[2]);
    c.normal = Vec3(v[3], v[4], v[5]);
    c.uv = Vec2(v[6], v[7]);
    return true;
}

// One '\n'-terminated line at p: [ls, le) without its terminator; p moves past it.
inline bool takeLine(const char*& p, const char* end, const char*& ls, const char*& le,
                     bool& crlf) noexcept
{
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) {
        return false;
    }
    ls = p;
    le = static_cast<const char*>(nl);
    p = le + 1;
    crlf = le != ls && le[-1] == '\r';
    if (crlf) {
        --le;
    }
    return true;
}

struct FastRun {
    const char* end = nullptr;   // where it stopped: the start of the first triangle not taken
    std::uint32_t lines = 0;
    std::uint64_t crlf = 0;
    std::size_t triangles = 0;
    std::size_t lastLineLength = 0;
    SourceLoc tabAt;             // first tab, and first tab on a line of more than 4 links
    SourceLoc tabManyLinksAt;
};

// Appends the regular triangles from p (a line start, line number `firstLine`) to `mesh`, until
// one is not regular or p reaches `stopAt`. `intern(name, where)` gives a material's index.
template <class Intern>
FastRun fastTriangles(const char* p, const char* const end, const char* const stopAt,
                      const char* const base, std::uint32_t firstLine, const IdMap& ids,
                      Mesh& mesh, Intern&& intern)
{
    FastRun r;
    FastCorner c[3];
    const char* vs[3] = {};
    std::string_view lastMaterial;
    std::uint32_t lastIndex = 0;
    bool haveLast = false;
    while (p < stopAt) {
        const char* q = p;
        const char* ms = nullptr;
        const char* me = nullptr;
        bool crlf = false;
        if (!takeLine(q, end, ms, me, crlf)) {
            break;
        }
        const std::string_view line(ms, static_cast<std::size_t>(me - ms));
        const std::string_view material = trim(line);
        if (line.find('\r') != std::string_view::npos) {
            break; // a bare CR splits the line for the text cursor
        }
        const bool same = haveLast && material == lastMaterial;
        if (!same && (material.empty() || material.starts_with("//") ||
                      equalsIgnoreCase(material, "end") ||
                      blockFromKeyword(material) != Block::None)) {
            break;
        }
        std::uint64_t crlfs = crlf ? 1 : 0;
        bool ok = true;
        std::size_t lastLength = 0;
        for (int k = 0; k < 3 && ok; ++k) {
            const char* ls = nullptr;
            const char* le = nullptr;
            bool cr = false;
            ok = takeLine(q, end, ls, le, cr) && fastVertexLine(ls, le, ids, c[k]);
            vs[k] = ls;
            crlfs += cr ? 1 : 0;
            lastLength = static_cast<std::size_t>(le - ls);
        }
        if (!ok) {
            break;
        }
        const std::uint32_t line0 = firstLine + r.lines;
        const auto col = static_cast<std::uint32_t>(material.data() - ms);
        const SourceLoc matAt{line0, col + 1, static_cast<std::uint64_t>(ms - base) + col};
        const std::uint32_t mat = same ? lastIndex : intern(material, matAt);
        lastMaterial = material;
        lastIndex = mat;
        haveLast = true;
        for (int k = 0; k < 3; ++k) {
            const FastCorner& v = c[k];
            const std::uint32_t ln = line0 + 1 + static_cast<std::uint32_t>(k);
            const auto lineStart = static_cast<std::uint64_t>(vs[k] - base);
            const SourceLoc at{ln, v.column, lineStart + v.column - 1};
            const auto point = static_cast<std::uint32_t>(mesh.pointPositions.size());
            appendPoint(mesh, v.position, v.parent, v.state, v.joints.data(), v.weights.data(),
                        v.links, at);
            mesh.cornerPoints.push_back(point);
            mesh.cornerNormals.push_back(v.normal);
            mesh.cornerUvs.push_back(v.uv);
            mesh.cornerWhere.push_back(at);
            if (v.firstTab) {
                const auto tc = static_cast<std::uint32_t>(v.firstTab - vs[k]);
                const SourceLoc tab{ln, tc + 1, lineStart + tc};
                if (r.tabAt.line == 0) {
                    r.tabAt = tab;
                }
                if (v.links > 4 && r.tabManyLinksAt.line == 0) {
                    r.tabManyLinksAt = tab;
                }
            }
        }
        mesh.triangleMaterials.push_back(mat);
        mesh.triangleWhere.push_back(matAt);
        r.lines += 4;
        r.crlf += crlfs;
        r.lastLineLength = lastLength;
        ++r.triangles;
        p = q;
    }
    r.end = p;
    return r;
}

// Regular skeleton lines: `time N` (integer N, nothing else) and `id x y z rx ry rz` of a
// declared bone inside a frame. Stops before the first other line.
// `frame(time, where)` starts a frame; `pose(joint, position, rotation)` adds a key to it.
template <class OnFrame, class OnPose>
FastRun fastSkeleton(const char* p, const char* const end, const char* const base,
                     std::uint32_t firstLine, const IdMap& ids, bool& inFrame, OnFrame&& frame,
                     OnPose&& pose)
{
    FastRun r;
    for (;;) {
        const char* q = p;
        const char* ls = nullptr;
        const char* le = nullptr;
        bool crlf = false;
        if (!takeLine(q, end, ls, le, crlf)) {
            break;
        }
        const char* c = ls;
        const char* tab = nullptr;
        while (c != le && isSpaceOrTab(*c)) {
            tab = (*c == '\t' && !tab) ? c : tab;
            ++c;
        }
        const auto column = static_cast<std::uint32_t>(c - ls);
        const std::uint32_t line = firstLine + r.lines;
        const auto lineStart = static_cast<std::uint64_t>(ls - base);
        auto blanksToEnd = [&](const char* x) {
            while (x != le && isSpaceOrTab(*x)) {
                tab = (*x == '\t' && !tab) ? x : tab;
                ++x;
            }
            return x == le;
        };
        if (le - c > 5 && std::memcmp(c, "time", 4) == 0 && isSpaceOrTab(c[4])) {
            const char* x = c + 4;
            while (x != le && isSpaceOrTab(*x)) {
                tab = (*x == '\t' && !tab) ? x : tab;
                ++x;
            }
            std::int32_t t = 0;
            const char* y = x != le && *x != '-' ? scanInt(x, le, t) : nullptr; // keeps "-0"
            if (!y || !blanksToEnd(y)) {
                break;
            }
            frame(static_cast<double>(t), SourceLoc{line, column + 1, lineStart + column});
            inFrame = true;
        } else {
            if (!inFrame) {
                break;
            }
            std::int32_t id = 0;
            const char* x = scanInt(c, le, id);
            float v[6];
            bool ok = x != nullptr;
            for (int k = 0; k < 6 && ok; ++k) {
                ok = x != le && isSpaceOrTab(*x);
                while (ok && x != le && isSpaceOrTab(*x)) {
                    tab = (*x == '\t' && !tab) ? x : tab;
                    ++x;
                }
                ok = ok && (x = scanFloat(x, le, v[k])) != nullptr;
            }
            if (!ok || (x != le && !isSpaceOrTab(*x)) || !blanksToEnd(x)) {
                break;
            }
            const JointIndex j = ids.find(id);
            if (j == kNoJoint) {
                break;
            }
            pose(j, Vec3(v[0], v[1], v[2]), Vec3(v[3], v[4], v[5]));
        }
        if (tab && r.tabAt.line == 0) {
            const auto tc = static_cast<std::uint32_t>(tab - ls);
            r.tabAt = {line, tc + 1, lineStart + tc};
        }
        r.lines += 1;
        r.crlf += crlf ? 1 : 0;
        r.lastLineLength = static_cast<std::size_t>(le - ls);
        p = q;
    }
    r.end = p;
    return r;
}

// Whether [p, e) starts like a vertex line: an integer, a blank, a number.
bool looksLikeVertexLine(const char* p, const char* e) noexcept
{
    while (p != e && isSpaceOrTab(*p)) {
        ++p;
    }
    std::int32_t i = 0;
    float f = 0;
    const char* q = scanInt(p, e, i);
    if (!q || q == e || !isSpaceOrTab(*q)) {
        return false;
    }
    while (q != e && isSpaceOrTab(*q)) {
        ++q;
    }
    return q != e && scanFloat(q, e, f) != nullptr;
}

// A guess at the first triangle starting at a line after p: a line that does not look like a
// vertex line followed by three that do. Only a guess: a share starting here is kept only when
// the share before it ended exactly here, which proves the guess.
const char* guessTriangleStart(const char* p, const char* end) noexcept
{
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) {
        return nullptr;
    }
    p = static_cast<const char*>(nl) + 1;
    constexpr int kLook = 12;
    const char* starts[kLook] = {};
    bool vertex[kLook] = {};
    int n = 0;
    for (const char* q = p; n < kLook;) {
        const char* at = q;
        const char* ls = nullptr;
        const char* le = nullptr;
        bool cr = false;
        if (!takeLine(q, end, ls, le, cr)) {
            break;
        }
        starts[n] = at;
        vertex[n] = looksLikeVertexLine(ls, le);
        ++n;
    }
    for (int i = 0; i + 3 < n; ++i) {
        if (!vertex[i] && vertex[i + 1] && vertex[i + 2] && vertex[i + 3]) {
            return starts[i];
        }
    }
    return nullptr;
}

// A share of a triangles block read on a worker thread into its own mesh. Its line numbers
// count from 1 at the share's first line; offsets are the file's.
struct Share {
    const char* begin = nullptr;
    const char* stop = nullptr;
    Mesh mesh;
    MaterialInterner materials;
    FastRun run;
    bool failed = false;
};

// Appends `src` to `dst` and frees `src` at once, so splicing shares never holds two copies of
// more than one array.
template <class T, class F> void moveAppend(std::vector<T>& dst, std::vector<T>& src, F&& fix)
{
    for (const T& v : src) {
        dst.push_back(fix(v));
    }
    std::vector<T>().swap(src);
}
template <class T> void moveAppend(std::vector<T>& dst, std::vector<T>& src)
{
    dst.insert(dst.end(), src.begin(), src.end());
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
    std::vector<Vec2> extraUvs;
    SourceLoc where;
};

// Diagnostics whose severity or presence depends on the profile, graded after the build.
enum class Deferred : std::uint8_t { KeywordCase, BlockKeywordCase, TopLevelComment };

class SmdReader {
public:
    SmdReader(std::string_view bytes, const ReadContext& ctx)
        : m_bytes(bytes), m_ctx(ctx), m_cur(bytes), m_sink(ctx.fileName), m_tok(kMaxTokens),
          m_direct(ctx.fastPaths)
    {
    }

    ReadResult run();

private:
    // ---- diagnostics --------------------------------------------------------------------
    Diagnostic& report(Severity s, std::string_view id, SourceLoc where, std::string message,
                       ElementRef e = {})
    {
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
    void badNumber(std::string_view line, std::string_view tok, bool integer,
                   std::string_view field)
    {
        error(ids::kSyntaxBadNumber, m_cur.loc(line, tok),
              std::string("expected ") + (integer ? "int" : "float") + " for " +
                  std::string(field) + ", got '" + shown(tok) + "'");
    }
    void shortLine(std::string_view line, std::string_view kind, std::size_t have, std::size_t need)
    {
        if (isCutLine(line)) {
            truncated(m_cur.lineLoc(line), "file ends in the middle of a " + std::string(kind) +
                                               " line (" + std::to_string(have) + " of " +
                                               std::to_string(need) + " fields)");
            return;
        }
        error(ids::kSyntaxShortLine, m_cur.lineLoc(line),
              std::string(kind) + " line has " + plural(have, "field") + "; needs " +
                  std::to_string(need));
    }
    void extraFields(std::string_view line, std::size_t used)
    {
        const std::size_t k = m_ntok + m_extraTok - used;
        if (k == 0) {
            return;
        }
        note(ids::kSyntaxExtraFields, m_cur.loc(line, m_tok[used]),
             std::to_string(k) + (k == 1 ? " extra field" : " extra fields") +
                 "; studiomdl ignores them, BinarySMD rejects them");
    }

    // ---- lexing -------------------------------------------------------------------------
    void tokenize(std::string_view line) noexcept;
    std::string_view commentText() const noexcept;
    void noteTab(std::string_view line, bool manyLinks) noexcept;
    bool blankOrComment(std::string_view line, std::string_view trimmed, Block b);
    bool isEndLine(std::string_view line, Block b);
    bool parseF(std::string_view line, std::size_t i, float& out, std::string_view field)
    {
        if (parseFloat(m_tok[i], out)) {
            return true;
        }
        badNumber(line, m_tok[i], false, field);
        return false;
    }
    bool parseI(std::string_view line, std::size_t i, std::int32_t& out, std::string_view field)
    {
        if (parseInt(m_tok[i], out)) {
            return true;
        }
        badNumber(line, m_tok[i], true, field);
        return false;
    }
    bool parseVec3(std::string_view line, std::size_t i, Vec3& out, const char* const fields[3])
    {
        return parseF(line, i, out.x(), fields[0]) && parseF(line, i + 1, out.y(), fields[1]) &&
               parseF(line, i + 2, out.z(), fields[2]);
    }
    void keywordCase(std::string_view line, std::string_view tok, std::string_view exact,
                     bool block);

    // ---- blocks -------------------------------------------------------------------------
    void openBlock(Block b, std::string_view line);
    void missingEnd(Block b, SourceLoc opened, SourceLoc at);
    // syntax.truncated (issue 15): the file ends before its structure is complete. Reported
    // once: a cut last line already says where the file ends.
    void truncated(SourceLoc at, std::string message, SourceLoc opened = {},
                   std::string_view block = {});
    void endsInside(Block b, SourceLoc opened, std::string after);
    // The last line of a file that does not end with a newline: it may be cut.
    bool isCutLine(std::string_view line) const noexcept
    {
        return !line.empty() && line.data() + line.size() == m_bytes.data() + m_bytes.size();
    }
    bool nextLine(std::string_view& line) noexcept;
    bool newBlockStarts() const noexcept;
    void clearVertexRefs(std::size_t mark) noexcept;
    std::size_t indexOf(const Diagnostic& d) const noexcept;
    void parseNodes(SourceLoc opened);
    void parseSkeleton(SourceLoc opened);
    void beginFrame(RawFrame&& f);
    void addPose(JointIndex joint, const Vec3& position, const Vec3& rotation);
    void leaveDirect();
    void parseTriangles(SourceLoc opened);
    std::uint32_t internMaterial(std::string_view name, SourceLoc at);
    void takeRun(const FastRun& r);
    void parallelTriangles();
    void splice(Share& share, std::uint32_t lineBase);
    void parseVertexAnimation(SourceLoc opened);
    bool parseTimeLine(std::string_view line, double& time, std::string& comment, bool& hasComment);
    bool parseCorner(std::string_view line, Corner& c, std::uint32_t vertex);
    bool looksLikeVertex(std::string_view line) noexcept;
    void skipUnknownBlock(std::string_view line, std::string_view kw);
    SourceLoc eofLoc() const noexcept;

    // ---- build --------------------------------------------------------------------------
    void build();
    void buildSkeleton();
    void buildAnimation();
    void buildExtraUvs();
    void buildVertexFrames();
    void gradeByProfile();

    std::string_view m_bytes;
    const ReadContext& m_ctx;
    TextCursor m_cur;
    DiagnosticSink m_sink;
    Diagnostic m_dummy;
    std::unordered_map<std::string_view, std::size_t> m_perId;

    std::vector<std::string_view> m_tok;
    std::size_t m_ntok = 0;
    std::size_t m_extraTok = 0;
    const char* m_firstTab = nullptr;
    bool m_unterminated = false;
    bool m_truncated = false;
    std::string_view m_comment;

    // Tabs (reported once), line state.
    SourceLoc m_tabAt;
    SourceLoc m_tabManyLinksAt;
    std::uint32_t m_lastLine = 0;
    std::size_t m_lastLineLength = 0;
    bool m_lastWasEnd = false;

    // What the file said.
    Model m_model;
    bool m_sawKeyword = false;
    bool m_sawUnknown = false; // an unknown block or stray 'end': the file is not just comments
    bool m_sawBlock = false;
    bool m_sawVersion = false;
    SourceLoc m_versionAt;
    SourceLoc m_versionTokAt;
    bool m_hasSkeleton = false;
    bool m_hasTriangles = false;
    bool m_hasVertexAnimation = false;
    SourceLoc m_trianglesAt;
    SourceLoc m_vertexAnimationAt;

    IdMap m_ids;
    std::vector<std::int32_t> m_rawParents;
    std::vector<SourceLoc> m_parentTokAt;

    std::vector<RawFrame> m_frames;
    std::vector<RawState> m_states;
    // While frame times only increase (nearly every file), poses go straight into the dense
    // animation (m_anim, frame i = raw frame i) and m_states stays empty: no second copy of
    // the keys. The first frame out of order converts to m_states and the sorting build.
    Animation m_anim;
    bool m_direct = true;
    std::vector<std::size_t> m_frameDiags; // diagnostics whose Frame index is a raw frame index

    MaterialInterner m_materials;
    std::vector<std::uint32_t> m_extraCounts; // v3: extra UV pairs per corner (before padding)
    std::vector<Vec2> m_extraRaw;
    std::uint32_t m_maxExtra = 0;
    Corner m_corner[3];

    std::vector<std::pair<std::size_t, Deferred>> m_deferred;
    bool m_triedParallel = false;
    ReadStats m_stats;
};

// ---- lexing ---------------------------------------------------------------------------------

void SmdReader::tokenize(std::string_view line) noexcept
{
    m_ntok = 0;
    m_extraTok = 0;
    m_firstTab = nullptr;
    m_unterminated = false;
    m_comment = {};
    const char* p = line.data();
    const char* const e = p + line.size();
    while (p < e) {
        while (p < e && cls(*p) == 1) {
            if (*p == '\t' && !m_firstTab) {
                m_firstTab = p;
            }
            ++p;
        }
        if (p >= e) {
            break;
        }
        std::uint8_t c = cls(*p);
        if (c == 2 || (c == 3 && p + 1 < e && p[1] == '/')) {
            m_comment = std::string_view(p, static_cast<std::size_t>(e - p));
            break;
        }
        const char* s = p;
        if (c == 4) {
            ++p;
            while (p < e && *p != '"') {
                ++p;
            }
            if (p >= e) {
                m_unterminated = true;
            } else {
                ++p;
            }
        } else {
            for (;;) {
                while (p < e && cls(*p) == 0) { // the common case: digits, '.', '-', letters
                    ++p;
                }
                if (p < e && (cls(*p) == 4 || (cls(*p) == 3 && !(p + 1 < e && p[1] == '/')))) {
                    ++p; // a quote or a single '/' inside a token
                    continue;
                }
                break;
            }
        }
        if (m_ntok < kMaxTokens) {
            m_tok[m_ntok++] = std::string_view(s, static_cast<std::size_t>(p - s));
        } else {
            ++m_extraTok;
        }
    }
}

// The text of an end-of-line comment without its marker, trimmed.
std::string_view SmdReader::commentText() const noexcept
{
    std::string_view c = m_comment;
    if (c.starts_with("//")) {
        c.remove_prefix(2);
    } else if (!c.empty()) {
        c.remove_prefix(1);
    }
    return trim(c);
}

void SmdReader::noteTab(std::string_view line, bool manyLinks) noexcept
{
    if (!m_firstTab) {
        return;
    }
    const SourceLoc at{m_cur.lineNumber(), static_cast<std::uint32_t>(m_firstTab - line.data()) + 1,
                       m_cur.lineOffset() + static_cast<std::uint64_t>(m_firstTab - line.data())};
    if (m_tabAt.line == 0) {
        m_tabAt = at;
    }
    if (manyLinks && m_tabManyLinksAt.line == 0) {
        m_tabManyLinksAt = at;
    }
}

// Blank lines and full-line comments inside a block: report and tell the caller to skip.
bool SmdReader::blankOrComment(std::string_view line, std::string_view trimmed, Block b)
{
    if (trimmed.empty()) {
        const SourceLoc at{m_cur.lineNumber(), 1, m_cur.lineOffset()};
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
    const SourceLoc at = m_cur.lineLoc(line);
    error(ids::kSyntaxCommentGoldsrc, at, "GoldSrc studiomdl has no comments");
    if (!(line.starts_with("//"))) {
        error(ids::kSyntaxCommentInBlock, at, "only '//' at column 1 is skipped inside blocks");
    }
    return true;
}

// `end` (any case, blanks around it). Reports inexact spellings.
bool SmdReader::isEndLine(std::string_view line, Block b)
{
    if (m_ntok != 1 || !equalsIgnoreCase(m_tok[0], "end")) {
        return false;
    }
    if (line != "end") {
        if (m_tok[0] != "end") {
            keywordCase(line, m_tok[0], "end", false);
        }
        if (m_tok[0].data() != line.data() || m_tok[0].size() != line.size()) {
            const SourceLoc at = m_cur.lineLoc(line);
            if (b == Block::Triangles) {
                error(ids::kSyntaxEndNotExact, at, "studiomdl reads this 'end' as a material name");
            } else {
                fixed(Severity::Note, ids::kSyntaxEndNotExact, at,
                      "'end' with blanks or a comment around it; studiomdl compares the raw line");
            }
        }
    }
    m_lastWasEnd = true;
    return true;
}

void SmdReader::keywordCase(std::string_view line, std::string_view tok, std::string_view exact,
                            bool block)
{
    const Diagnostic& d = error(ids::kSyntaxKeywordCase, m_cur.loc(line, tok),
                                "'" + shown(tok) + "' must be '" + std::string(exact) + "'");
    const std::size_t i = indexOf(d);
    if (i != SIZE_MAX) {
        m_deferred.emplace_back(i, block ? Deferred::BlockKeywordCase : Deferred::KeywordCase);
    }
}

SourceLoc SmdReader::eofLoc() const noexcept
{
    return {m_lastLine == 0 ? 1 : m_lastLine, static_cast<std::uint32_t>(m_lastLineLength) + 1,
            m_bytes.size()};
}

bool SmdReader::looksLikeVertex(std::string_view line) noexcept
{
    tokenize(line);
    std::int32_t i = 0;
    float f = 0;
    return m_ntok >= 9 && parseInt(m_tok[0], i) && parseFloat(m_tok[1], f);
}

// ---- top level ------------------------------------------------------------------------------

ReadResult SmdReader::run()
{
    std::string_view line;
    bool beforeKeyword = true;
    m_model.animations.clear();
    while (m_cur.nextLine(line)) {
        m_lastLine = m_cur.lineNumber();
        m_lastLineLength = line.size();
        m_lastWasEnd = false;
        const std::string_view trimmed = trim(line);
        if (trimmed.empty()) {
            continue;
        }
        if (isFullLineComment(trimmed)) {
            if (beforeKeyword) {
                m_model.headerComments.emplace_back(line);
            }
            const std::size_t i = indexOf(note(ids::kSyntaxCommentGoldsrc, m_cur.lineLoc(line),
                                               "GoldSrc studiomdl has no comments"));
            if (i != SIZE_MAX) {
                m_deferred.emplace_back(i, Deferred::TopLevelComment);
            }
            continue;
        }
        tokenize(line);
        noteTab(line, false);
        beforeKeyword = false;
        const std::string_view kw = m_tok[0];
        if (equalsIgnoreCase(kw, "version")) {
            m_sawKeyword = true;
            if (kw != "version") {
                keywordCase(line, kw, "version", true);
            }
            m_sawVersion = true;
            m_versionAt = m_cur.lineLoc(line);
            m_versionTokAt = m_versionAt;
            std::int32_t v = 1;
            if (m_ntok < 2) {
                m_sawVersion = false; // reported as missing
            } else if (!parseInt(m_tok[1], v)) {
                badNumber(line, m_tok[1], true, "version");
            } else {
                m_model.version = v;
                m_versionTokAt = m_cur.loc(line, m_tok[1]);
                extraFields(line, 2);
            }
            continue;
        }
        const Block b = blockFromKeyword(kw);
        if (b == Block::None) {
            if (equalsIgnoreCase(kw, "end") && m_ntok == 1) {
                warning(ids::kSyntaxUnknownBlock, m_cur.lineLoc(line), "stray 'end' ignored");
                m_lastWasEnd = true;
                continue;
            }
            skipUnknownBlock(line, kw);
            continue;
        }
        openBlock(b, line);
    }
    if (!m_sawBlock && m_sawUnknown) {
        // Text that is neither comments nor SMD blocks (a 1 GB line of garbage, another format
        // with a wrong extension): what was skipped, and no bones, rather than "file is empty".
        if (!m_sawVersion) {
            m_sink.error(ids::kSyntaxBadVersion, {1, 1, 0}, "version missing; no SMD block found");
        }
        m_sink.error(ids::kSkeletonNoBones, {1, 1, 0}, "file declares no bones (no 'nodes' block)");
        ReadResult r;
        r.diagnostics = m_sink.take();
        return r;
    }
    if (!m_sawBlock) {
        ReadResult r;
        m_sink.diagnostics().clear();
        m_sink.error(ids::kSyntaxEmptyFile, {1, 1, 0}, "file is empty");
        r.diagnostics = m_sink.take();
        return r;
    }
    build();
    ReadResult r;
    r.model = std::move(m_model);
    r.hasModel = true;
    r.stats = m_stats;
    r.diagnostics = m_sink.take();
    for (const auto& [id, n] : m_perId) {
        if (n > kMaxPerId) {
            Diagnostic d;
            d.severity = Severity::Note;
            d.id = id;
            d.file = m_ctx.fileName;
            d.where = {1, 1, 0};
            d.message = std::to_string(n - kMaxPerId) + " more not listed by the reader";
            d.fixedSeverity = true;
            r.diagnostics.push_back(std::move(d));
        }
    }
    std::stable_sort(
        r.diagnostics.begin(), r.diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.where.offset < b.where.offset; });
    return r;
}

void SmdReader::skipUnknownBlock(std::string_view line, std::string_view kw)
{
    m_sawKeyword = true;
    m_sawUnknown = true;
    warning(ids::kSyntaxUnknownBlock, m_cur.lineLoc(line),
            "unknown block '" + shown(kw) + "' skipped to its 'end'");
    std::string_view l;
    while (m_cur.nextLine(l)) {
        m_lastLine = m_cur.lineNumber();
        m_lastLineLength = l.size();
        if (equalsIgnoreCase(trim(l), "end")) {
            m_lastWasEnd = true;
            return;
        }
    }
    if (m_sawBlock) { // text before any SMD block is no SMD cut short, but no SMD at all
        truncated(eofLoc(), "file ends inside unknown block '" + shown(kw) + "'; no 'end'");
    }
}

void SmdReader::openBlock(Block b, std::string_view line)
{
    m_sawKeyword = true;
    m_sawBlock = true;
    const std::string_view kw = m_tok[0];
    if (kw != blockName(b)) {
        keywordCase(line, kw, blockName(b), true);
    }
    extraFields(line, 1);
    const SourceLoc opened = m_cur.lineLoc(line);
    switch (b) {
    case Block::Nodes:
        parseNodes(opened);
        break;
    case Block::Skeleton:
        m_hasSkeleton = true;
        parseSkeleton(opened);
        break;
    case Block::Triangles:
        if (!m_hasTriangles) {
            m_trianglesAt = opened;
        }
        m_hasTriangles = true;
        parseTriangles(opened);
        break;
    case Block::VertexAnimation:
        if (!m_hasVertexAnimation) {
            m_vertexAnimationAt = opened;
        }
        m_hasVertexAnimation = true;
        parseVertexAnimation(opened);
        break;
    case Block::None:
        break;
    }
}

void SmdReader::missingEnd(Block b, SourceLoc opened, SourceLoc at)
{
    const std::string msg = "'" + std::string(blockName(b)) + "' opened at line " +
                            std::to_string(opened.line) + " has no 'end'";
    Diagnostic& d = b == Block::Triangles
                        ? fixed(Severity::Warning, ids::kSyntaxMissingEnd, at, msg)
                        : error(ids::kSyntaxMissingEnd, at, msg);
    d.related.push_back(
        {m_ctx.fileName, opened, "'" + std::string(blockName(b)) + "' opened here"});
}

void SmdReader::truncated(SourceLoc at, std::string message, SourceLoc opened,
                          std::string_view block)
{
    if (m_truncated) {
        return;
    }
    m_truncated = true;
    Diagnostic& d = error(ids::kSyntaxTruncated, at, std::move(message));
    if (opened.line != 0) {
        d.related.push_back({m_ctx.fileName, opened, "'" + std::string(block) + "' opened here"});
    }
}

void SmdReader::endsInside(Block b, SourceLoc opened, std::string after)
{
    truncated(eofLoc(),
              "file ends inside '" + std::string(blockName(b)) + "' opened at line " +
                  std::to_string(opened.line) + after + "; no 'end'",
              opened, blockName(b));
}

bool SmdReader::nextLine(std::string_view& line) noexcept
{
    if (!m_cur.nextLine(line)) {
        return false;
    }
    m_lastLine = m_cur.lineNumber();
    m_lastLineLength = line.size();
    m_lastWasEnd = false;
    return true;
}

// A lone block keyword inside a block: the block lacked its `end`.
bool SmdReader::newBlockStarts() const noexcept
{
    return m_ntok == 1 && blockFromKeyword(m_tok[0]) != Block::None;
}

std::size_t SmdReader::indexOf(const Diagnostic& d) const noexcept
{
    return &d == &m_dummy ? SIZE_MAX : m_sink.diagnostics().size() - 1;
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
    std::string_view line;
    while (nextLine(line)) {
        if (blankOrComment(line, trim(line), Block::Nodes)) {
            continue;
        }
        tokenize(line);
        noteTab(line, false);
        if (isEndLine(line, Block::Nodes)) {
            return;
        }
        if (newBlockStarts()) {
            missingEnd(Block::Nodes, opened, m_cur.lineLoc(line));
            m_cur.unread();
            return;
        }
        const SourceLoc at = m_cur.lineLoc(line);
        if (m_unterminated && isCutLine(line)) {
            truncated(at, "file ends in the middle of a node line (quoted name not closed)");
            continue;
        }
        if (m_unterminated) {
            fixed(Severity::Warning, ids::kSyntaxUnterminatedString, at,
                  "quoted name runs to the end of the line; line dropped");
            continue;
        }
        if (m_ntok < 3) {
            shortLine(line, "node", m_ntok, 3);
            continue;
        }
        std::int32_t id = 0;
        std::int32_t parent = -1;
        if (!parseI(line, 0, id, "node id") || !parseI(line, 2, parent, "parent id")) {
            continue;
        }
        extraFields(line, 3);
        if (id < 0) {
            fixed(Severity::Error, ids::kSkeletonNegativeId, m_cur.loc(line, m_tok[0]),
                  "node id " + std::to_string(id) + " is negative; line skipped");
            continue;
        }
        const std::string_view nameTok = m_tok[1];
        const bool quoted = nameTok.size() >= 2 && nameTok.front() == '"' && nameTok.back() == '"';
        const std::string_view name = quoted ? nameTok.substr(1, nameTok.size() - 2) : nameTok;
        if (const std::string_view issue = nameIssue(name); !issue.empty()) {
            warning(ids::kSyntaxNonAscii, m_cur.loc(line, nameTok),
                    "name '" + shown(name) + "' contains " + std::string(issue));
        }
        JointIndex j = m_ids.find(id);
        if (j != kNoJoint) {
            const auto u = static_cast<std::size_t>(j);
            const bool same = s.names[u] == name && m_rawParents[u] == parent;
            const std::string msg = "bone id " + std::to_string(id) +
                                    " redefined; studiomdl keeps the last ('" + shown(name) + "')";
            Diagnostic& d =
                same ? fixed(Severity::Note, ids::kSkeletonDuplicateId, at, msg, {K::Joint, j})
                     : error(ids::kSkeletonDuplicateId, at, msg, {K::Joint, j});
            d.related.push_back({m_ctx.fileName, s.where[u], "first defined here"});
            s.names[u].assign(name);
            s.where[u] = at;
            m_rawParents[u] = parent;
            m_parentTokAt[u] = m_cur.loc(line, m_tok[2]);
        } else {
            j = s.addJoint(std::string(name), kNoJoint, id, at);
            m_ids.set(id, j);
            m_rawParents.push_back(parent);
            m_parentTokAt.push_back(m_cur.loc(line, m_tok[2]));
        }
        if (!quoted) {
            error(ids::kSyntaxUnquotedName, at,
                  "bone name not quoted; studiomdl ends the nodes block here (" +
                      plural(static_cast<std::size_t>(j), "bone") + " read)",
                  {K::Joint, j});
        }
    }
    endsInside(Block::Nodes, opened, " after " + plural(s.size(), "bone"));
}

// ---- skeleton -------------------------------------------------------------------------------

bool SmdReader::parseTimeLine(std::string_view line, double& time, std::string& comment,
                              bool& hasComment)
{
    if (m_tok[0] != "time") {
        keywordCase(line, m_tok[0], "time", false);
    }
    if (m_ntok < 2) {
        shortLine(line, "time", m_ntok, 2);
        return false;
    }
    if (!parseDouble(m_tok[1], time) || !std::isfinite(time)) {
        badNumber(line, m_tok[1], false, "time");
        return false;
    }
    extraFields(line, 2);
    hasComment = !m_comment.empty();
    comment.assign(hasComment ? commentText() : std::string_view{});
    if (const std::string_view issue = nameIssue(comment); !issue.empty()) {
        warning(ids::kSyntaxNonAscii, m_cur.loc(line, m_comment),
                "name '" + shown(comment) + "' contains " + std::string(issue));
    }
    return true;
}

void SmdReader::parseSkeleton(SourceLoc opened)
{
    static const char* const kPos[3] = {"position x", "position y", "position z"};
    static const char* const kRot[3] = {"rotation x", "rotation y", "rotation z"};
    if (m_direct && m_frames.empty()) {
        m_anim.jointCount = m_model.skeleton.size();
        m_anim.kind = PoseKind::LocalEulerXYZ;
        // Room for full frames over the lines left (address space; pages come as written).
        const std::string_view rest = m_bytes.substr(m_cur.position());
        const std::size_t frames = (countNewlines(rest) + 1) / (m_anim.jointCount + 1) + 1;
        // A reference's one frame needs little: at most 1M keys ahead, growth after that.
        const std::size_t keys =
            std::min({frames * m_anim.jointCount, rest.size() / 8, std::size_t(1) << 20});
        m_anim.positions.reserve(keys);
        m_anim.rotations.reserve(keys);
        m_anim.explicitKey.reserve(keys);
    }
    bool inFrame = false;
    bool skipFrame = false;
    std::uint32_t fastMisses = 0;
    std::size_t fastWait = 0;
    std::string_view line;
    for (;;) {
        if (m_ctx.fastPaths && !skipFrame && fastWait == 0) {
            const FastRun r = fastSkeleton(
                m_bytes.data() + m_cur.position(), m_bytes.data() + m_bytes.size(),
                m_bytes.data(), m_cur.lineNumber() + 1, m_ids, inFrame,
                [this](double time, SourceLoc where) {
                    RawFrame f;
                    f.time = time;
                    f.where = where;
                    beginFrame(std::move(f));
                },
                [this](JointIndex j, const Vec3& position, const Vec3& rotation) {
                    addPose(j, position, rotation);
                });
            takeRun(r);
            if (r.lines > 0) {
                fastMisses = 0;
            } else {
                fastMisses = std::min<std::uint32_t>(fastMisses + 1, 10);
                fastWait = std::size_t(1) << fastMisses;
            }
        } else if (fastWait > 0) {
            --fastWait;
        }
        if (!nextLine(line)) {
            break;
        }
        if (blankOrComment(line, trim(line), Block::Skeleton)) {
            continue;
        }
        tokenize(line);
        noteTab(line, false);
        if (isEndLine(line, Block::Skeleton)) {
            return;
        }
        if (newBlockStarts()) {
            missingEnd(Block::Skeleton, opened, m_cur.lineLoc(line));
            m_cur.unread();
            return;
        }
        if (equalsIgnoreCase(m_tok[0], "time")) {
            RawFrame f;
            if (!parseTimeLine(line, f.time, f.comment, f.hasComment)) {
                skipFrame = true;
                inFrame = false;
                continue;
            }
            f.where = m_cur.lineLoc(line);
            beginFrame(std::move(f));
            inFrame = true;
            skipFrame = false;
            continue;
        }
        if (skipFrame) {
            continue; // its `time` line was bad and is reported
        }
        if (!inFrame) {
            error(ids::kSkeletonNoTime, m_cur.lineLoc(line),
                  "pose line before any 'time' (studiomdl: missing frame start)");
            continue;
        }
        if (m_ntok < 7) {
            shortLine(line, "bone", m_ntok, 7);
            continue;
        }
        std::int32_t id = 0;
        RawState st;
        if (!parseI(line, 0, id, "bone id") || !parseVec3(line, 1, st.position, kPos) ||
            !parseVec3(line, 4, st.rotation, kRot)) {
            continue;
        }
        extraFields(line, 7);
        st.joint = m_ids.find(id);
        if (st.joint == kNoJoint) {
            const std::size_t raw = m_frames.size() - 1;
            const std::size_t di =
                indexOf(error(ids::kSkeletonUnknownBoneInFrame, m_cur.loc(line, m_tok[0]),
                              "frame " + numberText(m_frames.back().time) +
                                  " animates undeclared bone id " + std::to_string(id),
                              {K::Frame, static_cast<std::int32_t>(raw)}));
            if (di != SIZE_MAX) {
                m_frameDiags.push_back(di);
            }
            continue;
        }
        addPose(st.joint, st.position, st.rotation);
    }
    endsInside(Block::Skeleton, opened, " after " + plural(m_frames.size(), "frame"));
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
// frame: the same keys, and a frame's later line for a joint already won).
void SmdReader::leaveDirect()
{
    if (!m_direct) {
        return;
    }
    m_direct = false;
    const std::size_t n = m_anim.jointCount;
    for (std::size_t f = 0; f < m_frames.size() && f < m_anim.frameCount(); ++f) {
        m_frames[f].first = m_states.size();
        m_frames[f].count = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t k = m_anim.key(f, j);
            if (m_anim.explicitKey[k]) {
                m_states.push_back({static_cast<JointIndex>(j), m_anim.positions[k],
                                    m_anim.rotations[k]});
                ++m_frames[f].count;
            }
        }
    }
    m_anim = Animation{};
}

// ---- triangles ------------------------------------------------------------------------------

bool SmdReader::parseCorner(std::string_view line, Corner& c, std::uint32_t vertex)
{
    static const char* const kPos[3] = {"position x", "position y", "position z"};
    static const char* const kNrm[3] = {"normal x", "normal y", "normal z"};
    c.where = m_cur.lineLoc(line);
    if (m_ntok < 9) {
        shortLine(line, "vertex", m_ntok, 9);
        return false;
    }
    std::int32_t parent = 0;
    if (!parseI(line, 0, parent, "parent bone") || !parseVec3(line, 1, c.position, kPos) ||
        !parseVec3(line, 4, c.normal, kNrm) || !parseF(line, 7, c.uv.x(), "u") ||
        !parseF(line, 8, c.uv.y(), "v")) {
        return false;
    }
    c.joints.clear();
    c.weights.clear();
    c.extraUvs.clear();
    c.state = LinkState::Absent;
    std::size_t used = 9;
    std::int32_t links = 0;
    if (m_ntok > 9) {
        if (!parseI(line, 9, links, "link count")) {
            return false;
        }
        if (links < 0 || static_cast<std::size_t>(links) > kMaxLinks) {
            error(ids::kSyntaxBadNumber, m_cur.loc(line, m_tok[9]),
                  "expected int for link count, got '" + shown(m_tok[9]) + "' (0.." +
                      std::to_string(kMaxLinks) + ")");
            return false;
        }
        used = 10 + 2 * static_cast<std::size_t>(links);
        if (m_ntok < used) {
            shortLine(line, "vertex", m_ntok, used);
            return false;
        }
        for (std::size_t l = 0; l < static_cast<std::size_t>(links); ++l) {
            std::int32_t bone = 0;
            float w = 0;
            if (!parseI(line, 10 + 2 * l, bone, "link bone") ||
                !parseF(line, 11 + 2 * l, w, "link weight")) {
                return false;
            }
            c.joints.push_back(bone); // source id for now, resolved below
            c.weights.push_back(w);
        }
        c.state = LinkState::Zero;
    }
    noteTab(line, links > 4);
    // Extra tokens: v3 extra UV pairs, else ignored.
    if (m_model.version == 3 && c.state != LinkState::Absent) {
        std::size_t i = used;
        while (i + 1 < m_ntok) {
            Vec2 uv;
            if (!parseF(line, i, uv.x(), "extra u") || !parseF(line, i + 1, uv.y(), "extra v")) {
                return false;
            }
            c.extraUvs.push_back(uv);
            i += 2;
        }
        used = i;
    }
    extraFields(line, used);
    // Resolve bones (after the whole line parsed, so a bad line reports only its syntax).
    const ElementRef ref{K::Vertex, static_cast<std::int32_t>(vertex)};
    c.parent = m_ids.find(parent);
    if (c.parent == kNoJoint) {
        error(ids::kWeightsUnknownBone, m_cur.loc(line, m_tok[0]),
              "vertex weighted to undeclared bone id " + std::to_string(parent), ref);
        c.parent = m_model.skeleton.empty() ? kNoJoint : 0;
    }
    std::size_t kept = 0;
    for (std::size_t l = 0; l < c.joints.size(); ++l) {
        const JointIndex j = m_ids.find(c.joints[l]);
        if (j == kNoJoint) {
            error(ids::kWeightsUnknownBone, m_cur.loc(line, m_tok[10 + 2 * l]),
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
    Mesh& mesh = m_model.mesh;
    {
        // Reserve from the lines left (4 per triangle): the arrays then grow once, not by
        // doubling, which cuts page faults, copies and the peak memory of large references.
        const std::string_view rest =
            m_bytes.substr(std::min<std::size_t>(m_cur.lineOffset(), m_bytes.size()));
        const std::size_t lines = countNewlines(rest) + 1;
        // A triangle takes at least 56 bytes (3 x "0 0 0 0 0 0 0 0 0\n" and a material), so a
        // hostile file of blank lines cannot reserve more than real triangles of its size use.
        const std::size_t tris = mesh.triangleCount() + std::min(lines / 4, rest.size() / 56);
        reserveTriangles(mesh, tris - mesh.triangleCount());
    }
    const char* const base = m_bytes.data();
    const char* const end = base + m_bytes.size();
    auto intern = [this](std::string_view name, SourceLoc at) { return internMaterial(name, at); };
    // After a fast attempt that took nothing, the next ones wait 2, 4, ... 1024 triangles, so a
    // file the fast path never fits (v3 extra UVs, comments on every line) costs little.
    std::uint32_t fastMisses = 0;
    std::size_t fastWait = 0;
    if (m_ctx.fastPaths && !m_triedParallel) {
        m_triedParallel = true;
        parallelTriangles();
    }
    std::string_view line;
    for (;;) {
        if (fastWait == 0 && m_ctx.fastPaths) {
            const FastRun r = fastTriangles(base + m_cur.position(), end, end, base,
                                            m_cur.lineNumber() + 1, m_ids, mesh, intern);
            if (r.triangles > 0) {
                takeRun(r);
                fastMisses = 0;
            } else {
                fastMisses = std::min<std::uint32_t>(fastMisses + 1, 10);
                fastWait = std::size_t(1) << fastMisses;
            }
        } else {
            --fastWait;
        }
        if (!nextLine(line)) {
            break;
        }
        std::string_view material = trim(line);
        SourceLoc matAt = m_cur.lineLoc(line);
        if (material.empty()) {
            // A blank material line is an empty material when vertex lines follow.
            matAt = {m_cur.lineNumber(), 1, m_cur.lineOffset()};
            std::string_view next;
            bool emptyMaterial = false;
            if (m_cur.nextLine(next)) {
                emptyMaterial = looksLikeVertex(next);
                m_cur.unread();
            }
            if (!emptyMaterial) {
                // The peek moved the cursor's line start: report at the saved location.
                error(ids::kSyntaxBlankLineInBlock, matAt,
                      "blank line desyncs 'triangles' in studiomdl");
                continue;
            }
        } else if (material.starts_with("//")) {
            blankOrComment(line, material, Block::Triangles);
            continue;
        } else if (equalsIgnoreCase(material, "end")) {
            tokenize(line);
            isEndLine(line, Block::Triangles);
            return;
        } else if (blockFromKeyword(material) != Block::None) {
            missingEnd(Block::Triangles, opened, matAt);
            m_cur.unread();
            return;
        }
        // Three vertex lines.
        const auto t = static_cast<std::uint32_t>(mesh.triangleCount());
        const std::size_t mark = m_sink.diagnostics().size();
        std::size_t got = 0;
        bool dropped = false;
        while (got < 3) {
            if (!nextLine(line)) {
                clearVertexRefs(mark);
                truncated(eofLoc(),
                          "file ends after " + std::to_string(got) +
                              " of 3 vertex lines of triangle " + std::to_string(t) +
                              " (material line " + std::to_string(matAt.line) + "); no 'end'",
                          opened, blockName(Block::Triangles));
                return;
            }
            if (blankOrComment(line, trim(line), Block::Triangles)) {
                continue;
            }
            tokenize(line);
            if (isEndLine(line, Block::Triangles)) {
                error(ids::kSyntaxShortLine, m_cur.lineLoc(line),
                      "triangle cut by 'end' after " + std::to_string(got) + " of 3 vertex lines");
                clearVertexRefs(mark);
                return;
            }
            if (!parseCorner(line, m_corner[got], 3 * t + static_cast<std::uint32_t>(got))) {
                dropped = true;
                m_cur.unread(); // re-read as the next material line
                break;
            }
            ++got;
        }
        if (dropped) {
            clearVertexRefs(mark);
            continue;
        }
        const std::uint32_t mat = internMaterial(material, matAt);
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
    endsInside(Block::Triangles, opened, " after " + plural(mesh.triangleCount(), "triangle"));
}

std::uint32_t SmdReader::internMaterial(std::string_view name, SourceLoc at)
{
    Mesh& mesh = m_model.mesh;
    const std::size_t before = mesh.materials.size();
    const std::uint32_t mat = m_materials.intern(mesh, name, at);
    if (mesh.materials.size() != before) {
        if (const std::string_view issue = nameIssue(name); !issue.empty()) {
            warning(ids::kSyntaxNonAscii, at,
                    "name '" + shown(name) + "' contains " + std::string(issue),
                    {K::Material, static_cast<std::int32_t>(mat)});
        }
    }
    return mat;
}

// Moves the cursor and the line state past what a fast run read.
void SmdReader::takeRun(const FastRun& r)
{
    if (r.lines == 0) {
        return;
    }
    m_cur.skipTo(static_cast<std::size_t>(r.end - m_bytes.data()), r.lines, r.lines - r.crlf,
                 r.crlf);
    m_lastLine = m_cur.lineNumber();
    m_lastLineLength = r.lastLineLength;
    m_lastWasEnd = false;
    m_stats.fastLines += r.lines;
    if (m_tabAt.line == 0) {
        m_tabAt = r.tabAt;
    }
    if (m_tabManyLinksAt.line == 0) {
        m_tabManyLinksAt = r.tabManyLinksAt;
    }
}

// Large triangles blocks: the rest of the file is cut into shares at guessed triangle starts;
// share 0 is read here straight into the model while the others are read on threads into their
// own meshes. Shares are spliced in file order for as long as each one ended exactly where the
// next began (which proves the next one's start); at the first that did not, the general loop
// goes on from where the kept text ends. So the model, locations and diagnostics are exactly
// those of reading in order.
void SmdReader::parallelTriangles()
{
    const char* const base = m_bytes.data();
    const char* const end = base + m_bytes.size();
    const char* const start = base + m_cur.position();
    const auto rest = static_cast<std::size_t>(end - start);
    const std::size_t count = shareCount(m_ctx.threads, m_ctx.parallelMinBytes, rest);
    if (count < 2) {
        return;
    }
    std::vector<const char*> starts{start};
    for (std::size_t k = 1; k < count; ++k) {
        const char* s = guessTriangleStart(start + k * (rest / count), end);
        if (s && s > starts.back()) {
            starts.push_back(s);
        }
    }
    if (starts.size() < 2) {
        return;
    }
    std::vector<Share> shares(starts.size() - 1);
    for (std::size_t k = 0; k < shares.size(); ++k) {
        shares[k].begin = starts[k + 1];
        shares[k].stop = k + 2 < starts.size() ? starts[k + 2] : end;
    }
    const char* at = start;
    const int kept = readInShares(
        shares,
        [end, base, this](Share& sh) {
            const std::string_view text(sh.begin, static_cast<std::size_t>(sh.stop - sh.begin));
            reserveTriangles(sh.mesh, countNewlines(text) / 4 + 1);
            sh.run = fastTriangles(sh.begin, end, sh.stop, base, 1, m_ids, sh.mesh,
                                   [&sh](std::string_view name, SourceLoc where) {
                                       return sh.materials.intern(sh.mesh, name, where);
                                   });
        },
        [&] {
            auto intern = [this](std::string_view name, SourceLoc where) {
                return internMaterial(name, where);
            };
            const FastRun first = fastTriangles(start, end, starts[1], base,
                                                m_cur.lineNumber() + 1, m_ids, m_model.mesh, intern);
            takeRun(first);
            at = first.end;
            return true;
        },
        [&](Share& sh) {
            if (at != sh.begin) {
                return false;
            }
            const std::uint32_t lineBase = m_cur.lineNumber();
            splice(sh, lineBase);
            FastRun r = sh.run;
            for (SourceLoc* loc : {&r.tabAt, &r.tabManyLinksAt}) {
                if (loc->line != 0) {
                    loc->line += lineBase;
                }
            }
            takeRun(r);
            at = r.end;
            return true;
        });
    m_stats.parallelShares = static_cast<std::uint32_t>(std::max(kept, 0));
}

void SmdReader::splice(Share& sh, std::uint32_t lineBase)
{
    Mesh& m = m_model.mesh;
    Mesh& t = sh.mesh;
    // Materials in the order the share first used them: the indices (and non-ASCII warnings)
    // reading in order would give.
    std::vector<std::uint32_t> remap(t.materials.size());
    for (std::size_t i = 0; i < t.materials.size(); ++i) {
        SourceLoc where = t.materials[i].where;
        where.line += lineBase;
        remap[i] = internMaterial(t.materials[i].name, where);
    }
    const auto pointBase = static_cast<std::uint32_t>(m.pointPositions.size());
    const auto linkBase = static_cast<std::uint32_t>(m.influenceJoints.size());
    auto relocate = [lineBase](SourceLoc w) {
        w.line += lineBase;
        return w;
    };
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
}

// ---- vertexanimation ------------------------------------------------------------------------

void SmdReader::parseVertexAnimation(SourceLoc opened)
{
    static const char* const kPos[3] = {"position x", "position y", "position z"};
    static const char* const kNrm[3] = {"normal x", "normal y", "normal z"};
    bool inFrame = false;
    bool skipFrame = false;
    std::string_view line;
    while (nextLine(line)) {
        if (blankOrComment(line, trim(line), Block::VertexAnimation)) {
            continue;
        }
        tokenize(line);
        noteTab(line, false);
        if (isEndLine(line, Block::VertexAnimation)) {
            return;
        }
        if (newBlockStarts()) {
            missingEnd(Block::VertexAnimation, opened, m_cur.lineLoc(line));
            m_cur.unread();
            return;
        }
        if (equalsIgnoreCase(m_tok[0], "time")) {
            VertexFrame f;
            if (!parseTimeLine(line, f.time, f.name, f.nameFromComment)) {
                skipFrame = true;
                inFrame = false;
                continue;
            }
            f.where = m_cur.lineLoc(line);
            m_model.vertexFrames.push_back(std::move(f));
            inFrame = true;
            skipFrame = false;
            continue;
        }
        if (skipFrame) {
            continue;
        }
        if (!inFrame) {
            error(ids::kFlexFrameSync, m_cur.lineLoc(line),
                  "vertex before any 'time' (studiomdl: VTA Frame Sync)");
            continue;
        }
        if (m_ntok < 7) {
            shortLine(line, "vertex animation", m_ntok, 7);
            continue;
        }
        std::int32_t id = 0;
        Vec3 p;
        Vec3 n;
        if (!parseI(line, 0, id, "vertex id") || !parseVec3(line, 1, p, kPos) ||
            !parseVec3(line, 4, n, kNrm)) {
            continue;
        }
        extraFields(line, 7);
        VertexFrame& f = m_model.vertexFrames.back();
        f.ids.push_back(id);
        f.positions.push_back(p);
        f.normals.push_back(n);
        f.lineWhere.push_back(m_cur.lineLoc(line));
    }
    endsInside(Block::VertexAnimation, opened,
               " after " + plural(m_model.vertexFrames.size(), "shape"));
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
            error(ids::kSkeletonUnknownParent, m_parentTokAt[j],
                  "parent " + std::to_string(p) + " of bone '" + shown(s.names[j]) +
                      "' is not declared",
                  {K::Joint, static_cast<std::int32_t>(j)});
            continue;
        }
        s.parents[j] = pj;
    }
}

void SmdReader::buildAnimation()
{
    if (!m_hasSkeleton) {
        return;
    }
    if (m_direct && m_anim.jointCount != m_model.skeleton.size()) {
        leaveDirect(); // bones were declared after the skeleton block
    }
    if (m_direct) {
        // Times strictly increased: nothing to sort, merge or report, and raw frame i is
        // frame i (so diagnostics' frame indices stand).
        Animation a = std::move(m_anim);
        a.name = fileStem(m_ctx.fileName);
        m_model.animations.push_back(std::move(a));
        return;
    }
    Animation a;
    a.name = fileStem(m_ctx.fileName);
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = m_model.skeleton.size();
    const std::size_t nf = m_frames.size();
    for (std::size_t i = 1; i < nf; ++i) {
        const double t = m_frames[i].time;
        const double prev = m_frames[i - 1].time;
        if (!(t < prev)) {
            continue;
        }
        const ElementRef ref{K::Frame, static_cast<std::int32_t>(i)};
        std::size_t di = SIZE_MAX;
        if (t < m_frames.front().time) {
            di = indexOf(error(ids::kSkeletonTimeOrder, m_frames[i].where,
                               "time " + numberText(t) + " precedes the first frame " +
                                   numberText(m_frames.front().time),
                               ref));
        } else {
            di = indexOf(fixed(Severity::Warning, ids::kSkeletonTimeOrder, m_frames[i].where,
                               "time " + numberText(t) + " follows time " + numberText(prev) +
                                   "; frames sorted by time",
                               ref));
        }
        if (di != SIZE_MAX) {
            m_frameDiags.push_back(di);
        }
    }
    std::vector<std::size_t> order(nf);
    for (std::size_t i = 0; i < nf; ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
        return m_frames[x].time < m_frames[y].time;
    });
    std::vector<std::int32_t> rawToFrame(nf, 0);
    for (std::size_t o : order) {
        const RawFrame& f = m_frames[o];
        if (!a.times.empty() && a.times.back() == f.time) {
            const std::size_t di = indexOf(warning(
                ids::kSkeletonDuplicateFrame, f.where,
                "time " + numberText(f.time) + " repeated; studiomdl merges, BST adds a frame",
                {K::Frame, static_cast<std::int32_t>(o)}));
            if (di != SIZE_MAX) {
                m_frameDiags.push_back(di);
            }
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
    m_model.animations.push_back(std::move(a));
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

inline std::string describeRanges(const std::vector<std::int32_t>& sortedIds)
{
    std::string out;
    std::size_t ranges = 0;
    std::int64_t expect = 0;
    auto add = [&](std::int64_t a, std::int64_t b) {
        if (ranges == 5) {
            out += ", ...";
        }
        if (ranges++ >= 5) {
            return;
        }
        if (!out.empty()) {
            out += ", ";
        }
        out += std::to_string(a);
        if (b > a) {
            out += "-" + std::to_string(b);
        }
    };
    for (std::int32_t id : sortedIds) {
        if (id < 0) {
            continue;
        }
        if (id > expect) {
            add(expect, static_cast<std::int64_t>(id) - 1);
        }
        expect = static_cast<std::int64_t>(id) + 1;
    }
    return out;
}

void SmdReader::buildVertexFrames()
{
    auto& frames = m_model.vertexFrames;
    if (frames.empty()) {
        return;
    }
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
    const VertexFrame& base = frames.front();
    std::vector<std::int32_t> sorted = base.ids;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t i = 0; i < base.ids.size(); ++i) {
        if (base.ids[i] < 0) {
            error(ids::kFlexVertexIdOutOfRange, base.lineWhere[i],
                  "base frame lists vertex " + std::to_string(base.ids[i]) + "; ids start at 0",
                  {K::Frame, 0});
        }
    }
    const std::string missing = describeRanges(sorted);
    if (!missing.empty()) {
        error(ids::kFlexFirstShapeIncomplete, base.where,
              "base frame lacks ids " + missing + "; their deltas have no base", {K::Frame, 0});
    }
    auto inBase = [&sorted](std::int32_t id) {
        return id >= 0 && std::binary_search(sorted.begin(), sorted.end(), id);
    };
    const std::string baseCount = std::to_string(base.ids.size());
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const VertexFrame& f = frames[k];
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            if (inBase(f.ids[i])) {
                continue;
            }
            const std::string shape =
                f.name.empty() ? "frame " + std::to_string(k) : "'" + shown(f.name) + "'";
            error(ids::kFlexVertexIdOutOfRange, f.lineWhere[i],
                  "shape " + shape + " moves vertex " + std::to_string(f.ids[i]) +
                      "; base frame has " + baseCount,
                  {K::Shape, static_cast<std::int32_t>(k - 1)});
        }
    }
}

void SmdReader::build()
{
    buildSkeleton();
    buildAnimation();
    buildExtraUvs();
    buildVertexFrames();
    Model& m = m_model;
    if (m_hasVertexAnimation) {
        m.kind = ModelKind::Flex;
        if (m_hasTriangles) {
            fixed(Severity::Warning, ids::kFlexHasTriangles, m_trianglesAt,
                  "a 'triangles' block inside a vertex animation file");
        }
        if (m_hasSkeleton && !m.animations.empty() &&
            m.animations.front().frameCount() != m.vertexFrames.size()) {
            fixed(Severity::Warning, ids::kFlexFrameCountMismatch, m_vertexAnimationAt,
                  "skeleton has " + std::to_string(m.animations.front().frameCount()) +
                      " frames, vertexanimation " + std::to_string(m.vertexFrames.size()));
        }
    } else if (m_hasTriangles) {
        m.kind = ModelKind::Reference;
    } else {
        m.kind = ModelKind::Animation;
    }
    m.format = m_hasVertexAnimation || hasVtaExtension(m_ctx.fileName) ? "vta" : "smd";
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
            if (p != Profile::GoldSrc) {
                d.severity = Severity::Note;
                d.fixedSeverity = true;
            }
            [[fallthrough]];
        case Deferred::KeywordCase:
            d.message += " for " + pname;
            break;
        case Deferred::TopLevelComment:
            if (p == Profile::GoldSrc) {
                d.severity = Severity::Warning;
                d.fixedSeverity = true;
            }
            break;
        }
    }
    // Version (CHECKS.md §3 "File version").
    const int v = m_model.version;
    if (!m_sawVersion) {
        error(ids::kSyntaxBadVersion, {1, 1, 0},
              "version missing; " + pname + " accepts " +
                  (p == Profile::GoldSrc || p == Profile::Cod ? "1" : "1-2"));
    } else if (v != 1) {
        if (p == Profile::Source && v == 2) {
            fixed(Severity::Warning, ids::kSyntaxBadVersion, m_versionTokAt,
                  "version 2; source accepts 1 (version 2 is accepted by SDK 2013 only)");
        } else if (!(p == Profile::Source256 && v == 2)) {
            error(ids::kSyntaxBadVersion, m_versionTokAt,
                  "version " + std::to_string(v) + "; " + pname + " accepts " +
                      (p == Profile::GoldSrc || p == Profile::Cod ? "1" : "1-2"));
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
    const std::uint64_t lf = m_cur.lfCount;
    const std::uint64_t crlf = m_cur.crlfCount;
    const std::uint64_t cr = m_cur.crCount;
    if (cr > 0) {
        fixed(Severity::Error, ids::kSyntaxLineEnding, {1, 1, 0},
              "bare CR line endings: fgets sees one line");
    } else if (lf > 0 && crlf > 0) {
        fixed(Severity::Warning, ids::kSyntaxLineEnding, {1, 1, 0},
              "mixed line endings (" + std::to_string(lf) + " LF, " + std::to_string(crlf) +
                  " CRLF)");
    }
    if (!m_cur.lastLineTerminated && m_lastWasEnd) {
        fixed(Severity::Note, ids::kSyntaxLineEnding, {1, 1, 0}, "no newline after the last 'end'");
    }
    if (crlf > lf && crlf >= cr) {
        m_model.lineEnding = LineEnding::CRLF;
    } else if (cr > lf && cr > crlf) {
        m_model.lineEnding = LineEnding::CR;
    } else {
        m_model.lineEnding = LineEnding::LF;
    }
}

inline int sniffSmdOld(std::string_view head) noexcept
{
    TextCursor cur(head);
    std::string_view line;
    while (cur.nextLine(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || isFullLineComment(t)) {
            continue;
        }
        std::size_t n = 0;
        while (n < t.size() && !isBlank(t[n])) {
            ++n;
        }
        const std::string_view kw = t.substr(0, n);
        return equalsIgnoreCase(kw, "version") || equalsIgnoreCase(kw, "nodes") ? 90 : 0;
    }
    return 0;
}

inline ReadResult readSmdOld(std::string_view bytes, const ReadContext& ctx)
{
    auto reader = std::make_unique<SmdReader>(bytes, ctx);
    return reader->run();
}

} // namespace oldsmd
} // namespace rigscope::core
