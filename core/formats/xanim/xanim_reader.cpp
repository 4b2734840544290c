// XANIM_EXPORT v3 and NT_EXPORT readers (FORMATS.md §4). parseXanimRecords is shared with the
// *_BIN reader.
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/xanim/xanim.h"
#include "core/formats/cod/cod_grammar.h"
#include "core/formats/cod/cod_parser.h"
#include "core/formats/xbin/xbin_stream.h"
#include "core/io/file_buffer.h"
#include "core/text/plural.h"

namespace rigscope::core {

namespace cod {

namespace {

struct PartInfo {
    std::int32_t index = 0;
    std::string name;
    SourceLoc loc;
};

struct RawKey {
    std::int32_t part = 0;
    Vec3 pos = Vec3::Zero();
    Mat3 axes = Mat3::Identity();
    Vec3 scale = Vec3::Ones();
    bool hasScale = false;
    bool hasZ = false; // the block's last line
    SourceLoc loc;
};

struct RawFrame {
    double num = 0;
    SourceLoc loc;
    std::uint32_t firstKey = 0, keyCount = 0;
};

struct TrackCount {
    Count declared; // NUMKEYS / NUMTRACKS
    std::size_t have = 0;
};

enum class Section : std::uint8_t { Start, Parts, Frames, Notes };

// cod.notetrack-range for a note outside first..last (it is kept).
void noteRange(DiagnosticSink& sink, const Notetrack& n, double first, double last)
{
    if (n.frame < first || n.frame > last) {
        sink.warning(ids::kCodNotetrackRange, n.where,
                     "note '" + n.text + "' at frame " + numberText(n.frame) + " outside " +
                         numberText(first) + ".." + numberText(last));
    }
}

class XanimParser : public RecordParser<XanimParser> {
public:
    using RecordParser::RecordParser;

private:
    friend class RecordParser<XanimParser>;

    bool sawHeader() const noexcept { return m_sawAnimation; }

    // Shares (cod_parser.h) begin at a FRAME line after the first one, in the frames section
    // with the counts as read.
    struct ShareStart {
        Section section = Section::Frames;
        std::optional<std::int64_t> parts, frames;
        bool operator==(const ShareStart&) const = default;
    };
    bool splitsAfter(const Record& r) const noexcept
    {
        return r.kw == Kw::Frame && m_section == Section::Frames;
    }
    static const char* shareStart(const char* from, const char* end, int& /*kind*/) noexcept
    {
        const std::string_view tail(from, static_cast<std::size_t>(end - from));
        const std::size_t at = tail.find("\nFRAME ");
        return at == std::string_view::npos ? nullptr : from + at + 1;
    }
    ShareStart startState(int /*kind*/) const noexcept
    {
        return {m_section, m_numParts.value, m_numFrames.value};
    }
    void beginShare(const ShareStart& s, std::size_t bytes)
    {
        m_section = s.section;
        m_numParts.value = s.parts;
        m_numFrames.value = s.frames;
        m_share = true;
        // a key takes at least 40 bytes ("PART 1\nOFFSET 0 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\n")
        reserveMore(m_keys, bytes / 40);
        reserveMore(m_frames, bytes / 40 / std::max<std::size_t>(1, partsPerFrame()));
    }
    // Part block lines and plain FRAME lines; keys before the share's first frame fail it.
    ShareRead shareReads(const Record& r) const noexcept
    {
        const bool frameLine = (r.kw == Kw::Frame || r.kw == Kw::Part) && r.argc < 2;
        const bool keyLine = r.kw == Kw::Offset || r.kw == Kw::Scale || r.kw == Kw::X ||
                             r.kw == Kw::Y || r.kw == Kw::Z;
        if (!frameLine && !keyLine) {
            return ShareRead::Stop;
        }
        return m_frames.empty() && r.kw != Kw::Frame ? ShareRead::Fail : ShareRead::Read;
    }

    // Appends a share's frames and keys (its lines counted from `lineBase`).
    void splice(XanimParser& p, std::uint32_t lineBase)
    {
        auto fix = [lineBase](SourceLoc l) { return shifted(l, lineBase); };
        const auto keyBase = static_cast<std::uint32_t>(m_keys.size());
        appendShare(m_frames, p.m_frames, [&](RawFrame f) {
            f.firstKey += keyBase;
            f.loc = fix(f.loc);
            return f;
        });
        appendShare(m_keys, p.m_keys, [&](RawKey k) {
            k.loc = fix(k.loc);
            return k;
        });
        m_inKey = p.m_inKey;
        m_skipBlock = p.m_skipBlock;
    }
    bool m_share = false;
    bool m_sawAnimation = false;
    bool m_sawVersion = false;
    Section m_section = Section::Start;
    Count m_numParts, m_numFrames;
    std::optional<double> m_fps;
    SourceLoc m_fpsLoc;
    std::vector<PartInfo> m_parts;
    std::vector<RawFrame> m_frames;
    std::vector<RawKey> m_keys;
    bool m_inKey = false;
    bool m_skipBlock = false; // inside a PART block whose index is out of range
    // notes
    std::vector<Notetrack> m_notes;
    bool m_notePartSeen = false;
    bool m_flatSeen = false;
    std::int32_t m_notePart = 0;
    std::int32_t m_track = 0;
    std::vector<TrackCount> m_keyCounts;   // NUMKEYS per track
    std::vector<TrackCount> m_trackCounts; // NUMTRACKS per part
    // syntax.truncated (issue 15)
    bool m_truncatedLastFrame = false;
    bool m_tracksAfterPart = true; // the last of them has its NUMTRACKS
    bool m_keysAfterTrack = true;  // the last NOTETRACK has its NUMKEYS

    std::size_t expectedArgs(const Record& r) const noexcept
    {
        const std::string_view k = r.keyword;
        if (k == "PART") {
            return m_section == Section::Parts && m_frames.empty() &&
                           (!m_numParts.value ||
                            static_cast<std::int64_t>(m_parts.size()) < *m_numParts.value)
                       ? 2
                       : 1;
        }
        if (k == "FRAME") {
            return m_section == Section::Notes ? 2 : 1;
        }
        return keywordFields(k, Grammar::Xanim);
    }

    std::size_t partsPerFrame() const noexcept
    {
        return m_numParts.value ? countOf(m_numParts) : m_parts.size();
    }

    // Frame f lacks parts, or its last part block lacks its Z line.
    bool frameIncomplete(const RawFrame& f) const noexcept
    {
        return f.keyCount < partsPerFrame() ||
               (f.keyCount > 0 && !m_keys[f.firstKey + f.keyCount - 1].hasZ);
    }

    // The file ends before its structure is complete (FORMATS.md §3.3 section order).
    void integrityAtEof()
    {
        std::string what;
        if (m_section != Section::Notes) {
            if (!m_numParts.value) {
                what = "before NUMPARTS";
            } else if (m_frames.empty() && m_parts.size() < partsPerFrame()) {
                what = "after " + groupedCount(m_parts.size()) + " of " +
                       plural(partsPerFrame(), "part");
                m_truncatedCount = &m_numParts;
            } else if (!m_numFrames.value && m_frames.empty()) {
                what = "before NUMFRAMES";
            } else if (m_frames.empty() && m_numFrames.value && *m_numFrames.value > 0) {
                what =
                    "before the first FRAME (NUMFRAMES " + std::to_string(*m_numFrames.value) + ")";
            } else if (!m_frames.empty()) {
                const RawFrame& last = m_frames.back();
                const bool cutFrame = frameIncomplete(last);
                const std::size_t declared = countOf(m_numFrames);
                if (m_frames.size() < declared) {
                    what = "after " + groupedCount(m_frames.size() - (cutFrame ? 1 : 0)) + " of " +
                           plural(declared, "frame");
                    m_truncatedCount = &m_numFrames;
                }
                if (cutFrame) {
                    what += what.empty() ? "inside " : ", inside ";
                    what += "frame " + numberText(last.num) + " (" + std::to_string(last.keyCount) +
                            " of " + plural(partsPerFrame(), "part") + ")";
                    m_truncatedLastFrame = true;
                }
            }
        } else {
            if (!m_keyCounts.empty() &&
                m_keyCounts.back().have < countOf(m_keyCounts.back().declared)) {
                what = "after " + groupedCount(m_keyCounts.back().have) + " of " +
                       plural(countOf(m_keyCounts.back().declared), "notetrack key");
                m_truncatedCount = &m_keyCounts.back().declared;
            } else if (!m_keysAfterTrack) {
                what =
                    "inside NOTETRACKS (NOTETRACK " + std::to_string(m_track) + " has no NUMKEYS)";
            } else if (m_notePartSeen && !m_tracksAfterPart) {
                // exporters list only the parts with notes: a PART line needs its NUMTRACKS
                what =
                    "inside NOTETRACKS (PART " + std::to_string(m_notePart) + " has no NUMTRACKS)";
            } else if (!m_trackCounts.empty() &&
                       m_trackCounts.back().have < countOf(m_trackCounts.back().declared)) {
                what = "after " + groupedCount(m_trackCounts.back().have) + " of " +
                       plural(countOf(m_trackCounts.back().declared), "notetrack");
                m_truncatedCount = &m_trackCounts.back().declared;
            }
        }
        reportTruncated(what);
    }

    void dispatch(const Record& r)
    {
        switch (r.kw) {
        case Kw::Offset:
        case Kw::Scale:
        case Kw::X:
        case Kw::Y:
        case Kw::Z:
            vector3(r);
            return;
        case Kw::Part:
            m_skipBlock = false;
            part(r);
            return;
        case Kw::Frame:
            m_skipBlock = false;
            frame(r);
            return;
        default:
            m_skipBlock = false;
            break;
        }
        const std::string_view k = r.keyword;
        if (k == "ANIMATION") {
            m_sawAnimation = true;
        } else if (k == "VERSION") {
            std::int32_t v = 0;
            if (needArgs(r, 1, m_sink, "VERSION") && argInt(r, 0, v, m_sink, "VERSION")) {
                m_sawVersion = true;
                if (v != 3) {
                    m_sink.error(ids::kSyntaxBadVersion, argLoc(r, 0),
                                 "version " + std::to_string(v) + "; cod accepts 3");
                }
            }
        } else if (k == "NUMPARTS") {
            readCount(r, m_numParts, r.keyword);
            m_section = Section::Parts;
        } else if (k == "FRAMERATE") {
            double v = 0;
            if (needArgs(r, 1, m_sink, "FRAMERATE") && argDouble(r, 0, v, m_sink, "FRAMERATE")) {
                m_fps = v;
                m_fpsLoc = r.loc;
            }
        } else if (k == "NUMFRAMES") {
            readCount(r, m_numFrames, r.keyword);
        } else if (k == "NOTETRACKS") {
            m_section = Section::Notes;
            m_inKey = false;
        } else if (k == "NUMTRACKS") {
            TrackCount c;
            readCount(r, c.declared, k);
            if (c.declared.value) {
                m_trackCounts.push_back(c);
                m_tracksAfterPart = true;
            }
        } else if (k == "NOTETRACK") {
            std::int32_t v = 0;
            if (needArgs(r, 1, m_sink, k) && argInt(r, 0, v, m_sink, k)) {
                m_track = v;
                m_keysAfterTrack = false;
                if (!m_trackCounts.empty()) {
                    ++m_trackCounts.back().have;
                }
            }
        } else if (k == "NUMKEYS") {
            TrackCount c;
            m_inKey = false;
            m_keysAfterTrack = true;
            readCount(r, c.declared, k);
            if (c.declared.value) {
                if (!m_notePartSeen) {
                    m_flatSeen = true;
                    m_notePart = 0;
                    m_track = 0;
                }
                m_keyCounts.push_back(c);
            }
        } else if (k == "EXTRA" || k == "ROTATION" || k == "QUATERNION") {
            m_sink.warning(ids::kCodUnsupported, r.loc, "'" + std::string(k) + "' data skipped");
        } else if (r.cut && isCutKeyword(k)) {
            m_cutAt = r.loc; // a keyword cut short at the end of the file
            m_cutWhat = "line ('" + shownToken(k) + "')";
        } else {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "unknown keyword '" + shownToken(k) + "' skipped");
        }
    }

    void part(const Record& r)
    {
        std::int32_t i = 0;
        if (!needArgs(r, 1, m_sink, "PART") || !argInt(r, 0, i, m_sink, "part index")) {
            m_inKey = false;
            return;
        }
        if (r.argc >= 2) { // PART i "name"
            if (i < 0 || (m_numParts.value && i >= *m_numParts.value) ||
                static_cast<std::uint64_t>(i) >= m_limit) {
                m_sink.error(ids::kCodIndexRange, argLoc(r, 0),
                             "part index " + std::to_string(i) +
                                 (i < 0 ? " < 0"
                                        : " \u2265 NUMPARTS " +
                                              std::to_string(m_numParts.value.value_or(0))));
                return;
            }
            m_parts.push_back({i, argName(r, 1, m_sink), r.loc});
            return;
        }
        if (m_section == Section::Notes) {
            m_notePart = i;
            m_notePartSeen = true;
            m_track = 0;
            m_tracksAfterPart = false;
            return;
        }
        m_inKey = false;
        if (m_frames.empty()) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "'PART' block before any 'FRAME' skipped");
            return;
        }
        if (i < 0 || (m_numParts.value && i >= *m_numParts.value) ||
            static_cast<std::uint64_t>(i) >= m_limit) {
            m_sink.error(
                ids::kCodIndexRange, argLoc(r, 0),
                "part index " + std::to_string(i) +
                    (i < 0 ? " < 0"
                           : " \u2265 NUMPARTS " + std::to_string(m_numParts.value.value_or(0))) +
                    "; block skipped");
            m_skipBlock = true;
            return;
        }
        RawKey key;
        key.part = i;
        key.loc = r.loc;
        m_keys.push_back(key);
        ++m_frames.back().keyCount;
        m_inKey = true;
    }

    void frame(const Record& r)
    {
        m_inKey = false;
        if (r.argc >= 2) { // FRAME f "note"
            double f = 0;
            if (!argDouble(r, 0, f, m_sink, "note frame")) {
                return;
            }
            if (!m_notePartSeen && m_section != Section::Notes) {
                m_flatSeen = true;
            }
            m_keysAfterTrack = true; // a key: the track is not cut after its NOTETRACK line
            m_notes.push_back({.part = m_notePart,
                               .track = m_track,
                               .frame = f,
                               .text = argString(r, 1),
                               .where = r.loc});
            if (!m_keyCounts.empty()) {
                ++m_keyCounts.back().have;
            }
            return;
        }
        if (m_section == Section::Notes) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "'FRAME' without a note inside NOTETRACKS skipped");
            return;
        }
        double f = 0;
        if (!needArgs(r, 1, m_sink, "FRAME") || !argDouble(r, 0, f, m_sink, "frame")) {
            return;
        }
        if (!std::isfinite(f)) {
            m_sink.error(ids::kSyntaxBadNumber, argLoc(r, 0),
                         "expected a finite frame number, got '" + numberText(f) + "'");
            return;
        }
        if (f != std::floor(f)) {
            m_sink.note(ids::kCodFractionalFrame, argLoc(r, 0),
                        "fractional frame " + numberText(f));
        }
        m_section = Section::Frames;
        if (m_frames.empty() && !m_share && m_numFrames.value && m_numParts.value) {
            // Room for the declared keys, at most what the bytes can hold ("PART 0\n").
            const std::uint64_t frames = countOf(m_numFrames);
            reserveMore(m_keys, static_cast<std::size_t>(std::min<std::uint64_t>(
                                    frames * countOf(m_numParts), m_limit / 7)));
            reserveMore(m_frames,
                        static_cast<std::size_t>(std::min<std::uint64_t>(frames, m_limit / 8)));
        }
        RawFrame fr;
        fr.num = f;
        fr.loc = r.loc;
        fr.firstKey = static_cast<std::uint32_t>(m_keys.size());
        m_frames.push_back(fr);
    }

    void vector3(const Record& r)
    {
        if (m_skipBlock) {
            return;
        }
        if (!m_inKey || m_keys.empty()) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "'" + shownToken(r.keyword) + "' outside a part block skipped");
            return;
        }
        float v[3];
        if (!needArgs(r, 3, m_sink, r.keyword) || !argFloats(r, 0, 3, v, m_sink, r.keyword)) {
            return;
        }
        RawKey& key = m_keys.back();
        const Vec3 vec(v[0], v[1], v[2]);
        if (r.kw == Kw::Offset) {
            key.pos = vec;
        } else if (r.kw == Kw::Scale) {
            key.scale = vec;
            key.hasScale = true;
        } else {
            key.axes.col(r.kw == Kw::X ? 0 : (r.kw == Kw::Y ? 1 : 2)) = vec;
            key.hasZ = key.hasZ || r.kw == Kw::Z;
        }
    }

    void finish();
};

void XanimParser::finish()
{
    Model& m = m_model;
    m.kind = ModelKind::Animation;
    m.version = 3;
    if (!m_sawVersion) {
        m_sink.error(ids::kSyntaxBadVersion, {1, 1, 0}, "version missing; cod accepts 3");
    }
    Skeleton& s = m.skeleton;
    s.bindKind = PoseKind::ModelMatrix;

    // ---- parts
    const auto slots = lastWins(
        m_parts, [](const PartInfo& p) { return p.index; }, "part",
        [this](std::size_t k) { return m_parts[k].loc; });
    countMismatch(m_numParts, "NUMPARTS", slots.size());
    // Part index -> joint: joint j has the j-th smallest index (slots are sorted by index), so
    // a lookup is a table read when the indices are dense, else a binary search.
    std::vector<std::int32_t> indexOf;
    for (std::size_t slot : slots) {
        const PartInfo& p = m_parts[slot];
        s.addJoint(p.name, kNoJoint, p.index, p.loc);
        indexOf.push_back(p.index);
    }
    const std::size_t nj = s.size();
    const bool dense = !indexOf.empty() && indexOf.front() == 0 &&
                       indexOf.back() == static_cast<std::int32_t>(nj) - 1;
    auto jointOf = [&](std::int32_t part) {
        if (dense) {
            return part >= 0 && static_cast<std::size_t>(part) < nj ? static_cast<std::size_t>(part)
                                                                    : SIZE_MAX;
        }
        const auto it = std::lower_bound(indexOf.begin(), indexOf.end(), part);
        return it != indexOf.end() && *it == part ? static_cast<std::size_t>(it - indexOf.begin())
                                                  : SIZE_MAX;
    };

    // ---- frame rate
    Animation a;
    a.kind = PoseKind::ModelMatrix;
    a.jointCount = nj;
    if (!m_fps) {
        m_sink.warning(ids::kCodFramerate, {1, 1, 0}, "FRAMERATE missing; using 30");
    } else if (!(*m_fps > 0) || !std::isfinite(*m_fps)) {
        m_sink.warning(ids::kCodFramerate, m_fpsLoc,
                       "framerate " + numberText(*m_fps) + " \u2264 0; using 30");
    } else {
        a.fps = static_cast<float>(*m_fps);
        a.fpsFromFile = true;
        if (*m_fps != std::floor(*m_fps)) {
            m_sink.warning(ids::kCodFramerate, m_fpsLoc,
                           "framerate " + numberText(*m_fps) + " stored as " +
                               numberText(std::round(*m_fps)));
        }
    }

    // ---- frames: sort, last wins, gaps
    countMismatch(m_numFrames, "NUMFRAMES", m_frames.size());
    std::vector<std::size_t> order(m_frames.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
        if (i > 0 && m_frames[i].num < m_frames[i - 1].num) {
            m_sink.error(ids::kCodFrameGaps, m_frames[i].loc,
                         "frame " + numberText(m_frames[i].num) + " follows frame " +
                             numberText(m_frames[i - 1].num) + "; frames sorted",
                         {ElementRef::Kind::Frame, static_cast<std::int32_t>(i)});
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return m_frames[x].num < m_frames[y].num;
    });
    std::vector<std::size_t> unique;
    for (std::size_t idx : order) {
        if (!unique.empty() && m_frames[unique.back()].num == m_frames[idx].num) {
            m_sink.error(ids::kCodFrameGaps, m_frames[idx].loc,
                         "frame " + numberText(m_frames[idx].num) + " repeated; the last one wins",
                         {ElementRef::Kind::Frame, static_cast<std::int32_t>(unique.size() - 1)});
            unique.back() = idx;
        } else {
            unique.push_back(idx);
        }
    }
    if (!unique.empty()) {
        const double first = m_frames[unique.front()].num;
        const double last = m_frames[unique.back()].num;
        for (std::size_t u = 1; u < unique.size(); ++u) {
            const double prev = m_frames[unique[u - 1]].num;
            const double cur = m_frames[unique[u]].num;
            if (cur - prev > 1.0 && prev == std::floor(prev) && cur == std::floor(cur)) {
                const double missing = cur - prev - 1.0;
                m_sink.error(
                    ids::kCodFrameGaps, m_frames[unique[u]].loc,
                    "frame " + numberText(prev + 1) + " missing (range " + numberText(first) +
                        ".." + numberText(last) + ")" +
                        (missing > 1 ? "; " + numberText(missing) + " frames missing" : ""),
                    {ElementRef::Kind::Frame, static_cast<std::int32_t>(u)});
            }
        }
    }
    const bool anyScale =
        std::any_of(m_keys.begin(), m_keys.end(), [](const RawKey& k) { return k.hasScale; });
    std::vector<std::uint8_t> got(nj);
    reserveMore(a.times, unique.size());
    reserveMore(a.frameWhere, unique.size());
    reserveMore(a.positions, unique.size() * nj);
    reserveMore(a.axes, unique.size() * nj);
    reserveMore(a.explicitKey, unique.size() * nj);
    for (std::size_t u = 0; u < unique.size(); ++u) {
        const RawFrame& fr = m_frames[unique[u]];
        const std::size_t f = a.appendFrame(fr.num, fr.loc);
        if (f == 0 && anyScale) {
            a.scales.assign(nj, Vec3::Ones());
        }
        std::fill(got.begin(), got.end(), std::uint8_t{0});
        for (std::uint32_t k = fr.firstKey; k < fr.firstKey + fr.keyCount; ++k) {
            const RawKey& key = m_keys[k];
            const std::size_t j = jointOf(key.part);
            if (j == SIZE_MAX) {
                m_sink.error(ids::kCodIndexRange, key.loc,
                             "part index " + std::to_string(key.part) +
                                 " has no 'PART i \"name\"' line",
                             {ElementRef::Kind::Frame, static_cast<std::int32_t>(f)});
                continue;
            }
            if (got[j]) {
                m_sink.warning(ids::kCodDuplicateIndex, key.loc,
                               "part " + std::to_string(key.part) + " given twice in frame " +
                                   numberText(fr.num) + "; the last one wins",
                               {ElementRef::Kind::Frame, static_cast<std::int32_t>(f)});
            }
            got[j] = 1;
            const std::size_t at = a.key(f, j);
            a.positions[at] = key.pos;
            a.axes[at] = key.axes;
            if (anyScale) {
                a.scales[at] = key.scale;
            }
            a.explicitKey[at] = 1;
        }
        const auto missing =
            static_cast<std::size_t>(std::count(got.begin(), got.end(), std::uint8_t{0}));
        if (missing > 0 && !(m_truncatedLastFrame && unique[u] + 1 == m_frames.size())) {
            m_sink.error(ids::kCodCountMismatch, fr.loc,
                         "frame " + numberText(fr.num) + " lacks " + std::to_string(missing) +
                             " of " + std::to_string(nj) + " parts; carried forward",
                         {ElementRef::Kind::Frame, static_cast<std::int32_t>(f)});
        }
    }

    // ---- notes
    for (const TrackCount& c : m_keyCounts) {
        countMismatch(c.declared, "NUMKEYS", c.have);
    }
    for (const TrackCount& c : m_trackCounts) {
        countMismatch(c.declared, "NUMTRACKS", c.have);
    }
    if (!a.times.empty()) {
        for (const Notetrack& n : m_notes) {
            noteRange(m_sink, n, a.times.front(), a.times.back());
        }
    }
    a.notes = std::move(m_notes);
    a.noteStyle =
        a.notes.empty() ? NoteStyle::None : (m_notePartSeen ? NoteStyle::PerPart : NoteStyle::Flat);
    // Bind pose: the first frame (parts have no rest pose of their own).
    if (!a.times.empty()) {
        for (std::size_t j = 0; j < nj; ++j) {
            s.bindPositions[j] = a.positions[j];
            s.bindAxes[j] = a.axes[j];
            s.bindWhere[j] = a.frameWhere[0];
        }
    }
    m.animations.push_back(std::move(a));
}

// NT_EXPORT (FORMATS.md §4.3): FIRSTFRAME, NUMFRAMES, NUMKEYS and note FRAME lines, read into
// one Animation holding only notes.
class NtParser : public RecordParser<NtParser> {
public:
    using RecordParser::RecordParser;

private:
    friend class RecordParser<NtParser>;
    static constexpr bool kShares = false;
    std::optional<double> m_first;
    Count m_numFrames, m_numKeys;
    std::vector<Notetrack> m_notes;

    // Any record, cut or not.
    bool sawHeader() const noexcept { return m_lastAt.line != 0 || m_cutAt.line != 0; }
    std::size_t expectedArgs(const Record& r) const noexcept
    {
        return keywordFields(r.keyword, Grammar::Nt);
    }

    void dispatch(const Record& r)
    {
        const std::string_view k = r.keyword;
        if (k == "FIRSTFRAME") {
            double v = 0;
            if (needArgs(r, 1, m_sink, k) && argDouble(r, 0, v, m_sink, "FIRSTFRAME") &&
                std::isfinite(v)) {
                // Frames are FIRSTFRAME + i: beyond 2^31 (CoD frames are ints) a double stops
                // counting by 1 (4e127 + 1 == 4e127) and the frame times would not increase.
                if (std::fabs(v) <= 2147483648.0) {
                    m_first = v;
                } else {
                    m_sink.error(ids::kSyntaxBadNumber, argLoc(r, 0),
                                 "FIRSTFRAME " + shownToken(r.args[0].text) +
                                     " outside \u00b12^31; 0 used");
                }
            }
        } else if (k == "NUMFRAMES") {
            readCount(r, m_numFrames, k);
        } else if (k == "NUMKEYS") {
            readCount(r, m_numKeys, k);
        } else if (k == "FRAME") {
            double f = 0;
            if (needArgs(r, 2, m_sink, "note FRAME") && argDouble(r, 0, f, m_sink, "note frame")) {
                m_notes.push_back({.frame = f, .text = argString(r, 1), .where = r.loc});
            }
        } else {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "unknown keyword '" + shownToken(k) + "' skipped");
        }
    }

    // syntax.truncated (issue 15): fewer keys than NUMKEYS at the end, or a cut last line.
    void integrityAtEof()
    {
        std::string what;
        if (m_numKeys.value && *m_numKeys.value > static_cast<std::int64_t>(m_notes.size())) {
            what = "after " + groupedCount(m_notes.size()) + " of " +
                   plural(static_cast<std::size_t>(*m_numKeys.value), "key");
        } else if (!m_numFrames.value || !m_numKeys.value) {
            what = !m_numFrames.value ? "before NUMFRAMES" : "before NUMKEYS";
        }
        if (!what.empty() || m_cutAt.line != 0) {
            m_truncatedCount = &m_numKeys;
        }
        reportTruncated(what);
    }

    void finish()
    {
        constexpr std::int64_t kMaxFrames = 1 << 18;
        countMismatch(m_numKeys, "NUMKEYS", m_notes.size());
        std::int64_t n = m_numFrames.value.value_or(0);
        if (n < 0 || n > kMaxFrames) {
            m_sink.error(ids::kCodCountMismatch, m_numFrames.loc,
                         "NUMFRAMES says " + std::to_string(n) + "; 0.." +
                             std::to_string(kMaxFrames) + " kept");
            n = n < 0 ? 0 : kMaxFrames;
        }
        Animation a;
        a.kind = PoseKind::ModelMatrix;
        a.noteStyle = NoteStyle::SeparateFile;
        const double f0 = m_first.value_or(0.0);
        for (std::int64_t i = 0; i < n; ++i) {
            a.appendFrame(f0 + static_cast<double>(i), m_numFrames.loc);
        }
        a.notes = std::move(m_notes);
        if (n > 0) {
            for (const Notetrack& note : a.notes) {
                noteRange(m_sink, note, f0, f0 + static_cast<double>(n - 1));
            }
        }
        m_model.animations.push_back(std::move(a));
        m_model.kind = ModelKind::Animation;
        m_model.version = 1;
    }
};

} // namespace

template <class Source>
bool parseXanimRecords(Source& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit)
{
    return XanimParser(sink, m, indexLimit).run(in);
}
template bool parseXanimRecords(TextRecordStream&, DiagnosticSink&, Model&, std::uint64_t);
template bool parseXanimRecords(xbin::BinRecordStream&, DiagnosticSink&, Model&, std::uint64_t);

} // namespace cod

int sniffXanim(std::string_view head) noexcept
{
    return cod::firstKeywordIs(head, {"ANIMATION"}) ? 90 : 0;
}

ReadResult readXanim(std::string_view bytes, const ReadContext& ctx)
{
    return cod::readText<cod::XanimParser>(bytes, ctx, "xanim",
                                           "no 'ANIMATION' keyword; not an XANIM_EXPORT file");
}

int sniffNtExport(std::string_view head) noexcept
{
    return cod::firstKeywordIs(head, {"FIRSTFRAME", "NUMFRAMES", "NUMKEYS"}) ? 80 : 0;
}

ReadResult readNtExport(std::string_view bytes, const ReadContext& ctx)
{
    return cod::readText<cod::NtParser>(bytes, ctx, "nt", "not an NT_EXPORT file");
}

std::string ntExportPathFor(const std::string& xanimPath)
{
    const bool hasDir = xanimPath.find('/') != std::string::npos;
    const std::string stem = (hasDir ? directoryOf(xanimPath) + "/" : "") + stemName(xanimPath);
    for (const char* ext : {".NT_EXPORT", ".nt_export"}) {
        std::string p = stem + ext;
        if (fileExists(p)) {
            return p;
        }
    }
    return {};
}

void mergeNotetracks(Model& anim, const Model& nt, DiagnosticSink& sink)
{
    if (anim.animations.empty() || nt.animations.empty()) {
        return;
    }
    Animation& a = anim.animations.front();
    const Animation& n = nt.animations.front();
    const double aFirst = a.times.empty() ? 0.0 : a.times.front();
    const double nFirst = n.times.empty() ? 0.0 : n.times.front();
    if (aFirst != nFirst || a.times.size() != n.times.size()) {
        sink.warning(ids::kCodNtexportMismatch,
                     n.frameWhere.empty() ? SourceLoc{1, 1, 0} : n.frameWhere.front(),
                     "NT_EXPORT covers " + numberText(nFirst) + "+" +
                         std::to_string(n.times.size()) + ", anim " + numberText(aFirst) + "+" +
                         std::to_string(a.times.size()));
    }
    for (const Notetrack& note : n.notes) {
        if (!a.times.empty()) {
            cod::noteRange(sink, note, a.times.front(), a.times.back());
        }
        a.notes.push_back(note);
    }
    if (!n.notes.empty()) {
        a.noteStyle = NoteStyle::SeparateFile;
    }
}

} // namespace rigscope::core
