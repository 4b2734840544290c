#include "core/pose/effective_weights.h"

#include <algorithm>
#include <cmath>

namespace rigscope::core {

namespace {

JointIndex rigidJoint(const RawLinks& raw, JointIndex fallback) noexcept
{
    return raw.parent != kNoJoint ? raw.parent : fallback;
}

void rigid(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out)
{
    out.clear();
    const JointIndex j = rigidJoint(raw, fallback);
    if (j != kNoJoint) {
        out.push_back({j, 1.0f});
    }
}

bool hasLinkList(const RawLinks& raw) noexcept
{
    return raw.state == LinkState::List && !raw.joints.empty();
}

} // namespace

void authoredLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out)
{
    if (!hasLinkList(raw)) {
        rigid(raw, fallback, out);
        return;
    }
    out.clear();
    for (std::size_t i = 0; i < raw.joints.size(); ++i) {
        const float w = raw.weights[i];
        if (!(w > 0.0f) || !std::isfinite(w)) {
            continue; // NaN, infinite, negative and zero links are left out (and flagged by checks)
        }
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const Link& l) { return l.joint == raw.joints[i]; });
        if (it != out.end()) {
            it->weight += w;
        } else {
            out.push_back({raw.joints[i], w});
        }
    }
    double sum = 0.0;
    for (const Link& l : out) {
        sum += l.weight;
    }
    if (!(sum > 0.0) || !std::isfinite(sum)) {
        rigid(raw, fallback, out);
        return;
    }
    for (Link& l : out) {
        l.weight = static_cast<float>(l.weight / sum);
    }
}

void mergedLinks(const RawLinks& raw, std::vector<Link>& out)
{
    out.clear();
    for (std::size_t i = 0; i < raw.joints.size(); ++i) {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const Link& l) { return l.joint == raw.joints[i]; });
        if (it != out.end()) {
            it->weight += raw.weights[i];
        } else {
            out.push_back({raw.joints[i], raw.weights[i]});
        }
    }
}

void compiledSourceLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out,
                         float cull, std::size_t maxLinks, CompiledLinkStats* stats)
{
    if (stats) {
        *stats = {};
    }
    if (!hasLinkList(raw)) {
        rigid(raw, fallback, out);
        if (stats) {
            stats->afterCull = out.size();
        }
        return;
    }
    // 1. merge: a later duplicate adds to the first occurrence and becomes 0
    out.clear();
    for (std::size_t i = 0; i < raw.joints.size(); ++i) {
        Link link{raw.joints[i], raw.weights[i]};
        for (Link& earlier : out) {
            if (earlier.joint == link.joint) {
                earlier.weight += link.weight;
                link.weight = 0.0f;
                break;
            }
        }
        out.push_back(link);
    }
    // 2. bubble sort, descending, swapping only on strictly greater (ties keep file order;
    //    comparisons with NaN are false, so NaN stays where it is)
    const std::size_t n = out.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        for (std::size_t j = 0; j + 1 < n - i; ++j) {
            if (out[j + 1].weight > out[j].weight) {
                std::swap(out[j], out[j + 1]);
            }
        }
    }
    // 3. cull trailing raw weights below the threshold; the heaviest always survives
    while (out.size() > 1 && out.back().weight < cull) {
        out.pop_back();
    }
    if (stats) {
        stats->afterCull = out.size();
    }
    // 4. clip
    if (out.size() > maxLinks) {
        if (stats) {
            float total = 0.0f, dropped = 0.0f;
            for (std::size_t i = 0; i < out.size(); ++i) {
                total += out[i].weight;
                dropped += i >= maxLinks ? out[i].weight : 0.0f;
            }
            stats->droppedWeight = total > 0.0f ? dropped / total : 0.0f;
        }
        out.resize(maxLinks);
    }
    // 5. renormalise (studiomdl tests t <= 0, so a NaN sum divides and stays NaN)
    float t = 0.0f;
    for (const Link& l : out) {
        t += l.weight;
    }
    if (t <= 0.0f) {
        for (Link& l : out) {
            l.weight = 1.0f / static_cast<float>(out.size());
        }
    } else {
        for (Link& l : out) {
            l.weight /= t;
        }
    }
}

void compiledGoldSrcLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out)
{
    rigid(raw, fallback, out);
}

void effectiveLinks(const RawLinks& raw, Profile profile, WeightView view, JointIndex fallback,
                    std::vector<Link>& out)
{
    if (view == WeightView::Authored || profile == Profile::Cod) {
        authoredLinks(raw, fallback, out);
    } else if (goldSrcStudiomdl(profile)) {
        compiledGoldSrcLinks(raw, fallback, out);
    } else if (profile == Profile::Pathos) {
        // vbmcompiler: up to 4 links above 0.001, renormalised (compiler_types.cpp).
        compiledSourceLinks(raw, fallback, out, 0.001f, 4);
    } else {
        compiledSourceLinks(raw, fallback, out);
    }
}

std::size_t Influences::maxLinks() const noexcept
{
    std::size_t m = 0;
    for (std::size_t v = 0; v + 1 < offsets.size(); ++v) {
        m = std::max<std::size_t>(m, offsets[v + 1] - offsets[v]);
    }
    return m;
}

RawLinks rawLinks(const Mesh& mesh, std::size_t point) noexcept
{
    RawLinks raw;
    if (!mesh.influenceOffsets.empty()) {
        const std::size_t first = mesh.influenceOffsets[point];
        const std::size_t count = mesh.influenceOffsets[point + 1] - first;
        raw.joints = std::span<const JointIndex>(mesh.influenceJoints).subspan(first, count);
        raw.weights = std::span<const float>(mesh.influenceWeights).subspan(first, count);
    }
    raw.state = point < mesh.pointLinkState.size() ? mesh.pointLinkState[point] : LinkState::List;
    raw.parent = point < mesh.pointParents.size() ? mesh.pointParents[point] : kNoJoint;
    return raw;
}

Influences effectiveInfluences(const Mesh& mesh, std::size_t jointCount, Profile profile,
                               WeightView view)
{
    Influences inf;
    const std::size_t n = mesh.pointCount();
    inf.offsets.reserve(n + 1);
    inf.joints.reserve(mesh.influenceJoints.size() + n);
    inf.weights.reserve(mesh.influenceJoints.size() + n);
    inf.offsets.push_back(0);
    const JointIndex fallback = jointCount > 0 ? 0 : kNoJoint;
    std::vector<Link> links;
    for (std::size_t p = 0; p < n; ++p) {
        effectiveLinks(rawLinks(mesh, p), profile, view, fallback, links);
        for (const Link& l : links) {
            if (l.joint < 0 || static_cast<std::size_t>(l.joint) >= jointCount) {
                continue; // unresolved joint: the reader already reported it
            }
            inf.joints.push_back(l.joint);
            inf.weights.push_back(l.weight);
        }
        inf.offsets.push_back(static_cast<std::uint32_t>(inf.joints.size()));
    }
    return inf;
}

Influences remapInfluences(const Influences& perPoint, std::span<const std::uint32_t> vertexPoint)
{
    Influences out;
    out.offsets.reserve(vertexPoint.size() + 1);
    out.offsets.push_back(0);
    for (std::uint32_t p : vertexPoint) {
        if (static_cast<std::size_t>(p) + 1 < perPoint.offsets.size()) {
            for (std::uint32_t k = perPoint.offsets[p]; k < perPoint.offsets[p + 1]; ++k) {
                out.joints.push_back(perPoint.joints[k]);
                out.weights.push_back(perPoint.weights[k]);
            }
        }
        out.offsets.push_back(static_cast<std::uint32_t>(out.joints.size()));
    }
    return out;
}

} // namespace rigscope::core
