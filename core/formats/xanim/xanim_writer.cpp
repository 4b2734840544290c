// XANIM_EXPORT v3 and NT_EXPORT writers (FORMATS.md §4, §6.3): absolute frame numbers, SCALE
// only when the source had it, notetracks in the style read (per-part under part 0 by default).
#include <algorithm>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/xanim/xanim.h"
#include "core/formats/cod/cod_record.h"

namespace rigscope::core {

namespace {

int endingFor(const Model& m, std::string_view textFormat)
{
    return m.format == textFormat ? static_cast<int>(m.lineEnding) : 1;
}

void noteLine(cod::TextOut& o, const Notetrack& n)
{
    o.kw("FRAME").d(n.frame).s(n.text).nl();
}

} // namespace

WriteResult writeXanim(const Model& m, const WriteContext& ctx)
{
    WriteResult res;
    DiagnosticSink sink(ctx.fileName);
    if (m.animations.empty() || m.animations.front().kind != PoseKind::ModelMatrix) {
        sink.error(ids::kWriteBadName, {1, 1, 0},
                   m.animations.empty() ? "model has no animation to write"
                                        : "animation holds SMD-style parent-relative keys; convert "
                                          "it with 'rigscope-cli convert'");
        res.diagnostics = sink.take();
        return res;
    }
    const Animation& a = m.animations.front();
    const Skeleton& s = m.skeleton;
    cod::TextOut o(endingFor(m, "xanim"));
    cod::comments(o, m.headerComments);
    o.kw("ANIMATION").nl();
    o.kw("VERSION").i(3).nl();
    o.nl();
    const cod::BoneNumbering bn = cod::boneNumbering(s.sourceIds);
    o.kw("NUMPARTS").i(static_cast<std::int64_t>(s.size())).nl();
    for (std::size_t j : bn.order) {
        o.kw("PART").i(bn.index[j]).s(s.names[j]).nl();
    }
    o.nl();
    o.kw("FRAMERATE").d(a.fps).nl();
    o.kw("NUMFRAMES").i(static_cast<std::int64_t>(a.frameCount())).nl();
    const bool scales = !a.scales.empty();
    for (std::size_t f = 0; f < a.frameCount(); ++f) {
        o.kw("FRAME").d(a.times[f]).nl();
        for (std::size_t j : bn.order) {
            const std::size_t k = a.key(f, j);
            o.kw("PART").i(bn.index[j]).nl();
            o.kw("OFFSET").fs(a.positions[k].data(), 3).nl();
            if (scales) {
                o.kw("SCALE").fs(a.scales[k].data(), 3).nl();
            }
            for (int c = 0; c < 3; ++c) {
                const Vec3 col = a.axes[k].col(c);
                o.kw(c == 0 ? "X" : (c == 1 ? "Y" : "Z")).fs(col.data(), 3).nl();
            }
            o.nl();
        }
    }
    o.kw("NOTETRACKS").nl();
    o.nl();
    if (a.noteStyle == NoteStyle::Flat) {
        o.kw("NUMKEYS").i(static_cast<std::int64_t>(a.notes.size())).nl();
        for (const Notetrack& n : a.notes) {
            noteLine(o, n);
        }
    } else {
        // Per-part: every part, tracks in first-appearance order, notes in model order. A
        // note whose part is not a part index goes under part 0.
        auto partOf = [&s](const Notetrack& n) {
            return (n.part >= 0 && static_cast<std::size_t>(n.part) < s.size()) ? n.part : 0;
        };
        for (std::size_t j : bn.order) {
            const std::int32_t part = bn.index[j];
            std::vector<std::int32_t> tracks;
            for (const Notetrack& n : a.notes) {
                if (partOf(n) == part &&
                    std::find(tracks.begin(), tracks.end(), n.track) == tracks.end()) {
                    tracks.push_back(n.track);
                }
            }
            o.kw("PART").i(part).nl();
            o.kw("NUMTRACKS").i(static_cast<std::int64_t>(tracks.size())).nl();
            for (std::int32_t t : tracks) {
                std::size_t count = 0;
                for (const Notetrack& n : a.notes) {
                    count += (partOf(n) == part && n.track == t) ? 1u : 0u;
                }
                o.kw("NOTETRACK").i(t).nl();
                o.kw("NUMKEYS").i(static_cast<std::int64_t>(count)).nl();
                for (const Notetrack& n : a.notes) {
                    if (partOf(n) == part && n.track == t) {
                        noteLine(o, n);
                    }
                }
            }
            o.nl();
        }
        if (s.empty() && !a.notes.empty()) {
            sink.warning(ids::kCodUnsupported, {1, 1, 0},
                         "notes dropped: per-part notetracks need a part");
        }
    }
    cod::finishDiagnostics(o, sink);
    res.bytes = std::move(o.text);
    res.diagnostics = sink.take();
    return res;
}

WriteResult writeNtExport(const Model& m, const WriteContext& ctx)
{
    WriteResult res;
    DiagnosticSink sink(ctx.fileName);
    cod::TextOut o(endingFor(m, "nt"));
    const Animation* a = m.animations.empty() ? nullptr : &m.animations.front();
    o.kw("FIRSTFRAME").d(a && !a->times.empty() ? a->times.front() : 0.0).nl();
    o.kw("NUMFRAMES").i(a ? static_cast<std::int64_t>(a->frameCount()) : 0).nl();
    o.kw("NUMKEYS").i(a ? static_cast<std::int64_t>(a->notes.size()) : 0).nl();
    if (a) {
        for (const Notetrack& n : a->notes) {
            noteLine(o, n);
        }
    }
    cod::finishDiagnostics(o, sink);
    res.bytes = std::move(o.text);
    res.diagnostics = sink.take();
    return res;
}

} // namespace rigscope::core
