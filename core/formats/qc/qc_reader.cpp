#include "core/formats/qc/qc_reader.h"
#include "core/formats/qc/hl1_activity.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/diag/diagnostic_ids.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"
#include "core/text/ascii.h"

namespace rigscope::core {

std::string_view qcFileKindName(QcFileRef::Kind k) noexcept
{
    switch (k) {
    case QcFileRef::Kind::Model:
        return "model";
    case QcFileRef::Kind::Animation:
        return "animation";
    case QcFileRef::Kind::Flex:
        return "flex";
    case QcFileRef::Kind::Lod:
        return "lod";
    case QcFileRef::Kind::Collision:
        return "collision";
    case QcFileRef::Kind::Include:
        return "include";
    case QcFileRef::Kind::Other:
        return "other";
    }
    return "other";
}

namespace {

} // namespace

std::string qcNormalisePath(std::string_view path)
{
    std::string p(path);
    std::replace(p.begin(), p.end(), '\\', '/');
    const bool absolute = !p.empty() && p[0] == '/';
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t end = p.find('/', start);
        if (end == std::string::npos) {
            end = p.size();
        }
        std::string part = p.substr(start, end - start);
        if (part.empty() || part == ".") {
            // skip
        } else if (part == ".." && !parts.empty() && parts.back() != "..") {
            parts.pop_back();
        } else if (!(part == ".." && absolute)) {
            parts.push_back(std::move(part));
        }
        start = end + 1;
    }
    std::string out = absolute ? "/" : "";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i) {
            out += '/';
        }
        out += parts[i];
    }
    return out.empty() ? (absolute ? "/" : ".") : out;
}

std::string qcJoinPath(const std::string& dir, const std::string& relative)
{
    std::string rel = relative;
    std::replace(rel.begin(), rel.end(), '\\', '/');
    if (!rel.empty() && rel[0] == '/') {
        return qcNormalisePath(rel);
    }
    if (dir.empty() || dir == ".") {
        return qcNormalisePath(rel);
    }
    return qcNormalisePath(dir + "/" + rel);
}

std::string MemoryQcFileSystem::find(const std::string& dir, const std::string& relative,
                                     bool& caseMismatch)
{
    caseMismatch = false;
    std::string path = qcJoinPath(dir, relative);
    if (files.count(path)) {
        return path;
    }
    const std::string want = asciiLower(path);
    for (const auto& [name, bytes] : files) {
        if (asciiLower(name) == want) {
            caseMismatch = true;
            return name;
        }
    }
    return {};
}

bool MemoryQcFileSystem::read(const std::string& path, std::string& bytes, std::string& error)
{
    auto it = files.find(path);
    if (it == files.end()) {
        error = "cannot open '" + path + "'";
        return false;
    }
    bytes = it->second;
    return true;
}

namespace {

struct Token {
    std::string text;
    SourceLoc where;
    std::uint32_t file = 0; // index into Reader::m_sources
    bool quoted = false;
    bool newline = false; // first token of its line (or of its file / macro expansion)
    bool isOpen() const noexcept { return !quoted && text == "{"; }
    bool isClose() const noexcept { return !quoted && text == "}"; }
    bool isBrace() const noexcept { return isOpen() || isClose(); }
};

struct Node {
    std::vector<Token> tokens;
    bool hasBlock = false;
    SourceLoc blockWhere;
    std::vector<Node> block;
};

std::vector<Node> joinContinuations(const std::vector<Node>& nodes);

struct Source {
    std::string path; // as used in diagnostics
    std::string dir;
    std::vector<Token> tokens;
    // Lines whose raw text holds `\\` anywhere (comments and quotes included): studiomdl's
    // DefineMacro continues a macro body past such a line, whatever surrounds the `\\`.
    std::vector<std::uint32_t> backslashLines;
};

struct Frame {
    const std::vector<Token>* tokens = nullptr;
    std::vector<Token> own; // macro expansions own their tokens
    std::size_t pos = 0;
    std::uint32_t source = 0; // file of the tokens (files) / of the invocation (macros)
    bool macro = false;
    SourceLoc origin; // macros: the invocation
};

struct Macro {
    std::vector<std::string> params;
    std::vector<Token> body;
};

// Command table: which studiomdl knows each command (S = Source, G = GoldSrc).
enum : unsigned { kS = 1, kG = 2, kSG = 3 };
const std::unordered_map<std::string_view, unsigned>& commandTable()
{
    static const std::unordered_map<std::string_view, unsigned> t = {
        {"modelname", kSG},
        {"cd", kSG},
        {"cdtexture", kG},
        {"cliptotextures", kSG},
        {"externaltextures", kSG},
        {"texrendermode", kG},
        {"gamma", kSG},
        {"flags", kSG},
        {"sequencegroup", kG},
        {"sequencegroupsize", kG},
        {"pivot", kG},
        {"mirrorbone", kG},
        {"rotate", kG},
        {"lookat", kG},
        {"body", kSG},
        {"bodygroup", kSG},
        {"sequence", kSG},
        {"scale", kSG},
        {"root", kSG},
        {"origin", kSG},
        {"eyeposition", kSG},
        {"bbox", kSG},
        {"cbox", kSG},
        {"hbox", kSG},
        {"attachment", kSG},
        {"controller", kSG},
        {"texturegroup", kSG},
        {"renamebone", kSG},
        {"hgroup", kSG},
        {"include", kSG},
        {"cdmaterials", kS},
        {"pushd", kS},
        {"popd", kS},
        {"screenalign", kS},
        {"model", kS},
        {"collisionmodel", kS},
        {"collisionjoints", kS},
        {"collisiontext", kS},
        {"appendsource", kS},
        {"animation", kS},
        {"autocenter", kS},
        {"append", kS},
        {"prepend", kS},
        {"continue", kS},
        {"declaresequence", kS},
        {"declareanimation", kS},
        {"cmdlist", kS},
        {"animblocksize", kS},
        {"weightlist", kS},
        {"defaultweightlist", kS},
        {"ikchain", kS},
        {"ikautoplaylock", kS},
        {"illumposition", kS},
        {"upaxis", kS},
        {"hboxset", kS},
        {"surfaceprop", kS},
        {"jointsurfaceprop", kS},
        {"contents", kS},
        {"jointcontents", kS},
        {"bonemerge", kS},
        {"skinnedlods", kS},
        {"stripboneprefix", kS},
        {"renameboneprefix", kS},
        {"collapsebones", kS},
        {"collapsebonesaggressive", kS},
        {"alwayscollapse", kS},
        {"proceduralbones", kS},
        {"skiptransition", kS},
        {"calctransitions", kS},
        {"staticprop", kS},
        {"zbrush", kS},
        {"realignbones", kS},
        {"forcerealign", kS},
        {"lod", kS},
        {"shadowlod", kS},
        {"poseparameter", kS},
        {"heirarchy", kS},
        {"hierarchy", kS},
        {"insertbone", kS},
        {"limitrotation", kS},
        {"definebone", kS},
        {"jigglebone", kS},
        {"includemodel", kS},
        {"opaque", kS},
        {"mostlyopaque", kS},
        {"keyvalues", kS},
        {"obsolete", kS},
        {"renamematerial", kS},
        {"fakevta", kS},
        {"noforcedfade", kS},
        {"skipboneinbbox", kS},
        {"forcephonemecrossfade", kS},
        {"lockbonelengths", kS},
        {"unlockdefinebones", kS},
        {"constantdirectionallight", kS},
        {"minlod", kS},
        {"allowrootlods", kS},
        {"bonesaveframe", kS},
        {"ambientboost", kS},
        {"centerbonesonverts", kS},
        {"donotcastshadows", kS},
        {"casttextureshadows", kS},
        {"motionrollback", kS},
        {"sectionframes", kS},
        {"clampworldspace", kS},
        {"maxeyedeflection", kS},
        {"addsearchdir", kS},
        {"boneflexdriver", kS},
        {"maxverts", kS},
        {"preservetriangleorder", kS},
        {"qcassert", kS},
        {"lcaseallsequences", kS},
        {"defaultfadein", kS},
        {"defaultfadeout", kS},
        {"noautoik", kS},
        {"autoik", kS},
        {"allowactivityname", kS},
        {"pointconstraint", kS},
        {"orientconstraint", kS},
        {"aimconstraint", kS},
        {"parentconstraint", kS},
        {"attachmentconstraint", kS},
        {"twistcontroller", kS},
        {"bonealwayssetup", kS},
        {"checkuv", kS},
        {"phyname", kS},
        {"nocollisionmodel", kS},
        {"lockboneposition", kS},
        {"definevariable", kSG},
        {"definemacro", kSG},
        {"eyelid", kS},
        {"spherenormals", kS},
        {"heirarchyoverride", kS},
        {"linearhierarchy", kS},
        {"mkdir", kS},
        {"bodygroupname", kS},
        {"collisionprecision", kS},
        {"notvertexcache", kS},
        {"boneremap", kS},
        {"weightlistoverride", kS},
        {"bonecompression", kS},
        {"alwaysbuild", kS},
        {"subd", kS},
        {"cloth", kS},
        {"contentsflags", kS},
        {"jiggleboneoverride", kS},
    };
    return t;
}

// GoldSrc-only commands: their presence makes an Auto profile GoldSrc. $flags is one: HL1
// studiomdl.c's ParseScript has it, Source's command tables (SDK 2013, episode1) do not.
bool isGoldSrcSign(std::string_view name)
{
    return name == "cdtexture" || name == "texrendermode" || name == "sequencegroup" ||
           name == "sequencegroupsize" || name == "pivot" || name == "mirrorbone" ||
           name == "flags";
}

// The commands Pathos's vbmcompiler knows (its qcparser.cpp command table); any other stops it
// ("Uknown command"). It has no $include, $definevariable or macros.
bool isPathosCommand(std::string_view name)
{
    static const std::unordered_set<std::string_view> t = {"modelname",
                                                           "cd",
                                                           "cdtexture",
                                                           "scale",
                                                           "scale_movement",
                                                           "root",
                                                           "pivot",
                                                           "controller",
                                                           "lod",
                                                           "body",
                                                           "flexcontroller",
                                                           "bodygroup",
                                                           "sequence",
                                                           "eyeposition",
                                                           "origin",
                                                           "bbox",
                                                           "cbox",
                                                           "mirrorbone",
                                                           "gamma",
                                                           "flags",
                                                           "texturegroup",
                                                           "hgroup",
                                                           "hbox",
                                                           "attachment",
                                                           "renamebone",
                                                           "centerlight",
                                                           "noblend",
                                                           "protected",
                                                           "texrendermode",
                                                           "movement_bone",
                                                           "skylight",
                                                           "cliptotextures"};
    return t.count(name) > 0;
}

// Commands only vbmcompiler has: their presence makes an Auto profile pathos.
bool isPathosSign(std::string_view name)
{
    return name == "protected" || name == "noblend" || name == "movement_bone" ||
           name == "scale_movement";
}

// $sequence / $animation options and how many arguments each takes (-1: the rest of the line).
const std::unordered_map<std::string_view, int>& sequenceOptions()
{
    static const std::unordered_map<std::string_view, int> t = {
        {"fps", 1},
        {"frames", 2},
        {"frame", 2},
        {"loop", 0},
        {"snap", 0},
        {"delta", 0},
        {"predelta", 0},
        {"autoplay", 0},
        {"hidden", 0},
        {"realtime", 0},
        {"worldspace", 0},
        {"subtract", 2},
        {"presubtract", 2},
        {"blend", 3},
        {"blendwidth", 1},
        {"blendref", 1},
        {"blendcomp", 1},
        {"blendcenter", 1},
        {"calcblend", 3},
        {"activity", 2},
        {"event", -2},
        {"ikrule", -1},
        {"ikfixup", -1},
        {"weightlist", 1},
        {"node", 1},
        {"transition", 2},
        {"rtransition", 2},
        {"exitphase", 1},
        {"rotate", 1},
        {"origin", 3},
        {"angles", 3},
        {"scale", 1},
        {"fadein", 1},
        {"fadeout", 1},
        {"numframes", 1},
        {"addlayer", 1},
        {"blendlayer", 5},
        // blendlayer's trailing flags (studiomdl reads them after its five values)
        {"local", 0},
        {"noblend", 0},
        {"poseparameter", 1},
        {"iklock", 3},
        {"keyvalues", 0},
        {"posecycle", 1},
        {"noanimation", 0},
        {"noautoik", 0},
        {"autoik", 0},
        {"motionrollback", 1},
        {"walkframe", 2},
        {"lx", 0},
        {"ly", 0},
        {"lz", 0},
        {"lxr", 0},
        {"lyr", 0},
        {"lzr", 0},
        {"lm", 0},
        {"lq", 0},
        {"xr", 0},
        {"ax", 0},
        {"ay", 0},
        {"az", 0},
        {"axr", 0},
        {"ayr", 0},
        {"azr", 0},
        {"yr", 0},
        {"zr", 0},
        {"x", 0},
        {"y", 0},
        {"z", 0},
        {"alignto", 1},
        {"align", 3},
        {"alignboneto", 2},
        {"alignbone", 2}, // then motion controls (LX ...) and frame numbers
        {"match", 1},
        {"matchblend", 5},
        {"worldspaceblend", 1},
        {"worldspaceblendloop", 2},
        {"walkalignto", 2},
        {"walkalign", 2},
        {"lineardelta", 0},
        {"splinedelta", 0},
        {"compress", 1},
        {"cmdlist", 1},
        {"rotateto", 1},
        {"noanimblock", 0},
        {"noanimblockstall", 0},
        {"entrynode", 1},
        {"exitnode", 1},
        {"counterrotate", 1},
        {"counterrotateto", 3},
        {"activitymodifier", 1},
        {"fixuploop", 2},
        {"reverse", 0},
        {"noforceloop", 0},
        {"startloop", 1},
        {"derivative", 1},
        {"localhierarchy", 4},
        {"forceloop", 0},
        {"spline", 0},
        {"xfade", 0},
        {"post", 0},
        {"deform", 0},
        {"pivot", 2},
        {"control", 0},
        {"noanimation", 0},
        {"animation", 1},
        {"blendcomp", 1},
        {"walkalongbones", 0},
        {"hierarchy", 4},
        {"fudgeloop", 0},
        {"cycle", 0},
        {"weightlistoverride", 1},
    };
    return t;
}

bool isNumberToken(const Token& t)
{
    float v = 0;
    return !t.quoted && parseFloat(t.text, v);
}

class Reader {
public:
    Reader(std::string_view bytes, const QcReadOptions& opt) : m_opt(opt)
    {
        m_project.file = opt.fileName;
        auto src = std::make_unique<Source>();
        src->path = opt.fileName;
        src->dir = dirOf(opt.fileName);
        m_qcDir = src->dir;
        m_sources.push_back(std::move(src));
        lex(bytes, 0);
        Frame f;
        f.tokens = &m_sources[0]->tokens;
        f.source = 0;
        m_stack.push_back(std::move(f));
        m_active.push_back(qcNormalisePath(opt.fileName));
    }

    QcProject run();

private:
    static std::string dirOf(const std::string& path)
    {
        std::string p = path;
        std::replace(p.begin(), p.end(), '\\', '/');
        const auto slash = p.find_last_of('/');
        if (slash == std::string::npos) {
            return "";
        }
        return slash == 0 ? "/" : p.substr(0, slash);
    }

    Diagnostic& report(Severity s, std::string_view id, std::uint32_t source, SourceLoc where,
                       std::string message)
    {
        Diagnostic d;
        d.severity = s;
        d.id = id;
        d.message = std::move(message);
        d.file = m_sources[source]->path;
        d.where = where;
        m_project.diagnostics.push_back(std::move(d));
        return m_project.diagnostics.back();
    }
    Diagnostic& error(std::string_view id, const Token& t, std::string message)
    {
        return report(Severity::Error, id, t.file, t.where, std::move(message));
    }
    QcWhere at(const Token& t) const { return {m_sources[t.file]->path, t.where}; }

    void limit(const char* key, const Token& t, std::string message)
    {
        if (m_limitsHit.insert(key).second) {
            error(ids::kQcLimit, t, std::move(message));
        }
    }

    void lex(std::string_view text, std::uint32_t source);
    std::optional<Token> pull();        // raw token of the top frame, pops finished frames
    std::optional<Token> pullCounted(); // pull, the token limit, variables
    bool isMacroCall(const Token& t) const;
    std::optional<Token> rawSameLine(); // next token of the top frame if on the same line
    std::optional<Token> next();
    const Token* peek();
    void expandVariables(Token& t);
    bool directive(Token& t);
    void include(const Token& cmd);
    void defineMacro(const Token& cmd);
    void invokeMacro(const Token& cmd, const Macro& m);
    std::vector<Node> parseBlock(const Token& open, std::uint32_t depth);
    void parseRest(Node& n, std::uint32_t depth);
    void command(const Node& n);
    std::int32_t addFile(QcFileRef::Kind kind, const Token& t, std::string_view command);

    // command handlers
    void bodyCommand(const Node& n, const std::string& name);
    void sequenceCommand(const Node& n, bool animation);
    void parseAnimLine(const std::vector<Token>& toks, std::size_t from, QcAnimOptions& o,
                       std::vector<Token>& sources);
    void lodCommand(const Node& n, bool shadow);
    void modelOption(const Node& c, std::int32_t body, QcBodygroup& g, std::int32_t& vta);
    void flexRule(const Node& c, std::int32_t body);
    void jiggleCommand(const Node& n);
    bool jiggleParameter(JiggleParams& p, std::uint32_t group, const std::vector<Token>& toks,
                         std::size_t& i);
    void boneRef(const Token& t, std::string_view command)
    {
        // Crowbar writes `$rootbone " "` for "no root bone": a blank name names nothing.
        if (t.text.find_first_not_of(" \t") == std::string::npos) {
            return;
        }
        m_project.boneRefs.push_back({t.text, std::string(command), at(t)});
    }
    bool needArgs(const Node& n, std::size_t count, const char* form);
    float number(const Token& t);

    void finish();

    const QcReadOptions& m_opt;
    QcProject m_project;
    std::vector<std::unique_ptr<Source>> m_sources;
    // A deque: pushing a frame keeps the others in place, and a macro frame's `tokens` points at
    // its own `own` vector (a std::vector of frames moved them and left those pointers dangling).
    std::deque<Frame> m_stack;
    std::vector<std::string> m_active; // include chain (normalised), for cycles
    std::optional<Token> m_peeked;
    std::unordered_map<std::string, std::string> m_variables; // lower-case name -> value
    std::unordered_map<std::string, Macro> m_macros;          // lower-case name
    std::vector<std::string> m_cd;                            // $pushd / $cd stack
    std::string m_qcDir;
    std::string m_hboxSet;
    std::size_t m_totalTokens = 0;
    std::uint32_t m_faceSeq = 0; // QcFace items in the order studiomdl meets them
    std::uint32_t m_includes = 0;
    std::uint64_t m_includeBytes = 0;
    bool m_stopped = false;
    bool m_pathosSign = false; // vbmcompiler-only syntax seen (flex on $body, $lod FILE ...)
    // An activity followed by no number: where, the activity, the word read as its weight
    // (empty: none on the line). Graded by profile in finish().
    struct ActivityMisread {
        QcWhere at;
        std::string activity;
        std::string word;
    };
    std::vector<ActivityMisread> m_activityMisreads;
    // An ACT_ word HL1 studiomdl's lookupActivity does not know: where, the word, and the
    // folders an animation file of that name would be looked up in. Graded in finish().
    struct UnknownActivity {
        QcWhere at;
        std::string word;
        std::vector<std::string> dirs;
    };
    std::vector<UnknownActivity> m_hl1UnknownActivities;
    // A word in a $bodygroup block that is neither `studio FILE` nor `blank`: graded by profile
    // in finish() (HL1 skips it, Source and vbmcompiler stop).
    struct BodygroupStray {
        QcWhere at;
        std::string word;
    };
    std::vector<BodygroupStray> m_bodygroupStrays;
    bool pathosOutputBeside() const;
    std::unordered_set<std::string> m_limitsHit;
};

void Reader::lex(std::string_view text, std::uint32_t source)
{
    std::vector<std::uint32_t>& slashes = m_sources[source]->backslashLines;
    {
        std::uint32_t at = 1;
        std::size_t counted = 0;
        for (std::size_t k = text.find("\\\\"); k != std::string_view::npos;
             k = text.find("\\\\", k + 2)) {
            at += static_cast<std::uint32_t>(
                std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                           text.begin() + static_cast<std::ptrdiff_t>(k), '\n'));
            counted = k;
            if (slashes.empty() || slashes.back() != at) {
                slashes.push_back(at);
            }
        }
    }
    std::vector<Token>& out = m_sources[source]->tokens;
    const std::size_t n = text.size();
    std::size_t i = 0;
    std::uint32_t line = 1;
    std::size_t lineStart = 0;
    bool newline = true;
    auto loc = [&](std::size_t pos) {
        return SourceLoc{line, static_cast<std::uint32_t>(pos - lineStart + 1),
                         static_cast<std::uint64_t>(pos)};
    };
    auto push = [&](std::string s, SourceLoc where, bool quoted) {
        if (s.size() > m_opt.limits.maxTokenBytes) {
            Token t;
            t.file = source;
            t.where = where;
            limit("token", t,
                  "token of " + groupedCount(s.size()) + " bytes is longer than the limit of " +
                      groupedCount(m_opt.limits.maxTokenBytes));
            s.resize(m_opt.limits.maxTokenBytes);
        }
        Token t;
        t.text = std::move(s);
        t.where = where;
        t.file = source;
        t.quoted = quoted;
        t.newline = newline;
        newline = false;
        out.push_back(std::move(t));
    };
    while (i < n) {
        if (out.size() >= m_opt.limits.maxTotalTokens) {
            Token t;
            t.file = source;
            t.where = loc(i);
            limit("file-tokens", t,
                  "more than " + groupedCount(m_opt.limits.maxTotalTokens) +
                      " tokens in one file; the rest is not read");
            break;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++i;
            ++line;
            lineStart = i;
            newline = true;
            continue;
        }
        if (c <= 32) {
            ++i;
            continue;
        }
        if (c == ';' || c == '#' || (c == '/' && i + 1 < n && text[i + 1] == '/')) {
            while (i < n && text[i] != '\n') {
                ++i;
            }
            continue;
        }
        if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            const SourceLoc start = loc(i);
            i += 2;
            bool closed = false;
            while (i < n) {
                if (text[i] == '*' && i + 1 < n && text[i + 1] == '/') {
                    i += 2;
                    closed = true;
                    break;
                }
                if (text[i] == '\n') {
                    ++line;
                    lineStart = i + 1;
                    newline = true;
                }
                ++i;
            }
            if (!closed) {
                report(Severity::Error, ids::kSyntaxMissingEnd, source, start,
                       "'/*' comment is not closed before the end of the file");
            }
            continue;
        }
        if (c == '"') {
            const SourceLoc start = loc(i);
            ++i;
            const std::size_t from = i;
            const std::uint32_t startLine = line;
            const std::size_t startLineStart = lineStart;
            while (i < n && text[i] != '"') {
                if (text[i] == '\n') {
                    ++line;
                    lineStart = i + 1;
                }
                ++i;
            }
            if (i >= n) {
                // studiomdl would read on to the end of the file; keep the rest of the line.
                report(Severity::Error, ids::kSyntaxUnterminatedString, source, start,
                       "quoted string is not closed");
                std::size_t eol = text.find('\n', from);
                if (eol == std::string_view::npos) {
                    eol = n;
                }
                std::string_view s = text.substr(from, eol - from);
                if (!s.empty() && s.back() == '\r') {
                    s.remove_suffix(1);
                }
                push(std::string(s), start, true);
                line = startLine;
                lineStart = startLineStart;
                i = eol;
                continue;
            }
            push(std::string(text.substr(from, i - from)), start, true);
            ++i;
            continue;
        }
        if (c == '{' || c == '}') {
            push(std::string(1, static_cast<char>(c)), loc(i), false);
            ++i;
            continue;
        }
        const std::size_t from = i;
        while (i<n&& static_cast<unsigned char>(text[i])> 32 && text[i] != '{' && text[i] != '}' &&
               text[i] != '"') {
            ++i;
        }
        push(std::string(text.substr(from, i - from)), loc(from), false);
    }
}

std::optional<Token> Reader::pull()
{
    while (!m_stack.empty()) {
        Frame& f = m_stack.back();
        if (f.pos >= f.tokens->size()) {
            if (!f.macro && m_stack.size() > 1) {
                m_active.pop_back();
            }
            m_stack.pop_back();
            continue;
        }
        Token t = (*f.tokens)[f.pos++];
        if (f.macro) {
            t.file = f.source;
            t.where = f.origin;
        }
        return t;
    }
    return std::nullopt;
}

std::optional<Token> Reader::rawSameLine()
{
    if (m_stack.empty()) {
        return std::nullopt;
    }
    Frame& f = m_stack.back();
    if (f.pos >= f.tokens->size() || (*f.tokens)[f.pos].newline) {
        return std::nullopt;
    }
    Token t = (*f.tokens)[f.pos++];
    if (f.macro) {
        t.file = f.source;
        t.where = f.origin;
    }
    expandVariables(t);
    return t;
}

void Reader::expandVariables(Token& t)
{
    if (t.text.find('$') == std::string::npos || t.text.size() < 3) {
        return;
    }
    std::string out;
    const std::string& s = t.text;
    std::size_t i = 0;
    bool changed = false;
    while (i < s.size()) {
        if (s[i] == '$') {
            std::size_t j = i + 1;
            while (j < s.size() &&
                   (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) {
                ++j;
            }
            if (j < s.size() && s[j] == '$' && j > i + 1) {
                const std::string name = asciiLower(std::string_view(s).substr(i + 1, j - i - 1));
                auto it = m_variables.find(name);
                if (it != m_variables.end()) {
                    out += it->second;
                    changed = true;
                    i = j + 1;
                    if (out.size() > m_opt.limits.maxTokenBytes) {
                        limit("token", t,
                              "variable expansion makes a token longer than the limit of " +
                                  groupedCount(m_opt.limits.maxTokenBytes) + " bytes");
                        out.resize(m_opt.limits.maxTokenBytes);
                        break;
                    }
                    continue;
                }
                error(ids::kQcUndefinedVariable, t,
                      "variable '" + s.substr(i + 1, j - i - 1) + "' is not defined");
            }
        }
        out += s[i];
        ++i;
    }
    if (changed) {
        t.text = std::move(out);
    }
}

std::optional<Token> Reader::pullCounted()
{
    if (m_stopped) {
        return std::nullopt;
    }
    std::optional<Token> t = pull();
    if (!t) {
        return std::nullopt;
    }
    if (++m_totalTokens > m_opt.limits.maxTotalTokens) {
        limit("tokens", *t,
              "more than " + groupedCount(m_opt.limits.maxTotalTokens) +
                  " tokens after includes and macros; the rest is not read");
        m_stopped = true;
        m_stack.clear();
        return std::nullopt;
    }
    expandVariables(*t);
    return t;
}

bool Reader::isMacroCall(const Token& t) const
{
    return !t.quoted && t.text.size() > 1 && t.text[0] == '$' &&
           m_macros.count(asciiLower(std::string_view(t.text).substr(1))) > 0;
}

// Directives ($include, $pushd, ... and macros at the start of a line) run when their token is
// taken, never when it is only peeked at: a `$popd` after a command must not change the folder
// that command's files resolve in. studiomdl's GetToken also expands a macro wherever its name
// appears (`$sequence walk { $a_WalkBlends activity ACT_WALK 1 }`).
std::optional<Token> Reader::next()
{
    for (;;) {
        std::optional<Token> t;
        if (m_peeked) {
            t = std::move(m_peeked);
            m_peeked.reset();
        } else {
            t = pullCounted();
        }
        if (!t) {
            return std::nullopt;
        }
        if (!t->quoted && t->text.size() > 1 && t->text[0] == '$') {
            if (t->newline && directive(*t)) {
                continue;
            }
            if (!t->newline && isMacroCall(*t)) {
                invokeMacro(*t, m_macros.at(asciiLower(std::string_view(t->text).substr(1))));
                continue;
            }
        }
        return t;
    }
}

const Token* Reader::peek()
{
    if (!m_peeked) {
        m_peeked = pullCounted();
    }
    return m_peeked ? &*m_peeked : nullptr;
}

bool Reader::directive(Token& t)
{
    const std::string name = asciiLower(std::string_view(t.text).substr(1));
    auto record = [&](std::vector<std::string> args) {
        QcCommand c;
        c.name = name;
        c.args = std::move(args);
        c.at = at(t);
        m_project.commands.push_back(std::move(c));
    };
    if (name == "include") {
        include(t);
        return true;
    }
    if (name == "definevariable") {
        auto var = rawSameLine();
        auto value = var ? rawSameLine() : std::nullopt;
        if (!var || !value) {
            error(ids::kSyntaxShortLine, t, "$definevariable needs a name and a value");
            record({});
            return true;
        }
        m_variables[asciiLower(var->text)] = value->text;
        record({var->text, value->text});
        while (rawSameLine()) {
        }
        return true;
    }
    if (name == "definemacro") {
        defineMacro(t);
        return true;
    }
    if (name == "pushd" || name == "cd") {
        auto dir = rawSameLine();
        if (!dir) {
            error(ids::kSyntaxShortLine, t, "$" + name + " needs a folder");
            record({});
            return true;
        }
        const std::string base = m_cd.empty() ? m_qcDir : m_cd.back();
        const std::string full = qcJoinPath(base, dir->text);
        if (name == "cd" && !m_cd.empty()) {
            m_cd.back() = full;
        } else {
            m_cd.push_back(full);
        }
        record({dir->text});
        return true;
    }
    if (name == "popd") {
        if (m_cd.empty()) {
            error(ids::kQcSyntax, t, "$popd without a matching $pushd");
        } else {
            m_cd.pop_back();
        }
        record({});
        return true;
    }
    auto it = m_macros.find(name);
    if (it != m_macros.end()) {
        invokeMacro(t, it->second);
        return true;
    }
    return false;
}

void Reader::include(const Token& cmd)
{
    auto arg = rawSameLine();
    QcCommand c;
    c.name = "include";
    c.at = at(cmd);
    if (!arg) {
        error(ids::kSyntaxShortLine, cmd, "$include needs a file name");
        m_project.commands.push_back(std::move(c));
        return;
    }
    c.args.push_back(arg->text);
    m_project.commands.push_back(std::move(c));
    while (rawSameLine()) {
    }
    m_project.includes.push_back({arg->text, at(*arg)});
    QcFileRef ref;
    ref.kind = QcFileRef::Kind::Include;
    ref.path = arg->text;
    ref.command = "include";
    ref.searchDir = m_cd.empty() ? std::string() : m_cd.back();
    ref.scriptDir = m_sources[cmd.file]->dir;
    ref.at = at(*arg);
    // The including file's folder, then the QC's, then the $pushd / $cd folders (top first).
    std::vector<std::string> dirs{m_sources[cmd.file]->dir, m_qcDir};
    for (auto it = m_cd.rbegin(); it != m_cd.rend(); ++it) {
        dirs.push_back(*it);
    }
    std::string found;
    bool mismatch = false;
    if (m_opt.fs) {
        for (const std::string& d : dirs) {
            bool cm = false;
            found = m_opt.fs->find(d, arg->text, cm);
            if (!found.empty()) {
                mismatch = cm;
                break;
            }
        }
    }
    ref.resolved = found;
    ref.caseMismatch = mismatch;
    m_project.files.push_back(ref);
    if (found.empty()) {
        error(ids::kQcMissingFile, *arg, "included file '" + arg->text + "' is not found");
        return;
    }
    if (mismatch) {
        report(Severity::Note, ids::kQcCaseMismatch, arg->file, arg->where,
               "'" + arg->text + "' found as '" + found + "' only by ignoring case");
    }
    const std::string key = qcNormalisePath(found);
    if (std::find(m_active.begin(), m_active.end(), key) != m_active.end()) {
        Diagnostic& d = error(ids::kQcIncludeCycle, *arg,
                              "'" + arg->text + "' includes itself (through " +
                                  std::to_string(m_active.size()) + " files)");
        (void)d;
        return;
    }
    std::size_t fileDepth = 0;
    for (const Frame& f : m_stack) {
        fileDepth += f.macro ? 0 : 1;
    }
    if (fileDepth > m_opt.limits.maxIncludeDepth) {
        limit("include-depth", *arg,
              "includes nested deeper than " + std::to_string(m_opt.limits.maxIncludeDepth) +
                  " files; '" + arg->text + "' is not read");
        return;
    }
    if (++m_includes > m_opt.limits.maxIncludes) {
        limit("includes", *arg,
              "more than " + groupedCount(m_opt.limits.maxIncludes) +
                  " included files; the others are not read");
        return;
    }
    std::string bytes, err;
    if (!m_opt.fs->read(found, bytes, err)) {
        error(ids::kQcMissingFile, *arg,
              "included file '" + arg->text + "' cannot be read: " + err);
        return;
    }
    m_includeBytes += bytes.size();
    if (m_includeBytes > m_opt.limits.maxIncludeBytes) {
        limit("include-bytes", *arg,
              "included files add up to more than " + groupedCount(m_opt.limits.maxIncludeBytes) +
                  " bytes; the others are not read");
        return;
    }
    auto src = std::make_unique<Source>();
    src->path = found;
    src->dir = dirOf(found);
    m_sources.push_back(std::move(src));
    const auto index = static_cast<std::uint32_t>(m_sources.size() - 1);
    lex(bytes, index);
    if (m_sources[index]->tokens.empty()) {
        return;
    }
    Frame f;
    f.tokens = &m_sources[index]->tokens;
    f.source = index;
    m_stack.push_back(std::move(f));
    m_active.push_back(key);
}

void Reader::defineMacro(const Token& cmd)
{
    QcCommand c;
    c.name = "definemacro";
    c.at = at(cmd);
    auto name = rawSameLine();
    if (!name) {
        error(ids::kSyntaxShortLine, cmd, "$definemacro needs a name");
        m_project.commands.push_back(std::move(c));
        return;
    }
    c.args.push_back(name->text);
    Macro m;
    bool continued = false;
    while (auto p = rawSameLine()) {
        if (!p->quoted && p->text == "\\\\") {
            continued = true;
            break;
        }
        m.params.push_back(asciiLower(p->text));
        c.args.push_back(p->text);
    }
    while (rawSameLine()) {
    }
    // Body: studiomdl's DefineMacro scans raw lines: after each line holding `\\` anywhere (a
    // comment's included; the rest of the line after a real `\\` is blanked) it takes the next
    // physical line, so an empty or plain comment line ends the macro.
    if (!m_stack.empty() && !m_stack.back().macro) {
        Frame& f = m_stack.back();
        const std::vector<std::uint32_t>& slashes = m_sources[f.source]->backslashLines;
        std::uint32_t line = cmd.where.line;
        while (std::binary_search(slashes.begin(), slashes.end(), line)) {
            ++line;
            bool first = true;
            bool blanked = false;
            while (f.pos < f.tokens->size() && (*f.tokens)[f.pos].where.line <= line) {
                Token t = (*f.tokens)[f.pos++];
                t.newline = first;
                first = false;
                if (blanked || (!t.quoted && t.text == "\\\\")) {
                    blanked = true;
                    continue;
                }
                m.body.push_back(std::move(t));
            }
        }
        continued = false;
    }
    // Inside a macro expansion there are no raw lines: lines of tokens ending in `\\`.
    while (continued && !m_stack.empty()) {
        Frame& f = m_stack.back();
        if (f.pos >= f.tokens->size()) {
            break;
        }
        continued = false;
        bool first = true;
        while (f.pos < f.tokens->size() && (first || !(*f.tokens)[f.pos].newline)) {
            Token t = (*f.tokens)[f.pos++];
            if (f.macro) {
                t.file = f.source;
                t.where = f.origin;
            }
            t.newline = first;
            first = false;
            if (continued) {
                continue; // after `\\` on its line
            }
            if (!t.quoted && t.text == "\\\\") {
                continued = true;
                continue;
            }
            m.body.push_back(std::move(t));
        }
    }
    m_macros[asciiLower(name->text)] = std::move(m);
    m_project.commands.push_back(std::move(c));
}

void Reader::invokeMacro(const Token& cmd, const Macro& m)
{
    // Exactly as many arguments as it has parameters (AddMacroToStack); the rest of the line
    // follows the expansion.
    std::vector<std::string> args;
    while (args.size() < m.params.size()) {
        auto a = rawSameLine();
        if (!a) {
            break;
        }
        args.push_back(a->text);
    }
    if (args.size() < m.params.size()) {
        error(ids::kSyntaxShortLine, cmd,
              "macro '" + cmd.text.substr(1) + "' takes " + std::to_string(m.params.size()) +
                  " arguments, got " + std::to_string(args.size()));
    }
    std::size_t macroDepth = 0;
    for (const Frame& f : m_stack) {
        macroDepth += f.macro ? 1 : 0;
    }
    if (macroDepth >= m_opt.limits.maxMacroDepth) {
        limit("macro-depth", cmd,
              "macros nested deeper than " + std::to_string(m_opt.limits.maxMacroDepth) +
                  " expansions ('" + cmd.text.substr(1) + "' expands itself?)");
        return;
    }
    Frame f;
    f.macro = true;
    f.source = cmd.file;
    f.origin = cmd.where;
    f.own.reserve(m.body.size());
    for (const Token& b : m.body) {
        Token t = b;
        if (t.text.find('$') != std::string::npos) {
            for (std::size_t p = 0; p < m.params.size(); ++p) {
                const std::string key = "$" + m.params[p] + "$";
                const std::string& value = p < args.size() ? args[p] : std::string();
                std::size_t pos = 0;
                std::string lowered = asciiLower(t.text);
                std::string out;
                std::size_t last = 0;
                while ((pos = lowered.find(key, last)) != std::string::npos) {
                    out.append(t.text, last, pos - last);
                    out += value;
                    last = pos + key.size();
                    if (out.size() > m_opt.limits.maxTokenBytes) {
                        break;
                    }
                }
                if (last != 0) {
                    out.append(t.text, std::min(last, t.text.size()), std::string::npos);
                    if (out.size() > m_opt.limits.maxTokenBytes) {
                        limit("token", cmd,
                              "macro expansion makes a token longer than the limit of " +
                                  groupedCount(m_opt.limits.maxTokenBytes) + " bytes");
                        out.resize(m_opt.limits.maxTokenBytes);
                    }
                    t.text = std::move(out);
                }
            }
        }
        f.own.push_back(std::move(t));
    }
    if (f.own.empty()) {
        return;
    }
    f.own.front().newline = cmd.newline;
    m_stack.push_back(std::move(f));
    m_stack.back().tokens = &m_stack.back().own;
}

void Reader::parseRest(Node& n, std::uint32_t depth)
{
    // The command's line, then its block (which may start on the next line), then what follows
    // the block on its closing line: more blocks (GoldSrc `{ event 1000 1 } { event 1004 4 }`)
    // and more options (`$sequence s { a b c } delta autoplay`: studiomdl's ParseSequence reads
    // on to the end of the line once the block is closed).
    for (;;) {
        const Token* p = nullptr;
        while ((p = peek()) && !p->newline && !p->isBrace()) {
            if (isMacroCall(*p)) {
                const Token call = std::move(*m_peeked);
                m_peeked.reset();
                invokeMacro(call, m_macros.at(asciiLower(std::string_view(call.text).substr(1))));
                continue;
            }
            n.tokens.push_back(*next());
        }
        if (!p || !p->isOpen() || (n.hasBlock && p->newline)) {
            return;
        }
        Token open = *next();
        if (!n.hasBlock) {
            n.hasBlock = true;
            n.blockWhere = open.where;
            n.block = parseBlock(open, depth + 1);
            continue;
        }
        Node w;
        w.hasBlock = true;
        w.blockWhere = open.where;
        w.block = parseBlock(open, depth + 1);
        n.block.push_back(std::move(w));
    }
}

std::vector<Node> Reader::parseBlock(const Token& open, std::uint32_t depth)
{
    std::vector<Node> out;
    if (depth > m_opt.limits.maxBlockDepth) {
        limit("blocks", open,
              "blocks nested deeper than " + std::to_string(m_opt.limits.maxBlockDepth) +
                  "; their contents are skipped");
        std::size_t open_ = 1;
        while (auto t = next()) {
            if (t->isOpen()) {
                ++open_;
            } else if (t->isClose() && --open_ == 0) {
                return out;
            }
        }
        error(ids::kSyntaxMissingEnd, open, "'{' is not closed before the end of the file");
        return out;
    }
    for (;;) {
        std::optional<Token> t = next();
        if (!t) {
            if (!m_stopped) {
                error(ids::kSyntaxMissingEnd, open, "'{' is not closed before the end of the file");
            }
            return out;
        }
        if (t->isClose()) {
            return out;
        }
        Node c;
        if (t->isOpen()) {
            c.hasBlock = true;
            c.blockWhere = t->where;
            c.block = parseBlock(*t, depth + 1);
            out.push_back(std::move(c));
            continue;
        }
        c.tokens.push_back(std::move(*t));
        parseRest(c, depth);
        out.push_back(std::move(c));
    }
}

std::int32_t Reader::addFile(QcFileRef::Kind kind, const Token& t, std::string_view command)
{
    QcFileRef r;
    r.kind = kind;
    r.path = t.text;
    r.command = std::string(command);
    r.searchDir = m_cd.empty() ? std::string() : m_cd.back();
    r.scriptDir = m_sources[t.file]->dir;
    r.at = at(t);
    m_project.files.push_back(std::move(r));
    return static_cast<std::int32_t>(m_project.files.size() - 1);
}

bool Reader::needArgs(const Node& n, std::size_t count, const char* form)
{
    if (n.tokens.size() >= count + 1) {
        return true;
    }
    error(ids::kSyntaxShortLine, n.tokens.front(),
          std::string(n.tokens.front().text) + " needs " + form + ", got " +
              std::to_string(n.tokens.size() - 1) + " argument" +
              (n.tokens.size() == 2 ? "" : "s"));
    return false;
}

float Reader::number(const Token& t)
{
    float v = 0;
    if (!parseFloat(t.text, v)) {
        error(ids::kSyntaxBadNumber, t, "expected a number, got '" + t.text + "'");
        return 0;
    }
    return v;
}

// Every token of a node and its blocks, in order (texture group rows, weight lists).
void flatten(const Node& n, std::vector<Token>& out)
{
    out.insert(out.end(), n.tokens.begin(), n.tokens.end());
    for (const Node& c : n.block) {
        flatten(c, out);
    }
}

// $jigglebone (docs/jiggle.md): the property groups and their parameters as studiomdl's
// Cmd_JiggleBone reads them (Source SDK 2013 studiomdl.cpp, read, not copied): a name it does
// not know stops the compile; stiffness and damping are clamped to 0..1000; angles are degrees.
void Reader::jiggleCommand(const Node& n)
{
    QcJiggleBone j;
    j.bone = n.tokens[1].text;
    j.at = at(n.tokens[1]);
    JiggleParams& p = j.params;
    if (n.tokens.size() > 2) {
        error(ids::kJiggleUnknownParameter, n.tokens[2],
              "$jigglebone: '" + n.tokens[2].text + "' before the block; studiomdl stops here");
    }
    for (const Node& group : n.block) {
        const Token& head = group.tokens.front();
        const std::string kw = asciiLower(head.text);
        std::uint32_t flag = 0;
        if (kw == "is_flexible") {
            flag = JiggleParams::Flexible;
            p.flags |= JiggleParams::Flexible | JiggleParams::LengthConstraint;
        } else if (kw == "is_rigid") {
            flag = JiggleParams::Rigid;
            p.flags |= JiggleParams::Rigid | JiggleParams::LengthConstraint;
        } else if (kw == "has_base_spring") {
            flag = JiggleParams::BaseSpring;
            p.flags |= JiggleParams::BaseSpring;
        } else if (kw == "is_boing") {
            flag = JiggleParams::Boing;
            p.flags |= JiggleParams::Boing;
        } else {
            error(ids::kJiggleUnknownParameter, head,
                  "$jigglebone: '" + head.text +
                      "' is not a property group (is_flexible, is_rigid, has_base_spring, "
                      "is_boing); studiomdl stops here");
            continue;
        }
        std::vector<Token> toks(group.tokens.begin() + 1, group.tokens.end());
        for (const Node& c : group.block) {
            flatten(c, toks);
        }
        for (std::size_t i = 0; i < toks.size();) {
            if (!jiggleParameter(p, flag, toks, i)) {
                break; // studiomdl stops at the first unknown name
            }
        }
    }
    const auto warn = [&](std::string_view id, std::string message) {
        report(Severity::Warning, id, n.tokens[1].file, n.tokens[1].where, std::move(message));
    };
    if ((p.flags & (JiggleParams::Flexible | JiggleParams::Rigid | JiggleParams::BaseSpring |
                    JiggleParams::Boing)) == 0) {
        warn(ids::kJiggleNoKind, "$jigglebone '" + j.bone +
                                     "' has no property group (is_flexible, is_rigid, "
                                     "has_base_spring, is_boing): the bone never moves");
    }
    if ((p.flags & JiggleParams::Flexible) && (p.flags & JiggleParams::Rigid)) {
        warn(ids::kJiggleConflictingKinds,
             "$jigglebone '" + j.bone +
                 "' is both is_flexible and is_rigid: the engine runs the flexible springs");
    }
    if ((p.flags & JiggleParams::BaseSpring) && (p.flags & JiggleParams::Boing)) {
        warn(ids::kJiggleConflictingKinds,
             "$jigglebone '" + j.bone +
                 "' has both has_base_spring and is_boing: the engine ignores is_boing");
    }
    if ((p.flags & (JiggleParams::Flexible | JiggleParams::Rigid)) && p.length <= 0.0f) {
        warn(ids::kJiggleZeroLength,
             "$jigglebone '" + j.bone + "' has length " + formatFloat(p.length) +
                 ": its tip sits on its base, so the engine has no direction to point it in");
    }
    m_project.jiggleBones.push_back(std::move(j));
}

bool Reader::jiggleParameter(JiggleParams& p, std::uint32_t group, const std::vector<Token>& toks,
                             std::size_t& i)
{
    using JP = JiggleParams;
    const Token& name = toks[i];
    const std::string key = asciiLower(name.text);
    constexpr std::uint32_t kTip = JP::Flexible | JP::Rigid | JP::BaseSpring;
    struct Row {
        const char* name;
        std::uint32_t groups; // where studiomdl accepts it
        int count;            // values after the name
        bool clamped;         // stiffness / damping: 0..1000
        bool degrees;
        float JP::*a;
        float JP::*b;
        std::uint32_t flag;
    };
    static const Row kRows[] = {
        {"length", kTip, 1, false, false, &JP::length, nullptr, 0},
        {"tip_mass", kTip, 1, false, false, &JP::tipMass, nullptr, 0},
        {"angle_constraint", kTip, 1, false, true, &JP::angleLimit, nullptr, JP::AngleConstraint},
        {"yaw_constraint", kTip, 2, false, true, &JP::minYaw, &JP::maxYaw, JP::YawConstraint},
        {"yaw_friction", kTip, 1, false, false, &JP::yawFriction, nullptr, 0},
        {"yaw_bounce", kTip, 1, false, false, &JP::yawBounce, nullptr, 0},
        {"pitch_constraint", kTip, 2, false, true, &JP::minPitch, &JP::maxPitch,
         JP::PitchConstraint},
        {"pitch_friction", kTip, 1, false, false, &JP::pitchFriction, nullptr, 0},
        {"pitch_bounce", kTip, 1, false, false, &JP::pitchBounce, nullptr, 0},
        {"yaw_stiffness", JP::Flexible, 1, true, false, &JP::yawStiffness, nullptr, 0},
        {"yaw_damping", JP::Flexible, 1, true, false, &JP::yawDamping, nullptr, 0},
        {"pitch_stiffness", JP::Flexible, 1, true, false, &JP::pitchStiffness, nullptr, 0},
        {"pitch_damping", JP::Flexible, 1, true, false, &JP::pitchDamping, nullptr, 0},
        {"along_stiffness", JP::Flexible, 1, true, false, &JP::alongStiffness, nullptr, 0},
        {"along_damping", JP::Flexible, 1, true, false, &JP::alongDamping, nullptr, 0},
        {"allow_length_flex", JP::Flexible, 0, false, false, nullptr, nullptr, 0},
        {"stiffness", JP::BaseSpring, 1, true, false, &JP::baseStiffness, nullptr, 0},
        {"damping", JP::BaseSpring, 1, true, false, &JP::baseDamping, nullptr, 0},
        {"base_mass", JP::BaseSpring, 1, false, false, &JP::baseMass, nullptr, 0},
        {"left_constraint", JP::BaseSpring, 2, false, false, &JP::baseMinLeft, &JP::baseMaxLeft, 0},
        {"left_friction", JP::BaseSpring, 1, false, false, &JP::baseLeftFriction, nullptr, 0},
        {"up_constraint", JP::BaseSpring, 2, false, false, &JP::baseMinUp, &JP::baseMaxUp, 0},
        {"up_friction", JP::BaseSpring, 1, false, false, &JP::baseUpFriction, nullptr, 0},
        {"forward_constraint", JP::BaseSpring, 2, false, false, &JP::baseMinForward,
         &JP::baseMaxForward, 0},
        {"forward_friction", JP::BaseSpring, 1, false, false, &JP::baseForwardFriction, nullptr, 0},
        {"impact_speed", JP::Boing, 1, false, false, &JP::boingImpactSpeed, nullptr, 0},
        {"impact_angle", JP::Boing, 1, false, false, &JP::boingImpactAngle, nullptr, 0},
        {"damping_rate", JP::Boing, 1, false, false, &JP::boingDampingRate, nullptr, 0},
        {"frequency", JP::Boing, 1, false, false, &JP::boingFrequency, nullptr, 0},
        {"amplitude", JP::Boing, 1, false, false, &JP::boingAmplitude, nullptr, 0},
    };
    // 90 degrees as exporters write it (Valve's own L4D2 survivors ship `pitch_constraint 0
    // 90.000003` and work) is not past it.
    constexpr float kBeyondRightAngle = 90.01f * 3.14159265358979f / 180.0f;
    const Row* row = nullptr;
    for (const Row& r : kRows) {
        if (key == r.name && (r.groups & group) != 0) {
            row = &r;
            break;
        }
    }
    if (!row) {
        error(ids::kJiggleUnknownParameter, name,
              "$jigglebone: '" + name.text +
                  "' is not a parameter of this property group; "
                  "studiomdl stops here");
        return false;
    }
    if (i + 1 + std::size_t(row->count) > toks.size()) {
        error(ids::kJiggleUnknownParameter, name,
              "$jigglebone: '" + name.text + "' needs " + std::to_string(row->count) +
                  (row->count == 1 ? " value" : " values") + "; studiomdl stops here");
        return false;
    }
    if (key == "allow_length_flex") {
        p.flags &= ~std::uint32_t(JP::LengthConstraint);
    }
    p.flags |= row->flag;
    float values[2] = {0, 0};
    for (int k = 0; k < row->count; ++k) {
        const Token& t = toks[i + 1 + std::size_t(k)];
        float v = number(t);
        if (row->clamped && (v < 0.0f || v > 1000.0f)) {
            const float c = std::clamp(v, 0.0f, 1000.0f);
            report(Severity::Warning, ids::kJiggleClamped, t.file, t.where,
                   "$jigglebone " + name.text + " " + t.text +
                       " is outside 0..1000; studiomdl "
                       "compiles " +
                       formatFloat(c));
            v = c;
        }
        values[k] = row->degrees ? v * 3.14159265358979f / 180.0f : v;
    }
    if (row->a) {
        p.*(row->a) = values[0];
    }
    if (row->b) {
        p.*(row->b) = values[1];
    }
    if (row->count == 2 && values[0] > values[1]) {
        report(Severity::Warning, ids::kJiggleMinAboveMax, name.file, name.where,
               "$jigglebone " + name.text + " " + toks[i + 1].text + " " + toks[i + 2].text +
                   ": the minimum is above the maximum, so the tip always sits at a limit");
    }
    if ((key == "yaw_constraint" || key == "pitch_constraint") &&
        (values[0] < -kBeyondRightAngle || values[1] > kBeyondRightAngle)) {
        report(Severity::Warning, ids::kJiggleWideConstraint, name.file, name.where,
               "$jigglebone " + name.text + " " + toks[i + 1].text + " " + toks[i + 2].text +
                   " goes past 90 degrees: the tip can swing behind its base, where the "
                   "engine's frame for it flips");
    }
    i += 1 + std::size_t(row->count);
    return true;
}

void Reader::bodyCommand(const Node& n, const std::string& name)
{
    QcBodygroup g;
    g.command = name;
    g.at = at(n.tokens[0]);
    if (name == "body" || name == "model") {
        if (!needArgs(n, 2, "a name and a file")) {
            return;
        }
        g.name = n.tokens[1].text;
        QcBodyChoice ch;
        ch.path = n.tokens[2].text;
        ch.at = at(n.tokens[2]);
        ch.fileRef = addFile(QcFileRef::Kind::Model, n.tokens[2], name);
        g.choices.push_back(std::move(ch));
        // vbmcompiler's `$body NAME FILE [reverse] [scale N] [flex VTA] [collision SMD]`
        // (qcparser.cpp Cmd_Body): the VTA's shapes go to the .vbm, the collision mesh to
        // an .mcd; studiomdl reads no word after the file.
        for (std::size_t i = 3; name == "body" && i + 1 < n.tokens.size(); ++i) {
            const std::string kw = asciiLower(n.tokens[i].text);
            if (!n.tokens[i].quoted && (kw == "flex" || kw == "collision")) {
                Token file = n.tokens[i + 1];
                if (kw == "flex" && asciiLower(file.text).find(".vta") == std::string::npos) {
                    file.text += ".vta"; // as vtaparser.cpp ProcessFile completes it
                }
                addFile(kw == "flex" ? QcFileRef::Kind::Flex : QcFileRef::Kind::Other, file, kw);
                m_pathosSign = true;
                ++i;
            }
        }
        std::int32_t vta = -1;
        const auto body = static_cast<std::int32_t>(m_project.bodygroups.size());
        for (const Node& c : joinContinuations(n.block)) {
            modelOption(c, body, g, vta);
        }
    } else {
        if (!needArgs(n, 1, "a name")) {
            return;
        }
        g.name = n.tokens[1].text;
        // Token by token, as studiomdl reads it: `studio FILE [options]` or `blank`, on one
        // line or many.
        std::vector<Token> toks;
        for (const Node& c : n.block) {
            flatten(c, toks);
        }
        for (std::size_t i = 0; i < toks.size(); ++i) {
            const std::string kw = asciiLower(toks[i].text);
            // A quoted keyword is the keyword: the compilers' tokenizers drop the quotes
            // (scriplib GetToken; Fortress Forever's sentry guns write `"studio" "file"`).
            if (kw == "blank") {
                QcBodyChoice ch;
                ch.blank = true;
                ch.at = at(toks[i]);
                g.choices.push_back(std::move(ch));
            } else if (kw == "studio") {
                if (i + 1 >= toks.size()) {
                    error(ids::kSyntaxShortLine, toks[i], "studio needs a file");
                    break;
                }
                ++i;
                QcBodyChoice ch;
                ch.path = toks[i].text;
                ch.at = at(toks[i]);
                ch.fileRef = addFile(QcFileRef::Kind::Model, toks[i], "studio");
                g.choices.push_back(std::move(ch));
            } else if (kw == "reverse" || kw == "scale" || isNumberToken(toks[i])) {
                // studio options: `reverse`, `scale N`
            } else {
                m_bodygroupStrays.push_back({at(toks[i]), toks[i].text});
            }
        }
    }
    m_project.bodygroups.push_back(std::move(g));
}

// A line that ends in `\\` goes on on the next line (studiomdl's % rules: Option_Flexrule reads
// on past a `\\` token); the lines are joined, the `\\` dropped.
std::vector<Node> joinContinuations(const std::vector<Node>& nodes)
{
    std::vector<Node> out;
    out.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Node n = nodes[i];
        while (!n.hasBlock && !n.tokens.empty() && !n.tokens.back().quoted &&
               n.tokens.back().text == "\\\\" && i + 1 < nodes.size() && !nodes[i + 1].hasBlock) {
            n.tokens.pop_back();
            ++i;
            n.tokens.insert(n.tokens.end(), nodes[i].tokens.begin(), nodes[i].tokens.end());
        }
        out.push_back(std::move(n));
    }
    return out;
}

// One line of a `$model` block (and the lines of its nested blocks, as studiomdl reads the
// block as one stream): studiomdl's Cmd_Model options (Source SDK 2013 and the L4D2 /
// CS:GO studiomdl, read, not copied). `vta` is the last `flexfile`, which `flex` keys use.
void Reader::modelOption(const Node& c, std::int32_t body, QcBodygroup& g, std::int32_t& vta)
{
    if (!c.tokens.empty()) {
        const std::vector<Token>& t = c.tokens;
        const std::string kw = asciiLower(t[0].text);
        QcFace& face = m_project.face;
        const auto num = [&](std::size_t i) { return i < t.size() ? number(t[i]) : 0.0f; };
        if ((kw == "flexfile" || kw == "vcafile") && t.size() >= 2) {
            g.flexFiles.push_back(addFile(QcFileRef::Kind::Flex, t[1], kw));
            vta = g.flexFiles.back();
        } else if (kw == "eyeball") {
            if (t.size() >= 3) {
                boneRef(t[2], "eyeball");
            }
            if (t.size() < 11) {
                error(ids::kSyntaxShortLine, t[0],
                      "eyeball needs NAME BONE X Y Z MATERIAL DIAMETER ANGLE IRIS_MATERIAL "
                      "IRIS_SCALE, got " +
                          std::to_string(t.size() - 1) + " arguments");
            } else {
                QcEyeball e;
                e.name = t[1].text;
                e.bone = t[2].text;
                e.position = Vec3(num(3), num(4), num(5));
                e.material = t[6].text;
                e.diameter = num(7);
                e.angle = num(8);
                e.irisMaterial = t[9].text;
                e.irisScale = num(10);
                e.body = body;
                e.at = at(t[1]);
                face.eyeballs.push_back(std::move(e));
            }
        } else if (kw == "mouth") {
            if (t.size() >= 4) {
                boneRef(t[3], "mouth");
                QcFlexDescriptorDef d;
                d.name = t[2].text;
                d.mouth = true;
                d.bone = t[3].text;
                d.body = body;
                d.seq = m_faceSeq++;
                d.at = at(t[2]);
                face.descriptors.push_back(std::move(d));
            } else {
                error(ids::kSyntaxShortLine, t[0], "mouth needs INDEX NAME BONE X Y Z");
            }
        } else if (kw == "localvar") {
            for (std::size_t i = 1; i < t.size(); ++i) {
                QcFlexDescriptorDef d;
                d.name = t[i].text;
                d.body = body;
                d.seq = m_faceSeq++;
                d.at = at(t[i]);
                face.descriptors.push_back(std::move(d));
            }
        } else if (kw == "flexcontroller") {
            // flexcontroller TYPE [range MIN MAX] NAME [range MIN MAX] NAME ...: a range holds
            // for the names after it.
            if (t.size() < 2) {
                error(ids::kSyntaxShortLine, t[0], "flexcontroller needs a type");
            }
            float lo = 0.0f, hi = 1.0f;
            for (std::size_t i = 2; i < t.size(); ++i) {
                if (!t[i].quoted && asciiLower(t[i].text) == "range") {
                    if (i + 2 >= t.size()) {
                        error(ids::kSyntaxShortLine, t[i], "range needs MIN MAX");
                        break;
                    }
                    lo = number(t[i + 1]);
                    hi = number(t[i + 2]);
                    i += 2;
                    continue;
                }
                QcFlexControllerDef d;
                d.type = t[1].text;
                d.name = t[i].text;
                d.min = lo;
                d.max = hi;
                d.body = body;
                d.seq = m_faceSeq++;
                d.at = at(t[i]);
                face.controllers.push_back(std::move(d));
            }
        } else if (kw == "flex" || kw == "flexpair" || kw == "defaultflex") {
            QcFlexKey k;
            k.body = body;
            k.isDefault = kw == "defaultflex";
            k.pair = kw == "flexpair";
            std::size_t i = 1;
            if (!k.isDefault) {
                if (t.size() < 2) {
                    error(ids::kSyntaxShortLine, t[0], kw + " needs a name");
                    return;
                }
                k.name = t[1].text;
                k.at = at(t[1]);
                i = 2;
                if (k.pair) {
                    k.split = num(2);
                    i = 3;
                }
            } else {
                k.name = "default";
                k.at = at(t[0]);
            }
            for (; i < t.size(); ++i) {
                const std::string o = asciiLower(t[i].text);
                if (i + 1 >= t.size()) {
                    error(ids::kQcSyntax, t[i], kw + ": '" + t[i].text + "' needs a value");
                    break;
                }
                if (o == "frame") {
                    k.frame = static_cast<std::int32_t>(number(t[i + 1]));
                } else if (o == "position") {
                    k.position = number(t[i + 1]);
                } else if (o == "split") {
                    k.split = number(t[i + 1]);
                } else if (o == "decay") {
                    k.decay = number(t[i + 1]);
                } else {
                    error(ids::kQcSyntax, t[i],
                          kw + ": unknown option '" + t[i].text + "'; studiomdl stops here");
                    break;
                }
                ++i;
            }
            k.fileRef = vta;
            k.seq = m_faceSeq++;
            face.keys.push_back(std::move(k));
        } else if (kw == "eyelid" || kw == "dmxeyelid") {
            QcEyelid e;
            e.dmx = kw == "dmxeyelid";
            e.body = body;
            e.seq = m_faceSeq++;
            e.at = at(t[0]);
            if (t.size() < 3) {
                error(ids::kSyntaxShortLine, t[0], kw + " needs a type and a file");
                return;
            }
            e.type = t[1].text;
            e.file = t[2].text;
            // The file is one the model reads already (its flexfile, or the DMX body).
            for (std::size_t i = 3; i < t.size(); ++i) {
                const std::string o = asciiLower(t[i].text);
                int which = o == "lowerer" ? 0 : o == "neutral" ? 1 : o == "raiser" ? 2 : -1;
                if (which >= 0) {
                    if (i + 2 >= t.size()) {
                        error(ids::kSyntaxShortLine, t[i],
                              kw + ": " + o + " needs a shape and a target");
                        break;
                    }
                    const auto w = static_cast<std::size_t>(which);
                    e.shapes[w] = t[i + 1].text;
                    if (!e.dmx) {
                        e.frames[w] = static_cast<std::int32_t>(number(t[i + 1]));
                    }
                    e.targets[w] = number(t[i + 2]);
                    e.given[w] = true;
                    i += 2;
                } else if (i + 1 < t.size() && (o == "split" || o == "eyeball" ||
                                                o == "righteyeball" || o == "lefteyeball")) {
                    if (o == "split") {
                        e.split = number(t[i + 1]);
                    } else if (o == "eyeball") {
                        e.eyeball = t[i + 1].text;
                    } else if (o == "righteyeball") {
                        e.rightEyeball = t[i + 1].text;
                    } else {
                        e.leftEyeball = t[i + 1].text;
                    }
                    ++i;
                } else {
                    error(ids::kQcSyntax, t[i],
                          kw + ": unknown option '" + t[i].text + "'; studiomdl stops here");
                    break;
                }
            }
            face.eyelids.push_back(std::move(e));
        } else if (kw == "noautodmxrules") {
            face.noAutoDmxRules.push_back(body);
        } else if (!t[0].quoted && t[0].text.size() > 0 && t[0].text[0] == '%') {
            flexRule(c, body);
        }
    }
    for (const Node& inner : joinContinuations(c.block)) {
        modelOption(inner, body, g, vta);
    }
}

// `%NAME = EXPRESSION`: the expression split into tokens as studiomdl's GetExprToken splits
// them (names: a letter or `_`, then letters, digits and `_`; numbers: digits and dots; any
// other character alone; a quoted token whole). The rig (core/pose/qc_flex.h) parses them.
void Reader::flexRule(const Node& c, std::int32_t body)
{
    const std::vector<Token>& t = c.tokens;
    QcFlexRule r;
    r.target = t[0].text.substr(1);
    r.body = body;
    r.seq = m_faceSeq++;
    r.at = at(t[0]);
    if (t.size() < 2) {
        error(ids::kSyntaxShortLine, t[0], "%" + r.target + " needs '=' and an expression");
    }
    using K = QcFlexToken::Kind;
    bool percent = false;
    for (std::size_t i = 2; i < t.size(); ++i) {
        const Token& tok = t[i];
        const auto push = [&](K kind, std::string text, std::size_t col) {
            QcFlexToken x;
            x.kind = kind;
            x.at = at(tok);
            x.at.where.column += static_cast<std::uint32_t>(col);
            if (percent) {
                // `%` then a token: the descriptor of that name.
                percent = false;
                QcFlexToken& prev = r.tokens.back();
                prev.kind = K::Descriptor;
                prev.text = std::move(text);
                return;
            }
            if (kind == K::Number) {
                float v = 0;
                parseFloat(text, v);
                x.value = v;
            }
            x.text = std::move(text);
            r.tokens.push_back(std::move(x));
        };
        if (tok.quoted) {
            push(K::Name, tok.text, 0);
            continue;
        }
        const std::string& s = tok.text;
        for (std::size_t k = 0; k < s.size();) {
            const auto ch = static_cast<unsigned char>(s[k]);
            std::size_t e = k + 1;
            if (std::isalpha(ch) || ch == '_') {
                while (e < s.size() &&
                       (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) {
                    ++e;
                }
                const std::string word = s.substr(k, e - k);
                const std::string lw = asciiLower(word);
                push(lw == "max" && !percent   ? K::Max
                     : lw == "min" && !percent ? K::Min
                                               : K::Name,
                     word, k);
            } else if (std::isdigit(ch) || ch == '.') {
                while (e < s.size() &&
                       (std::isdigit(static_cast<unsigned char>(s[e])) || s[e] == '.')) {
                    ++e;
                }
                push(std::isdigit(ch) ? K::Number : K::Other, s.substr(k, e - k), k);
            } else {
                const K kind = ch == '+'   ? K::Add
                               : ch == '-' ? K::Sub
                               : ch == '*' ? K::Mul
                               : ch == '/' ? K::Div
                               : ch == '(' ? K::Open
                               : ch == ')' ? K::Close
                               : ch == ',' ? K::Comma
                                           : K::Other;
                if (ch == '%' && !percent) {
                    push(K::Descriptor, "", k);
                    percent = true;
                } else {
                    push(kind, s.substr(k, 1), k);
                }
            }
            k = e;
        }
    }
    m_project.face.rules.push_back(std::move(r));
}

void Reader::parseAnimLine(const std::vector<Token>& toks, std::size_t from, QcAnimOptions& o,
                           std::vector<Token>& sources)
{
    const auto& table = sequenceOptions();
    for (std::size_t i = from; i < toks.size(); ++i) {
        const Token& t = toks[i];
        if (t.quoted) {
            sources.push_back(t);
            continue;
        }
        const std::string kw = asciiLower(t.text);
        if (kw.rfind("act_", 0) == 0) {
            // The next word is the weight, whatever it is (HL1 GetToken + atoi, Source
            // Option_Activity + verify_atoi); finish() grades a word that is not a number.
            o.activity = t.text;
            if (!hl1KnowsActivity(t.text)) {
                std::vector<std::string> dirs;
                if (!m_cd.empty()) {
                    dirs.push_back(m_cd.back());
                }
                dirs.push_back(m_qcDir);
                dirs.push_back(m_sources[t.file]->dir);
                m_hl1UnknownActivities.push_back({at(t), t.text, std::move(dirs)});
            }
            if (i + 1 < toks.size() && isNumberToken(toks[i + 1])) {
                o.activityWeight = static_cast<std::int32_t>(number(toks[++i]));
            } else {
                o.activityWeight = 0;
                const bool eaten = i + 1 < toks.size();
                m_activityMisreads.push_back(
                    {at(eaten ? toks[i + 1] : t), t.text, eaten ? toks[i + 1].text : ""});
                i += eaten ? 1 : 0;
            }
            continue;
        }
        auto it = table.find(kw);
        if (it == table.end()) {
            if (isNumberToken(t)) {
                continue;
            }
            sources.push_back(t);
            continue;
        }
        const int count = it->second;
        if (count == -1) {
            return; // ikrule / ikfixup: the rest of the line is theirs
        }
        if (count == -2) { // event NAME FRAME ["options"]
            i = std::min(toks.size() - 1, i + 2);
            if (i + 1 < toks.size() && toks[i + 1].quoted) {
                ++i;
            }
            continue;
        }
        const auto need = static_cast<std::size_t>(count);
        if (i + need >= toks.size()) {
            error(ids::kSyntaxShortLine, t,
                  "'" + t.text + "' needs " + std::to_string(need) + " value" +
                      (need == 1 ? "" : "s"));
            return;
        }
        if (kw == "fps") {
            o.fps = number(toks[i + 1]);
            o.fpsSet = true;
        } else if (kw == "frames" || kw == "frame") {
            o.frameStart = static_cast<std::int32_t>(number(toks[i + 1]));
            o.frameEnd = static_cast<std::int32_t>(number(toks[i + 2]));
        } else if (kw == "loop") {
            o.loop = true;
        } else if (kw == "delta") {
            o.delta = true;
        } else if (kw == "predelta") {
            o.predelta = true;
        } else if (kw == "autoplay") {
            o.autoplay = true;
        } else if (kw == "hidden") {
            o.hidden = true;
        } else if (kw == "snap") {
            o.snap = true;
        } else if (kw == "post") {
            o.post = true;
        } else if (kw == "subtract") {
            o.subtract = toks[i + 1].text;
            float f = 0;
            o.subtractFrame = parseFloat(toks[i + 2].text, f) && f >= 0 && f < 1e6f
                                  ? static_cast<std::int32_t>(f)
                                  : 0;
        } else if (kw == "activity") {
            o.activity = toks[i + 1].text;
            float w = 0;
            o.activityWeight = parseFloat(toks[i + 2].text, w) ? static_cast<std::int32_t>(w) : 0;
        }
        i += need;
    }
}

void Reader::sequenceCommand(const Node& n, bool animation)
{
    if (!needArgs(n, 1, "a name")) {
        return;
    }
    QcAnimOptions o;
    std::vector<Token> sources;
    parseAnimLine(n.tokens, 2, o, sources);
    for (const Node& c : n.block) {
        if (!c.tokens.empty()) {
            parseAnimLine(c.tokens, 0, o, sources);
        }
    }
    if (animation) {
        QcAnimation a;
        a.name = n.tokens[1].text;
        a.options = o;
        a.at = at(n.tokens[0]);
        if (sources.empty()) {
            error(ids::kSyntaxShortLine, n.tokens[0], "$animation '" + a.name + "' names no file");
        } else {
            a.source = sources.front().text;
            a.fileRef = addFile(QcFileRef::Kind::Animation, sources.front(), "animation");
        }
        m_project.animations.push_back(std::move(a));
        return;
    }
    QcSequence s;
    s.name = n.tokens[1].text;
    s.options = o;
    s.at = at(n.tokens[0]);
    for (const Token& t : sources) {
        s.sources.push_back(t.text);
        // A source naming an $animation is not a file. An earlier sequence's name is: Source's
        // ParseSequence looks the token up among g_panimation, where a sequence's implied
        // animation is named "@" + the sequence, and HL1 has no $animation.
        bool isAnim = false;
        for (const QcAnimation& a : m_project.animations) {
            isAnim = isAnim || asciiIEquals(a.name, t.text);
        }
        s.fileRefs.push_back(isAnim ? -1 : addFile(QcFileRef::Kind::Animation, t, "sequence"));
    }
    if (sources.empty()) {
        error(ids::kSyntaxShortLine, n.tokens[0], "$sequence '" + s.name + "' names no file");
    }
    m_project.sequences.push_back(std::move(s));
}

void Reader::lodCommand(const Node& n, bool shadow)
{
    QcLod lod;
    lod.shadow = shadow;
    lod.at = at(n.tokens[0]);
    if (!shadow) {
        if (!needArgs(n, 1, "a threshold")) {
            return;
        }
        lod.threshold = static_cast<std::int32_t>(number(n.tokens[1]));
    }
    for (const Node& c : n.block) {
        if (c.tokens.empty()) {
            continue;
        }
        const std::string kw = asciiLower(c.tokens[0].text);
        if (kw == "replacemodel" && c.tokens.size() >= 3) {
            QcLod::Replace r;
            r.from = c.tokens[1].text;
            r.to = c.tokens[2].text;
            r.at = at(c.tokens[1]);
            r.fileRef = addFile(QcFileRef::Kind::Lod, c.tokens[2], "replacemodel");
            lod.replaceModels.push_back(std::move(r));
        } else if (kw == "removemodel" && c.tokens.size() >= 2) {
            QcLod::Replace r;
            r.from = c.tokens[1].text;
            r.at = at(c.tokens[1]);
            lod.replaceModels.push_back(std::move(r));
        } else if (kw == "replacematerial" && c.tokens.size() >= 3) {
            QcLod::Replace r;
            r.from = c.tokens[1].text;
            r.to = c.tokens[2].text;
            r.at = at(c.tokens[2]);
            lod.replaceMaterials.push_back(std::move(r));
        } else if (kw == "bonetreecollapse" && c.tokens.size() >= 2) {
            boneRef(c.tokens[1], "bonetreecollapse");
            lod.boneTreeCollapses.push_back(c.tokens[1].text);
        } else if (kw == "replacebone" && c.tokens.size() >= 3) {
            boneRef(c.tokens[1], "replacebone");
            boneRef(c.tokens[2], "replacebone");
            lod.replaceBones.emplace_back(c.tokens[1].text, c.tokens[2].text);
        } else if (((kw == "replacemodel" || kw == "replacematerial") && c.tokens.size() < 3) ||
                   ((kw == "bonetreecollapse" || kw == "removemodel") && c.tokens.size() < 2)) {
            error(ids::kSyntaxShortLine, c.tokens[0],
                  "'" + c.tokens[0].text + "' needs more values");
        }
    }
    m_project.lods.push_back(std::move(lod));
}

void Reader::command(const Node& n)
{
    const Token& head = n.tokens.front();
    if (head.quoted || head.text.size() < 2 || head.text[0] != '$') {
        error(ids::kQcSyntax, head, "expected a $command, got '" + head.text + "'");
        return;
    }
    const std::string name = asciiLower(std::string_view(head.text).substr(1));
    QcCommand qc;
    qc.name = name;
    for (std::size_t i = 1; i < n.tokens.size(); ++i) {
        qc.args.push_back(n.tokens[i].text);
    }
    qc.hasBlock = n.hasBlock;
    qc.at = at(head);
    const auto& table = commandTable();
    qc.known = table.count(name) > 0 || isPathosCommand(name);
    m_project.commands.push_back(std::move(qc));
    if (!m_project.commands.back().known) {
        return;
    }
    if (name == "modelname") {
        if (needArgs(n, 1, "a file name")) {
            m_project.modelName = n.tokens[1].text;
            m_project.modelNameAt = at(n.tokens[1]);
        }
    } else if (name == "body" || name == "model" || name == "bodygroup") {
        bodyCommand(n, name);
    } else if (name == "sequence" || name == "animation") {
        sequenceCommand(n, name == "animation");
    } else if (name == "declaresequence" || name == "declareanimation") {
        if (needArgs(n, 1, "a name")) {
            if (name == "declaresequence") {
                QcSequence s;
                s.name = n.tokens[1].text;
                s.declared = true;
                s.at = at(head);
                m_project.sequences.push_back(std::move(s));
            } else {
                QcAnimation a;
                a.name = n.tokens[1].text;
                a.at = at(head);
                m_project.animations.push_back(std::move(a));
            }
        }
    } else if (name == "includemodel") {
        if (needArgs(n, 1, "a .mdl file")) {
            m_project.includeModels.push_back({n.tokens[1].text, at(n.tokens[1])});
            report(Severity::Note, ids::kQcIncludeModel, head.file, n.tokens[1].where,
                   "'" + n.tokens[1].text +
                       "' is a compiled model: its sequences are not read from sources");
        }
    } else if (name == "cdmaterials" || name == "cdtexture") {
        for (std::size_t i = 1; i < n.tokens.size(); ++i) {
            (name == "cdmaterials" ? m_project.cdMaterials : m_project.cdTextures)
                .push_back({n.tokens[i].text, at(n.tokens[i])});
        }
        needArgs(n, 1, "a folder");
    } else if (name == "texturegroup") {
        if (!needArgs(n, 1, "a name")) {
            return;
        }
        QcTextureGroup g;
        g.name = n.tokens[1].text;
        g.at = at(head);
        for (const Node& row : n.block) {
            std::vector<Token> toks;
            flatten(row, toks);
            if (toks.empty()) {
                continue;
            }
            std::vector<std::string> names;
            for (const Token& t : toks) {
                names.push_back(t.text);
            }
            g.rows.push_back(std::move(names));
            g.rowAt.push_back(at(toks.front()));
        }
        m_project.textureGroups.push_back(std::move(g));
    } else if (name == "texrendermode") {
        if (needArgs(n, 2, "a texture and a mode")) {
            m_project.texRenderModes.emplace_back(n.tokens[1].text, asciiLower(n.tokens[2].text));
            // Render modes only vbmcompiler defines (rendermode_defs.txt, the eye glint of its
            // texture flags); HL1's Cmd_SetTextureRendermode knows additive and masked.
            const std::string& mode = m_project.texRenderModes.back().second;
            if (mode == "alphatest" || mode == "luminance" || mode == "eyeglint") {
                m_pathosSign = true;
            }
        }
    } else if (name == "definebone") {
        if (needArgs(n, 8, "NAME PARENT px py pz rx ry rz")) {
            QcDefineBone b;
            b.name = n.tokens[1].text;
            b.parent = n.tokens[2].text;
            b.position = {number(n.tokens[3]), number(n.tokens[4]), number(n.tokens[5])};
            b.rotation = {number(n.tokens[6]), number(n.tokens[7]), number(n.tokens[8])};
            b.at = at(head);
            m_project.defineBones.push_back(std::move(b));
        }
    } else if (name == "attachment") {
        if (needArgs(n, 5, "NAME BONE x y z")) {
            QcAttachment a;
            a.name = n.tokens[1].text;
            a.bone = n.tokens[2].text;
            a.offset = {number(n.tokens[3]), number(n.tokens[4]), number(n.tokens[5])};
            for (std::size_t i = 6; i < n.tokens.size(); ++i) {
                const std::string kw = asciiLower(n.tokens[i].text);
                if (kw == "absolute") {
                    a.absolute = true;
                } else if (kw == "rigid") {
                    a.rigid = true;
                } else if (kw == "rotate" && i + 3 < n.tokens.size()) {
                    a.rotation = {number(n.tokens[i + 1]), number(n.tokens[i + 2]),
                                  number(n.tokens[i + 3])};
                    i += 3;
                }
            }
            a.at = at(head);
            boneRef(n.tokens[2], "attachment");
            m_project.attachments.push_back(std::move(a));
        }
    } else if (name == "hbox") {
        if (needArgs(n, 8, "GROUP BONE minx miny minz maxx maxy maxz")) {
            QcHitbox h;
            h.group = static_cast<std::int32_t>(number(n.tokens[1]));
            h.bone = n.tokens[2].text;
            h.min = {number(n.tokens[3]), number(n.tokens[4]), number(n.tokens[5])};
            h.max = {number(n.tokens[6]), number(n.tokens[7]), number(n.tokens[8])};
            if (n.tokens.size() > 9) {
                h.name = n.tokens[9].text;
            }
            h.set = m_hboxSet;
            h.at = at(head);
            boneRef(n.tokens[2], "hbox");
            m_project.hitboxes.push_back(std::move(h));
        }
    } else if (name == "controller" || name == "hgroup") {
        // `$controller INDEX BONE TYPE START END`, `$hgroup GROUP BONE`: only the bone is kept,
        // for qc.case-variant-bone (HL1 studiomdl.c SimplifyModel links both without case).
        if (n.tokens.size() > 2) {
            boneRef(n.tokens[2], name);
        }
    } else if (name == "hboxset") {
        if (needArgs(n, 1, "a name")) {
            m_hboxSet = n.tokens[1].text;
        }
    } else if (name == "ikchain") {
        if (needArgs(n, 2, "a name and a bone")) {
            QcIkChain k;
            k.name = n.tokens[1].text;
            k.bone = n.tokens[2].text;
            for (std::size_t i = 3; i + 3 < n.tokens.size(); ++i) {
                if (asciiLower(n.tokens[i].text) == "knee") {
                    k.knee = {number(n.tokens[i + 1]), number(n.tokens[i + 2]),
                              number(n.tokens[i + 3])};
                    break;
                }
            }
            k.at = at(head);
            boneRef(n.tokens[2], "ikchain");
            m_project.ikChains.push_back(std::move(k));
        }
    } else if (name == "jigglebone") {
        if (needArgs(n, 1, "a bone")) {
            boneRef(n.tokens[1], "jigglebone");
            jiggleCommand(n);
        }
    } else if (name == "bonemerge" || name == "alwayscollapse" || name == "bonesaveframe") {
        if (needArgs(n, 1, "a bone")) {
            boneRef(n.tokens[1], name);
        }
    } else if (name == "heirarchy" || name == "hierarchy") {
        if (needArgs(n, 2, "a bone and its parent")) {
            boneRef(n.tokens[1], name);
            boneRef(n.tokens[2], name);
        }
    } else if (name == "weightlist" || name == "defaultweightlist") {
        std::vector<Token> toks;
        for (const Node& c : n.block) {
            flatten(c, toks);
        }
        std::size_t from = 0;
        if (name == "weightlist") {
            from = 0;
            if (!needArgs(n, 1, "a name")) {
                return;
            }
            // Inline form: `$weightlist NAME BONE w BONE w ...`
            toks.insert(toks.begin(), n.tokens.begin() + 2, n.tokens.end());
        } else {
            toks.insert(toks.begin(), n.tokens.begin() + 1, n.tokens.end());
        }
        for (std::size_t i = from; i + 1 < toks.size(); i += 2) {
            boneRef(toks[i], name);
        }
    } else if (name == "collisionmodel" || name == "collisionjoints") {
        QcCollision& col = m_project.collision;
        if (needArgs(n, 1, "a file")) {
            col.fileRef = addFile(QcFileRef::Kind::Collision, n.tokens[1], name);
            col.present = true;
            col.jointed = name == "collisionjoints";
            col.at = at(n.tokens[0]);
        }
        // The block's commands, each with the tokens after it on its line (studiomdl's ReadArgs
        // reads the rest of the line; a `$` token starts the next command).
        for (const Node& c : n.block) {
            for (const Token& t : c.tokens) {
                if (!t.quoted && t.text.size() > 1 && t.text[0] == '$') {
                    col.options.push_back({asciiLower(t.text.substr(1)), {}, at(t)});
                } else if (!col.options.empty() && !t.isBrace() &&
                           col.options.back().at.where.line == t.where.line) {
                    col.options.back().args.push_back(t.text);
                }
            }
        }
        if (name == "collisionjoints") {
            for (const Node& c : n.block) {
                if (c.tokens.size() < 2) {
                    continue;
                }
                const std::string kw = asciiLower(c.tokens[0].text);
                if (kw == "$jointconstrain" || kw == "$rootbone" || kw == "$jointskip" ||
                    kw == "$jointmassbias" || kw == "$jointdamping" || kw == "$jointrotdamping" ||
                    kw == "$jointinertia") {
                    boneRef(c.tokens[1], name);
                } else if ((kw == "$jointmerge" || kw == "$jointcollide") && c.tokens.size() >= 3) {
                    boneRef(c.tokens[1], name);
                    boneRef(c.tokens[2], name);
                }
            }
        }
    } else if (name == "proceduralbones") {
        if (needArgs(n, 1, "a file")) {
            addFile(QcFileRef::Kind::Other, n.tokens[1], name);
        }
    } else if (name == "protected" || name == "noblend" || name == "movement_bone") {
        // vbmcompiler: a bone kept although no vertex uses it ($protected), one that does
        // not blend, the bone linear movement is taken from (studiocompiler.cpp).
        if (needArgs(n, 1, "a bone")) {
            boneRef(n.tokens[1], name);
        }
        m_pathosSign = true;
    } else if (name == "lod" && n.tokens.size() >= 4 && !isNumberToken(n.tokens[1])) {
        // vbmcompiler's `$lod SUBMODEL FILE distance|shadow [DIST]` (qcparser.cpp Cmd_LOD).
        addFile(QcFileRef::Kind::Lod, n.tokens[2], name);
        m_pathosSign = true;
    } else if (name == "lod" || name == "shadowlod") {
        lodCommand(n, name == "shadowlod");
    } else if (name == "scale") {
        if (needArgs(n, 1, "a factor")) {
            m_project.scale = number(n.tokens[1]);
            m_project.scaleSet = true;
        }
    } else if (name == "origin") {
        if (needArgs(n, 3, "x y z")) {
            m_project.origin = {number(n.tokens[1]), number(n.tokens[2]), number(n.tokens[3])};
            if (n.tokens.size() > 4) {
                m_project.originRotation = number(n.tokens[4]);
            }
        }
    } else if (name == "upaxis") {
        if (needArgs(n, 1, "an axis")) {
            m_project.upAxis = asciiLower(n.tokens[1].text);
        }
    } else if (name == "staticprop") {
        m_project.staticProp = true;
    }
}

// What vbmcompiler leaves in a model's folder and studiomdl never does: the `.vbm` it writes
// next to the `.mdl` $modelname names, or the `reference_frame.smd` bind pose it reads from the
// $cd folder (vbmcompiler.cpp CVBMCompiler::REFERENCE_FRAME_FILENAME).
bool Reader::pathosOutputBeside() const
{
    if (!m_opt.fs) {
        return false;
    }
    std::vector<std::string> dirs{m_qcDir};
    if (!m_cd.empty() && m_cd.back() != m_qcDir) {
        dirs.push_back(m_cd.back());
    }
    std::string vbm = m_project.modelName;
    if (asciiIEndsWith(vbm, ".mdl")) {
        vbm.replace(vbm.size() - 4, 4, ".vbm");
    } else {
        vbm.clear();
    }
    bool mismatch = false;
    for (const std::string& d : dirs) {
        if (!m_opt.fs->find(d, "reference_frame.smd", mismatch).empty() ||
            (!vbm.empty() && !m_opt.fs->find(d, vbm, mismatch).empty())) {
            return true;
        }
    }
    return false;
}

void Reader::finish()
{
    QcProject& p = m_project;
    // Profile: GoldSrc-only commands make an Auto profile GoldSrc.
    Profile prof = m_opt.profile;
    if (prof == Profile::Auto || prof == Profile::Cod) {
        prof = Profile::Source;
        for (const QcCommand& c : p.commands) {
            if (isGoldSrcSign(c.name)) {
                prof = Profile::GoldSrc;
            }
            if (isPathosSign(c.name)) {
                m_pathosSign = true;
            }
        }
        if (m_pathosSign || pathosOutputBeside()) {
            prof = Profile::Pathos;
        }
        // $flags with 2048 (STUDIO_NO_EMBEDDED_TEXTURES) means nothing to GoldSrc's studiomdl
        // and engine; abstudiomdl keeps the textures out of the model for it and takes .png
        // textures only then (docs/profiles.md "afterburner").
        if (prof == Profile::GoldSrc) {
            for (const QcCommand& c : p.commands) {
                std::int32_t v = 0;
                if (c.name == "flags" && !c.args.empty() && parseInt(c.args[0], v) &&
                    (v & 0x800) != 0) {
                    prof = Profile::Afterburner;
                }
            }
        }
    }
    p.profile = prof;
    const unsigned mask = goldSrcFamily(prof) ? kG : kS;
    const auto& table = commandTable();
    for (QcCommand& c : p.commands) {
        auto it = table.find(c.name);
        const bool known = prof == Profile::Pathos ? isPathosCommand(c.name)
                                                   : it != table.end() && (it->second & mask) != 0;
        if (known) {
            continue;
        }
        const bool laterMacro = m_macros.count(c.name) > 0;
        Diagnostic d;
        d.file = c.at.file;
        d.where = c.at.where;
        if (laterMacro || (!c.name.empty() && c.name[0] == '_' && it == table.end())) {
            d.severity = Severity::Error;
            d.id = ids::kQcUndefinedMacro;
            d.message = laterMacro ? "macro '" + c.name + "' is used before its $definemacro"
                                   : "macro '" + c.name + "' is not defined";
        } else {
            c.known = false;
            // The profile's studiomdl ignores it, and so the bones it names.
            std::erase_if(p.boneRefs, [&](const QcBoneRef& b) {
                return b.command == c.name && b.at.file == c.at.file &&
                       b.at.where.line == c.at.where.line;
            });
            // HL1 studiomdl.c ParseScript ("bad command %s") and SDK 2013 studiomdl.cpp
            // ParseScript (TokenError "bad command %s") stop on it; RigScope reads on.
            d.severity = Severity::Error;
            d.id = ids::kQcUnknownCommand;
            d.message = "'$" + c.name + "' is not a " +
                        std::string(goldSrcStudiomdl(prof) ? "GoldSrc" : "Source") +
                        " studiomdl command; studiomdl stops (\"bad command\")";
            if (prof == Profile::Pathos) {
                // vbmcompiler stops on a command it does not know (qcparser.cpp ProcessFile).
                d.severity = Severity::Error;
                d.fixedSeverity = true;
                d.message = "'$" + c.name + "' is not a vbmcompiler command; vbmcompiler stops";
            }
        }
        p.diagnostics.push_back(std::move(d));
    }
    // A qc.syntax error at `at`, graded below by profile.
    const auto syntaxAt = [](const QcWhere& at) {
        Diagnostic d;
        d.id = ids::kQcSyntax;
        d.file = at.file;
        d.where = at.where;
        d.severity = Severity::Error;
        return d;
    };
    for (const BodygroupStray& b : m_bodygroupStrays) {
        Diagnostic d = syntaxAt(b.at);
        if (goldSrcStudiomdl(prof)) {
            // HL1 studiomdl.c Cmd_Bodygroup reads token after token and acts on `studio` and
            // `blank` only: anything else (a `$origin` with its numbers) is passed over.
            d.severity = Severity::Warning;
            d.fixedSeverity = true;
            d.message = "'" + b.word +
                        "' in $bodygroup does nothing: GoldSrc studiomdl reads only 'studio "
                        "FILE' and 'blank' there and passes over the rest";
        } else {
            // Source Cmd_Bodygroup: MdlError "unknown bodygroup option"; vbmcompiler
            // Cmd_BodyGroup: "Was expecting 'studio' option".
            d.message = "expected 'studio FILE' or 'blank' in $bodygroup, got '" + b.word + "'; " +
                        (prof == Profile::Pathos ? "vbmcompiler" : "studiomdl") + " stops";
        }
        p.diagnostics.push_back(std::move(d));
    }
    // HL1 studiomdl.c Cmd_Sequence: a word lookupActivity gives no activity is one more
    // animation file (`ACT_INVALID`, which Afterburner's abstudiomdl knows, is "ACT_INVALID.smd
    // doesn't exist" to HL1 studiomdl built from the SDK). Source keeps any ACT_ name.
    if (prof == Profile::GoldSrc) {
        for (const UnknownActivity& a : m_hl1UnknownActivities) {
            bool found = false;
            bool mismatch = false;
            for (const std::string& dir : a.dirs) {
                found =
                    found || (m_opt.fs && !m_opt.fs->find(dir, a.word + ".smd", mismatch).empty());
            }
            if (found) {
                continue;
            }
            Diagnostic d;
            d.id = ids::kQcMissingFile;
            d.file = a.at.file;
            d.where = a.at.where;
            d.severity = Severity::Error;
            d.message = "HL1 studiomdl knows no activity '" + a.word +
                        "' and reads the word as an animation file, '" + a.word +
                        ".smd', which is not found";
            p.diagnostics.push_back(std::move(d));
        }
    }
    for (const ActivityMisread& a : m_activityMisreads) {
        Diagnostic d = syntaxAt(a.at);
        if (a.word.empty()) {
            d.message = a.activity + " needs a weight after it; studiomdl stops (\"line is "
                                     "incomplete\")";
        } else if (goldSrcFamily(prof)) {
            // HL1 studiomdl.c Cmd_Sequence: atoi of the word. The Pathos models were built so
            // (harrison.mdl's standing_aim does not loop); vbmcompiler's ReadInt32 now stops.
            d.severity = Severity::Warning;
            d.fixedSeverity = true;
            d.message = "'" + a.word + "' after " + a.activity +
                        " is read as the activity's weight (0) and does nothing else; put the "
                        "weight first (" +
                        a.activity + " 1 " + a.word + ")";
        } else {
            d.message = "studiomdl expects a number after " + a.activity + ", not '" + a.word +
                        "', and stops";
        }
        p.diagnostics.push_back(std::move(d));
    }
    // Names used twice.
    // Source studiomdl stops on a sequence or animation name used twice (TokenError); GoldSrc's
    // does not check: the model compiles, and the game finds the first of the name only.
    // `severityOf(i)` grades the i-th item when the compiler does not stop.
    auto duplicates = [&](const char* what, const auto& items, bool compilerStops,
                          const auto& severityOf, const auto& why) {
        std::unordered_map<std::string, std::size_t> seen;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto [it, fresh] = seen.emplace(asciiLower(items[i].name), i);
            if (!fresh) {
                Diagnostic d;
                d.severity = compilerStops ? Severity::Error : severityOf(i);
                d.fixedSeverity = !compilerStops;
                d.id = ids::kQcDuplicateName;
                d.file = items[i].at.file;
                d.where = items[i].at.where;
                d.message = std::string(what) + " '" + items[i].name + "' is already defined" +
                            (compilerStops ? std::string() : why(i));
                d.related.push_back(
                    {items[it->second].at.file, items[it->second].at.where, "first defined here"});
                p.diagnostics.push_back(std::move(d));
            }
        }
    };
    // vbmcompiler only warns on a sequence name used twice (studiocompiler.cpp AddSequence).
    const auto warn = [](std::size_t) { return Severity::Warning; };
    const auto none = [](std::size_t) { return std::string(); };
    duplicates("sequence", p.sequences, !goldSrcFamily(prof), warn, none);
    duplicates("animation", p.animations, !goldSrcFamily(prof), warn, none);
    // Bodygroups: every compiler makes a new bodypart per `$body` / `$bodygroup`, whatever its
    // name (Source studiomdl.cpp Cmd_Body / ProcessCmdBody, Cmd_Bodygroup; HL1 studiomdl.c
    // Cmd_Body, Cmd_Bodygroup; vbmcompiler studiocompiler.cpp AddBodyGroup only warns), so the
    // compiled model holds both as written (Pathos harrison.mdl: two bodyparts 'studio'):
    // nothing fails, nothing is lost, nothing differs from the script, a note. What the name
    // changes is a lookup by name in the game, which finds the first (Source
    // game/shared/animation.cpp FindBodygroupByName, Pathos vbmutils.cpp
    // VBM_GetBodyGroupIndexByName); GoldSrc switches bodygroups by index only
    // (dlls/animation.cpp SetBodygroup). Pathos v_sequences.qc switches its second 'studio' (4
    // choices) by index and works.
    const bool byName = !goldSrcFamily(prof) || prof == Profile::Pathos;
    duplicates(
        "bodygroup", p.bodygroups, false, [](std::size_t) { return Severity::Note; },
        [&](std::size_t i) {
            return p.bodygroups[i].choices.size() <= 1
                       ? std::string("; both are compiled, and a group of one model is never "
                                     "switched")
                   : byName ? std::string("; both are compiled; a lookup by name finds the "
                                          "first, so switch this one by its index")
                            : std::string("; both are compiled, and GoldSrc switches bodygroups "
                                          "by index");
        });
    // Limits: 32 body parts of 32 models each; sequences 256 (GoldSrc) / 1,524 (Source).
    // vbmcompiler checks no sequence count.
    const std::size_t maxSeq = prof == Profile::Pathos  ? SIZE_MAX
                               : goldSrcStudiomdl(prof) ? 256
                                                        : 1524;
    if (p.sequences.size() > maxSeq) {
        const QcSequence& s = p.sequences[maxSeq];
        Diagnostic d;
        d.severity = Severity::Error;
        d.id = ids::kQcSequenceLimit;
        d.file = s.at.file;
        d.where = s.at.where;
        d.message = groupedCount(p.sequences.size()) + " sequences, more than the " +
                    std::string(profileName(prof)) + " limit of " + groupedCount(maxSeq);
        p.diagnostics.push_back(std::move(d));
    }
    if (p.bodygroups.size() > 32) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.id = ids::kQcBodygroupLimit;
        d.file = p.bodygroups[32].at.file;
        d.where = p.bodygroups[32].at.where;
        d.message = std::to_string(p.bodygroups.size()) + " bodygroups, more than the limit of 32";
        p.diagnostics.push_back(std::move(d));
    }
    for (const QcBodygroup& g : p.bodygroups) {
        if (g.choices.size() > 32) {
            Diagnostic d;
            d.severity = Severity::Error;
            d.id = ids::kQcBodygroupLimit;
            d.file = g.choices[32].at.file;
            d.where = g.choices[32].at.where;
            d.message = "bodygroup '" + g.name + "' has " + std::to_string(g.choices.size()) +
                        " choices, more than the limit of 32";
            p.diagnostics.push_back(std::move(d));
        }
    }
    // Skin families: every row as long as the first.
    for (const QcTextureGroup& g : p.textureGroups) {
        for (std::size_t r = 1; r < g.rows.size(); ++r) {
            if (g.rows[r].size() != g.rows[0].size()) {
                Diagnostic d;
                d.severity = Severity::Error;
                d.id = ids::kQcTexturegroupRows;
                d.file = g.rowAt[r].file;
                d.where = g.rowAt[r].where;
                d.message = "$texturegroup '" + g.name + "' row " + std::to_string(r + 1) +
                            " has " + std::to_string(g.rows[r].size()) + " materials, row 1 has " +
                            std::to_string(g.rows[0].size());
                p.diagnostics.push_back(std::move(d));
            }
        }
    }
    // A sprite script (Half-Life's sprgen reads `$spritename`, `$type`, `$load`, `$frame` from a
    // .qc too) is not a model's: one note says so, in place of a note per command.
    const QcCommand* sprite = nullptr;
    bool model = false;
    for (const QcCommand& c : p.commands) {
        if (c.name == "spritename" && !sprite) {
            sprite = &c;
        }
        model = model || c.name == "modelname" || c.name == "body" || c.name == "bodygroup" ||
                c.name == "model" || c.name == "sequence" || c.name == "animation";
    }
    if (sprite && !model) {
        Diagnostic d;
        d.severity = Severity::Note;
        d.fixedSeverity = true; // not a model's script: nothing of studiomdl's fails
        d.id = ids::kQcUnknownCommand;
        d.file = sprite->at.file;
        d.where = sprite->at.where;
        d.message = "a sprite script for sprgen ($spritename, $load, $frame), not a model's: "
                    "studiomdl has nothing to compile here";
        p.diagnostics.clear();
        p.diagnostics.push_back(std::move(d));
    }
}

QcProject Reader::run()
{
    while (auto t = next()) {
        if (t->isClose()) {
            error(ids::kQcSyntax, *t, "'}' without a matching '{'");
            continue;
        }
        Node n;
        if (t->isOpen()) {
            error(ids::kQcSyntax, *t, "'{' without a command");
            n.block = parseBlock(*t, 1);
            continue;
        }
        n.tokens.push_back(std::move(*t));
        parseRest(n, 0);
        command(n);
    }
    finish();
    return std::move(m_project);
}

} // namespace

QcProject readQc(std::string_view bytes, const QcReadOptions& options)
{
    Reader r(bytes, options);
    QcProject p = r.run();
    // A script with no command compiles nothing: studiomdl stops, the viewer shows "failed".
    if (p.commands.empty() && p.diagnostics.empty()) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.id = ids::kSyntaxEmptyFile;
        d.file = options.fileName;
        d.where = {1, 1, 0};
        d.message = bytes.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos
                        ? "file is empty"
                        : "file holds no $command, only comments";
        p.diagnostics.push_back(std::move(d));
    }
    return p;
}

int sniffQc(std::string_view head) noexcept
{
    // The first token that is not a comment should be a $command.
    std::size_t i = 0;
    const std::size_t n = head.size();
    while (i < n) {
        const char c = head[i];
        if (static_cast<unsigned char>(c) <= 32) {
            ++i;
        } else if (c == '/' && i + 1 < n && head[i + 1] == '/') {
            while (i < n && head[i] != '\n') {
                ++i;
            }
        } else if (c == '/' && i + 1 < n && head[i + 1] == '*') {
            const auto end = head.find("*/", i + 2);
            if (end == std::string_view::npos) {
                return 0;
            }
            i = end + 2;
        } else if (c == '$') {
            std::size_t j = i + 1;
            while (j < n && (std::isalnum(static_cast<unsigned char>(head[j])) || head[j] == '_')) {
                ++j;
            }
            const std::string name = asciiLower(head.substr(i + 1, j - i - 1));
            return commandTable().count(name) ? 90 : (j > i + 1 ? 30 : 0);
        } else {
            return 0;
        }
    }
    return 0;
}

} // namespace rigscope::core
