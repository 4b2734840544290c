// XANIM_EXPORT fast path (see core/formats/cod/cod_fast.h): the layout of FORMATS.md §4.1
// read straight into the Animation's key arrays (reserved from NUMFRAMES x NUMPARTS). Subset:
//   ANIMATION, VERSION 3, NUMPARTS p (p > 0), PART i "name" x p (i = 0..), FRAMERATE (integral,
//   > 0) and NUMFRAMES in either order, then frames FRAME f with integer f counting up by one,
//   each holding PART 0..p-1 in order with OFFSET / SCALE 1 1 1 / X / Y / Z, then optionally
//   NOTETRACKS with per-part (PART i, NUMTRACKS, NOTETRACK, NUMKEYS, FRAME f "note") or flat
//   (NUMKEYS, FRAME f "note") notes and integer note frames.
// Every count must match. The only diagnostic such a file can still get, cod.notetrack-range, is
// reported as the general path reports it.
//
// Large files (issue 7): right after the first FRAME line the rest of the file is cut into shares
// at guessed frame starts (a FRAME line followed by PART). Share 0 is read here straight into the
// animation; the others are read on threads by the same line logic into their own arrays (line
// numbers relative, offsets the file's), stopping at the first line that is not part of a frame
// (NOTETRACKS). They are spliced in file order while each share began where the text read so far
// ends, with the frame number that follows and the previous frame complete, and was read without
// leaving the subset; the rest is read in order. So the animation, its locations and the
// diagnostics are exactly those of one thread.
#include <cmath>
#include <memory>
#include <thread>

#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/xanim/xanim.h"
#include "core/formats/cod/cod_fast.h"
#include "core/formats/cod/cod_record.h"

// Define COD_FAST_TRACE(loc) to print where a file leaves the fast path (loc.line 0: at the end).
#ifndef COD_FAST_TRACE
#define COD_FAST_TRACE(loc) (void)0
#endif

namespace rigscope::core::cod {

namespace {

enum class Kw : std::uint8_t {
    Other,
    Animation,
    Version,
    NumParts,
    Part,
    FrameRate,
    NumFrames,
    Frame,
    Offset,
    Scale,
    X,
    Y,
    Z,
    NoteTracks,
    NumTracks,
    NoteTrack,
    NumKeys,
};

Kw keywordOf(std::string_view k, std::uint64_t code) noexcept
{
    if (k.size() > 8) {
        return k == "ANIMATION"    ? Kw::Animation
               : k == "FRAMERATE"  ? Kw::FrameRate
               : k == "NUMFRAMES"  ? Kw::NumFrames
               : k == "NUMTRACKS"  ? Kw::NumTracks
               : k == "NOTETRACK"  ? Kw::NoteTrack
               : k == "NOTETRACKS" ? Kw::NoteTracks
                                   : Kw::Other;
    }
    switch (code) {
    case keywordCode("X"):
        return Kw::X;
    case keywordCode("Y"):
        return Kw::Y;
    case keywordCode("Z"):
        return Kw::Z;
    case keywordCode("PART"):
        return Kw::Part;
    case keywordCode("FRAME"):
        return Kw::Frame;
    case keywordCode("SCALE"):
        return Kw::Scale;
    case keywordCode("OFFSET"):
        return Kw::Offset;
    case keywordCode("VERSION"):
        return Kw::Version;
    case keywordCode("NUMKEYS"):
        return Kw::NumKeys;
    case keywordCode("NUMPARTS"):
        return Kw::NumParts;
    default:
        return Kw::Other;
    }
}

struct TrackCount {
    std::int32_t declared = 0;
    std::size_t have = 0;
};

class XanimFast {
public:
    XanimFast(std::string_view bytes, const ReadContext& ctx, DiagnosticSink& sink, Model& m)
        : m_in(bytes, sink), m_ctx(&ctx), m_sink(sink), m_m(m), m_s(m.skeleton)
    {
        m_a.kind = PoseKind::ModelMatrix;
    }

    bool run()
    {
        if (!readLines()) {
            return false;
        }
        if (!finish()) {
            COD_FAST_TRACE(SourceLoc{});
            return false;
        }
        return true;
    }

    int dominantEnding() const noexcept { return m_in.dominantEnding(); }
    std::uint32_t lines() const noexcept { return m_in.lines(); }
    std::uint32_t shares() const noexcept { return m_sharesKept; }

private:
    enum class Phase : std::uint8_t { Start, Parts, Frames, Notes };

    // What a share needs to know of the file before it (copied before the threads start).
    struct ShareSetup {
        const char* base = nullptr;
        const char* begin = nullptr;
        const char* stop = nullptr;
        std::size_t parts = 0;
    };

    // A share: reads the frames of [setup.begin, setup.stop) into its own animation.
    XanimFast(const ShareSetup& setup, DiagnosticSink& sink, Model& m)
        : m_in(setup.base, setup.begin, setup.stop, sink), m_sink(sink), m_m(m), m_s(m.skeleton),
          m_share(true)
    {
        m_a.kind = PoseKind::ModelMatrix;
        m_phase = Phase::Frames;
        m_nj = setup.parts;
        m_splitTried = true;
    }

    FastScanner m_in;
    const ReadContext* m_ctx = nullptr; // nullptr in a share
    DiagnosticSink& m_sink;
    Model& m_m;
    Skeleton& m_s;
    Animation m_a;
    const bool m_share = false;
    bool m_splitTried = false; // the frames were offered to threads
    std::uint32_t m_sharesKept = 0;
    bool m_failed = false; // a share left the subset
    Phase m_phase = Phase::Start;
    bool m_sawAnimation = false, m_sawVersion = false;
    std::int32_t m_numParts = -1, m_numFrames = -1;
    double m_fps = 0; // FRAMERATE, > 0 once read
    std::size_t m_nj = 0;
    std::size_t m_keysInFrame = 0;
    bool m_inKey = false;
    bool m_scales = false;
    // notes
    bool m_notePartSeen = false;
    bool m_tracksAfterPart = true; // the last of them has its NUMTRACKS
    std::int32_t m_notePart = 0, m_track = 0;
    std::vector<TrackCount> m_keyCounts, m_trackCounts;

    // Reads keyword lines up to the scanner's limit; false where the file leaves the subset.
    // Once the frames start, the rest of the file is offered to threads.
    bool readLines()
    {
        std::string_view kw;
        SourceLoc loc;
        for (;;) {
            const FastScanner::Next n = m_in.nextKeyword(kw, loc, m_m.headerComments);
            if (n == FastScanner::Next::End) {
                return true;
            }
            if (n == FastScanner::Next::Unsupported ||
                !line(keywordOf(kw, m_in.keywordCode()), loc)) {
                COD_FAST_TRACE(loc);
                return false;
            }
            if (m_phase == Phase::Frames && !m_splitTried) {
                m_splitTried = true;
                if (!parallelRest()) {
                    return false;
                }
            }
        }
    }

    // Frame lines only; a share ends at its limit or before the first other keyword.
    static bool shareKeyword(Kw k) noexcept
    {
        switch (k) {
        case Kw::Frame:
        case Kw::Part:
        case Kw::Offset:
        case Kw::Scale:
        case Kw::X:
        case Kw::Y:
        case Kw::Z:
            return true;
        default:
            return false;
        }
    }

    // A share's whole work (on its thread). Arrays are reserved for what its bytes can hold
    // (a key takes at least 40 bytes): capacity never written is address space, not memory.
    void runShare()
    {
        const std::size_t bytes = m_in.bytesLeft();
        const std::size_t keys = bytes / 40 + 1;
        m_a.times.reserve(keys / std::max<std::size_t>(m_nj, 1) + 1);
        m_a.frameWhere.reserve(keys / std::max<std::size_t>(m_nj, 1) + 1);
        m_a.positions.reserve(keys); // small pages: their capacity is far from all used
        m_a.axes.reserve(keys);
        m_a.explicitKey.reserve(keys);
        std::string_view kw;
        SourceLoc loc;
        for (;;) {
            const FastScanner::Next n = m_in.nextKeyword(kw, loc, m_m.headerComments);
            if (n == FastScanner::Next::End) {
                return;
            }
            if (n == FastScanner::Next::Unsupported) {
                m_failed = true;
                return;
            }
            const Kw k = keywordOf(kw, m_in.keywordCode());
            if (!shareKeyword(k)) {
                m_in.unread();
                return;
            }
            if (!line(k, loc)) {
                m_failed = true;
                return;
            }
        }
    }

    // Called right after the first FRAME line: the frames in shares on threads (see the top of
    // this file). False where the file leaves the subset in share 0, which is read here.
    bool parallelRest()
    {
        const char* const start = m_in.position();
        const char* const end = m_in.limit();
        const auto rest = static_cast<std::size_t>(end - start);
        const std::size_t count = shareCount(*m_ctx, rest);
        if (count < 2) {
            return true;
        }
        std::vector<ShareSetup> setups;
        for (std::size_t k = 1; k < count; ++k) {
            ShareSetup su;
            // A frame takes about 7 lines a part.
            const int look = static_cast<int>(std::min<std::size_t>(8 * m_nj + 16, 1 << 20));
            su.begin = guessLinePair(start + k * (rest / count), end, {"FRAME "}, {"PART "}, look);
            if (su.begin && su.begin > (setups.empty() ? start : setups.back().begin)) {
                setups.push_back(su);
            }
        }
        if (setups.empty()) {
            return true;
        }
        for (std::size_t k = 0; k < setups.size(); ++k) {
            ShareSetup& su = setups[k];
            su.stop = k + 1 < setups.size() ? setups[k + 1].begin : end;
            su.base = m_in.base();
            su.parts = m_nj;
        }
        const int kept = readShares<XanimFast>(
            setups, m_sink,
            [](const ShareSetup& su, DiagnosticSink& sink, Model& m) {
                std::unique_ptr<XanimFast> r(new XanimFast(su, sink, m));
                r->runShare();
                return r;
            },
            [&] {
                m_in.setLimit(setups[0].begin);
                const bool ok = readLines();
                m_in.setLimit(end);
                return ok;
            },
            [this](XanimFast& r, const ShareSetup& su, DiagnosticSink& sink) {
                if (r.m_failed || m_in.position() != su.begin || !spliceable(r)) {
                    return false;
                }
                splice(r, sink);
                return true;
            });
        if (kept < 0) {
            return false;
        }
        m_sharesKept = static_cast<std::uint32_t>(kept);
        return true;
    }

    // Whether reading on from here in order would read the share's first FRAME line as the share
    // did: in the frames, the previous frame complete, the next frame number. Changes nothing.
    bool spliceable(const XanimFast& t) const
    {
        return m_phase == Phase::Frames && !m_a.times.empty() && closeFrame() &&
               !t.m_a.times.empty() && t.m_a.times.front() == m_a.times.back() + 1.0;
    }

    // Appends a share read on a thread (spliceable) and goes on from where it ended, in the state
    // it ended in.
    void splice(XanimFast& t, DiagnosticSink& tSink)
    {
        const std::uint32_t lineBase = m_in.lines();
        Animation& a = m_a;
        Animation& x = t.m_a;
        const std::size_t keysBefore = a.positions.size();
        moveAppend(a.times, x.times);
        moveAppend(a.frameWhere, x.frameWhere, [lineBase](SourceLoc w) {
            w.line += lineBase;
            return w;
        });
        moveAppend(a.positions, x.positions);
        moveAppend(a.axes, x.axes);
        moveAppend(a.explicitKey, x.explicitKey);
        if (t.m_scales && !m_scales) { // one per key from the first SCALE line on
            m_scales = true;
            reserveBig(a.scales, a.positions.capacity());
        }
        if (m_scales) {
            a.scales.resize(keysBefore, Vec3::Ones());
            if (t.m_scales) {
                moveAppend(a.scales, x.scales); // one per key of the share
            }
            a.scales.resize(a.positions.size(), Vec3::Ones());
        }
        spliceDiagnostics(m_sink, tSink, lineBase);
        m_keysInFrame = t.m_keysInFrame;
        m_inKey = t.m_inKey;
        m_in.advancePast(t.m_in);
    }

    static bool count(FastScanner& in, std::int32_t& out)
    {
        return out < 0 && in.i(out) && out >= 0 && in.eol();
    }

    bool line(Kw k, const SourceLoc& loc)
    {
        switch (k) {
        case Kw::Offset:
        case Kw::X:
        case Kw::Y:
        case Kw::Z: {
            float v[3];
            if (!m_inKey || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            if (k == Kw::Offset) {
                m_a.positions.back() = Vec3(v[0], v[1], v[2]);
            } else {
                m_a.axes.back().col(k == Kw::X ? 0 : (k == Kw::Y ? 1 : 2)) = Vec3(v[0], v[1], v[2]);
            }
            return true;
        }
        case Kw::Part:
            return part(loc);
        case Kw::Frame:
            return frame(loc);
        case Kw::Scale: {
            float v[3];
            if (!m_inKey || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            if (!m_scales) { // 1 1 1 for every key before the first SCALE line
                m_scales = true;
                reserveBig(m_a.scales, m_a.positions.capacity());
                m_a.scales.assign(m_a.positions.size(), Vec3::Ones());
            }
            m_a.scales.back() = Vec3(v[0], v[1], v[2]);
            return true;
        }
        case Kw::Animation:
            if (m_phase != Phase::Start || !m_in.eol()) {
                return false;
            }
            m_sawAnimation = true;
            return true;
        case Kw::Version: {
            std::int32_t v = 0;
            if (m_phase != Phase::Start || m_sawVersion || !m_in.i(v) || v != 3 || !m_in.eol()) {
                return false;
            }
            m_sawVersion = true;
            return true;
        }
        case Kw::NumParts: {
            if (m_phase != Phase::Start || !m_sawAnimation || !m_sawVersion ||
                !count(m_in, m_numParts) || m_numParts == 0) {
                return false;
            }
            m_phase = Phase::Parts;
            const std::size_t n = boundedCount(m_numParts, m_in.bytesLeft(), 8);
            m_s.names.reserve(n);
            m_s.parents.reserve(n);
            m_s.sourceIds.reserve(n);
            m_s.where.reserve(n);
            m_s.bindPositions.reserve(n);
            m_s.bindRotations.reserve(n);
            m_s.bindAxes.reserve(n);
            m_s.bindScales.reserve(n);
            m_s.bindHasScale.reserve(n);
            m_s.bindWhere.reserve(n);
            return true;
        }
        case Kw::FrameRate:
            // Integral and > 0, else cod.framerate (as "30" or "30.000000").
            if (m_phase != Phase::Parts || m_fps > 0 || !m_in.d(m_fps) || !m_in.eol() ||
                !(m_fps > 0) || !std::isfinite(m_fps) || m_fps != std::floor(m_fps)) {
                return false;
            }
            return true;
        case Kw::NumFrames:
            return m_phase == Phase::Parts && count(m_in, m_numFrames);
        case Kw::NoteTracks:
            if (m_phase != Phase::Frames || !closeFrame() ||
                m_a.times.size() != static_cast<std::size_t>(m_numFrames) || !m_in.eol()) {
                return false;
            }
            m_phase = Phase::Notes;
            m_inKey = false;
            return true;
        case Kw::NumTracks: {
            std::int32_t v = 0;
            if (m_phase != Phase::Notes || !m_in.i(v) || !m_in.eol()) {
                return false;
            }
            m_trackCounts.push_back({v, 0});
            m_tracksAfterPart = true;
            return true;
        }
        case Kw::NoteTrack: {
            std::int32_t v = 0;
            if (m_phase != Phase::Notes || !m_in.i(v) || !m_in.eol()) {
                return false;
            }
            m_track = v;
            if (!m_trackCounts.empty()) {
                ++m_trackCounts.back().have;
            }
            return true;
        }
        case Kw::NumKeys: {
            std::int32_t v = 0;
            if (m_phase != Phase::Notes || !m_in.i(v) || !m_in.eol()) {
                return false;
            }
            if (!m_notePartSeen) {
                m_notePart = 0;
                m_track = 0;
            }
            m_keyCounts.push_back({v, 0});
            return true;
        }
        case Kw::Other:
            return false;
        }
        return false;
    }

    bool part(const SourceLoc& loc)
    {
        std::int32_t i = 0;
        if (!m_in.i(i)) {
            return false;
        }
        if (m_phase == Phase::Parts) { // PART i "name"
            std::string_view name;
            if (i != static_cast<std::int32_t>(m_s.size()) || i >= m_numParts || !m_in.str(name) ||
                !m_in.eol() || !plainName(name)) {
                return false;
            }
            m_s.addJoint(std::string(name), kNoJoint, i, loc);
            return true;
        }
        if (!m_in.eol()) {
            return false;
        }
        if (m_phase == Phase::Notes) {
            m_notePart = i;
            m_notePartSeen = true;
            m_track = 0;
            m_tracksAfterPart = false;
            return true;
        }
        if (m_phase != Phase::Frames || i != static_cast<std::int32_t>(m_keysInFrame) ||
            m_keysInFrame >= m_nj) {
            return false;
        }
        ++m_keysInFrame;
        m_inKey = true;
        m_a.positions.push_back(Vec3::Zero());
        m_a.axes.push_back(Mat3::Identity());
        m_a.explicitKey.push_back(1);
        if (m_scales) {
            m_a.scales.push_back(Vec3::Ones());
        }
        return true;
    }

    bool closeFrame() const noexcept { return m_a.times.empty() || m_keysInFrame == m_nj; }

    bool frame(const SourceLoc& loc)
    {
        double f = 0;
        if (!m_in.intAsDouble(f)) {
            return false;
        }
        if (m_phase == Phase::Notes) { // FRAME f "note"
            std::string_view text;
            if (!m_in.str(text) || !m_in.eol()) {
                return false;
            }
            Notetrack n;
            n.part = m_notePart;
            n.track = m_track;
            n.frame = f;
            n.text = std::string(text);
            n.where = loc;
            m_a.notes.push_back(std::move(n));
            if (!m_keyCounts.empty()) {
                ++m_keyCounts.back().have;
            }
            return true;
        }
        if (!m_in.eol()) {
            return false;
        }
        if (m_phase == Phase::Parts) {
            if (m_s.size() != static_cast<std::size_t>(m_numParts) || !(m_fps > 0) ||
                m_numFrames < 0) {
                return false;
            }
            m_phase = Phase::Frames;
            m_nj = m_s.size();
            m_a.jointCount = m_nj;
            const std::size_t frames = boundedCount(m_numFrames, m_in.bytesLeft(), 8);
            const std::size_t keys =
                boundedCount(static_cast<std::int64_t>(frames) * static_cast<std::int64_t>(m_nj),
                             m_in.bytesLeft(), 7);
            m_a.times.reserve(frames);
            m_a.frameWhere.reserve(frames);
            // Small pages: while shares are read on threads, huge ones would round the part read
            // here up by as much as 2 MB an array (the bench animation on 2 threads: 1.0 of the
            // memory budget instead of 0.94).
            m_a.positions.reserve(keys);
            m_a.axes.reserve(keys);
            m_a.explicitKey.reserve(keys);
        } else if (m_phase != Phase::Frames || !closeFrame() ||
                   (m_a.times.empty() ? !m_share : f != m_a.times.back() + 1.0)) {
            return false; // a share's first frame number is checked when it is spliced
        }
        m_a.times.push_back(f);
        m_a.frameWhere.push_back(loc);
        m_keysInFrame = 0;
        m_inKey = false;
        return true;
    }

    bool finish()
    {
        if (m_phase == Phase::Frames) {
            if (!closeFrame() || m_a.times.size() != static_cast<std::size_t>(m_numFrames)) {
                return false;
            }
        } else if (m_phase != Phase::Notes) {
            return false;
        } else if (m_notePartSeen && !m_tracksAfterPart) {
            return false; // NOTETRACKS cut short: the general path says so (syntax.truncated)
        }
        for (const TrackCount& c : m_keyCounts) {
            if (static_cast<std::size_t>(c.declared) != c.have || c.declared < 0) {
                return false;
            }
        }
        for (const TrackCount& c : m_trackCounts) {
            if (static_cast<std::size_t>(c.declared) != c.have || c.declared < 0) {
                return false;
            }
        }
        Model& m = m_m;
        m.kind = ModelKind::Animation;
        m.version = 3;
        m_s.bindKind = PoseKind::ModelMatrix;
        m_a.fps = static_cast<float>(m_fps);
        m_a.fpsFromFile = true;
        const double first = m_a.times.front();
        const double last = m_a.times.back();
        for (const Notetrack& n : m_a.notes) {
            if (n.frame < first || n.frame > last) {
                m_sink.warning(ids::kCodNotetrackRange, n.where,
                               "note '" + n.text + "' at frame " + numberText(n.frame) +
                                   " outside " + numberText(first) + ".." + numberText(last));
            }
        }
        m_a.noteStyle = m_a.notes.empty() ? NoteStyle::None
                                          : (m_notePartSeen ? NoteStyle::PerPart : NoteStyle::Flat);
        for (std::size_t j = 0; j < m_nj; ++j) {
            m_s.bindPositions[j] = m_a.positions[j];
            m_s.bindAxes[j] = m_a.axes[j];
            m_s.bindWhere[j] = m_a.frameWhere[0];
        }
        m.animations.push_back(std::move(m_a));
        return true;
    }
};

} // namespace

bool readXanimFast(std::string_view bytes, const ReadContext& ctx, ReadResult& out)
{
    out = ReadResult{};
    DiagnosticSink sink(ctx.fileName);
    XanimFast p(bytes, ctx, sink, out.model);
    if (!p.run()) {
        out = ReadResult{}; // free what was built before the general path runs
        return false;
    }
    const int e = p.dominantEnding();
    out.model.format = "xanim";
    out.model.lineEnding = e == 1 ? LineEnding::CRLF : (e == 2 ? LineEnding::CR : LineEnding::LF);
    out.hasModel = true;
    out.stats.fastLines = p.lines();
    out.stats.parallelShares = p.shares();
    out.diagnostics = sink.take();
    return true;
}

} // namespace rigscope::core::cod
