// weights.* checks (CHECKS.md §4.3, §5).
#include <cmath>

#include "core/checks/check_util.h"
#include "core/checks/checks.h"

namespace rigscope::core::checks {

namespace {

// Points whose links count: SMD `links n > 0`; XMODEL every pool vertex.
bool hasLinks(const Mesh& me, std::size_t p) noexcept
{
    return me.pointLinkState[p] != LinkState::Zero && me.influenceCount(p) > 0;
}

ElementRef vertexRef(std::size_t p)
{
    return {K::Vertex, static_cast<std::int32_t>(p)};
}

// True when a link of point `p` has a weight `test` accepts.
template <class Test> bool anyWeight(const Mesh& me, std::size_t p, Test test)
{
    if (me.influenceCount(p) == 0) {
        return false;
    }
    const std::uint32_t o = me.influenceOffsets[p];
    for (std::uint32_t i = 0; i < me.influenceCount(p); ++i) {
        if (test(me.influenceWeights[o + i])) {
            return true;
        }
    }
    return false;
}

struct RawSum {
    double sum = 0;
    bool finite = true;
    bool allNonPositive = true;
};

RawSum rawSum(const Mesh& me, std::size_t p)
{
    RawSum r;
    const std::uint32_t o = me.influenceOffsets[p];
    for (std::uint32_t i = 0; i < me.influenceCount(p); ++i) {
        const float w = me.influenceWeights[o + i];
        if (!std::isfinite(w)) {
            r.finite = false;
        }
        if (w > 0) {
            r.allNonPositive = false;
        }
        r.sum += w;
    }
    return r;
}

} // namespace

void checkWeightsSumToOne(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if (!hasLinks(me, pt)) {
            continue;
        }
        const RawSum r = rawSum(me, pt);
        if (!r.finite || r.allNonPositive || std::abs(r.sum - 1.0) <= 1e-3 + 1e-5 ||
            !once.first(pt)) {
            continue;
        }
        sink.warning(ids::kWeightsSumNotOne, me.pointWhere[pt],
                     "weights sum to " + num(r.sum) + "; " +
                         (p == Profile::Cod
                              ? std::string("the CoD tools keep them as written (PyCoD does not "
                                            "normalise by default)")
                              : std::string(profileName(p)) +
                                    " renormalises (assimp gives the rest to the parent bone)"),
                     vertexRef(pt));
    }
}

void checkWeightsNegative(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if (!anyWeight(me, pt, [](float w) { return w < 0; }) || !once.first(pt)) {
            continue;
        }
        const std::uint32_t o = me.influenceOffsets[pt];
        for (std::uint32_t i = 0; i < me.influenceCount(pt); ++i) {
            const float w = me.influenceWeights[o + i];
            if (w < 0) {
                sink.error(ids::kWeightsNegative, me.pointWhere[pt],
                           "weight " + num(w) + " on bone " +
                               quoted(boneName(m.skeleton, me.influenceJoints[o + i])) +
                               " is negative",
                           vertexRef(pt));
            }
        }
    }
}

void checkWeightsZeroSum(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    const bool xmodel = isXModel(m); // once, not per point (a lookup by format name)
    VertexOnce once(m);
    std::vector<Link> links;
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        const bool placeholder = me.pointWhere[pt].line == 0 && me.pointWhere[pt].offset == 0;
        if (xmodel && me.influenceCount(pt) == 0 && !placeholder) {
            sink.warning(ids::kWeightsZeroSum, me.pointWhere[pt],
                         "vertex has no weights (BONES 0); it stays rigid on bone " +
                             quoted(boneName(m.skeleton, 0)),
                         vertexRef(pt));
            continue;
        }
        if (!hasLinks(me, pt)) {
            continue;
        }
        const RawSum r = rawSum(me, pt);
        if (!r.finite || !r.allNonPositive || !once.first(pt)) {
            continue;
        }
        compiledLinks(me, pt, p == Profile::Cod ? Profile::Source : p, links);
        const JointIndex b = links.empty() ? kNoJoint : links.front().joint;
        sink.warning(ids::kWeightsZeroSum, me.pointWhere[pt],
                     "weights sum to " + num(r.sum) + "; " +
                         (p == Profile::Cod
                              ? std::string("the CoD tools get no usable weight (the vertex skins "
                                            "to nothing)")
                              : std::string(compilerName(p)) + " gives 100% to " +
                                    quoted(boneName(m.skeleton, b)) + " (first after sorting)"),
                     vertexRef(pt));
    }
}

void checkWeightsZeroLink(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    const bool xmodel = isXModel(m);
    VertexOnce once(m);
    std::size_t k = 0;
    std::size_t first = SIZE_MAX;
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if ((!hasLinks(me, pt) && !xmodel) ||
            !anyWeight(me, pt, [](float w) { return w == 0.0f; }) || !once.first(pt)) {
            continue;
        }
        const std::uint32_t o = me.influenceOffsets.empty() ? 0 : me.influenceOffsets[pt];
        for (std::uint32_t i = 0; i < me.influenceCount(pt); ++i) {
            if (me.influenceWeights[o + i] == 0.0f) {
                ++k;
                if (first == SIZE_MAX) {
                    first = pt;
                }
            }
        }
    }
    if (k > 0) {
        sink.note(ids::kWeightsZeroLink, me.pointWhere[first],
                  groupedCount(k) + (k == 1 ? " zero-weight link" : " zero-weight links") +
                      " (dropped by " + std::string(compilerName(p)) + ")",
                  vertexRef(first));
    }
}

void checkWeightsNan(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if (!anyWeight(me, pt, [](float w) { return !std::isfinite(w); }) || !once.first(pt)) {
            continue;
        }
        const std::uint32_t o = me.influenceOffsets[pt];
        for (std::uint32_t i = 0; i < me.influenceCount(pt); ++i) {
            const float w = me.influenceWeights[o + i];
            if (!std::isfinite(w)) {
                sink.error(ids::kWeightsNan, me.pointWhere[pt],
                           "weight on bone " +
                               quoted(boneName(m.skeleton, me.influenceJoints[o + i])) + " is " +
                               num(w) + "; the vertex skins to NaN",
                           vertexRef(pt));
            }
        }
    }
}

void checkWeightsTooManyLinks(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    const Limits lim = limitsFor(p, &m);
    if (lim.weightsPerVertex == 0) {
        return;
    }
    VertexOnce once(m);
    std::vector<Link> links;
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        // Merging and the cull only take links away: no more written than kept, nothing to say.
        if (!hasLinks(me, pt) || me.influenceCount(pt) <= lim.weightsPerVertex) {
            continue;
        }
        std::size_t n = 0;
        float dropped = 0;
        if (goldSrcStudiomdl(p)) {
            // GoldSrc reads no links: everything but the parent field's bone is lost.
            mergedLinks(me, pt, links);
            double total = 0, onParent = 0;
            for (const Link& l : links) {
                if (l.weight > 0) {
                    ++n;
                    total += l.weight;
                    if (l.joint == me.pointParents[pt]) {
                        onParent += l.weight;
                    }
                }
            }
            dropped = total > 0 ? static_cast<float>(1.0 - onParent / total) : 0.0f;
        } else {
            compiledLinks(me, pt, p, links, &n, &dropped);
        }
        if (n <= lim.weightsPerVertex || !once.first(pt)) {
            continue;
        }
        sink.warning(ids::kWeightsTooManyLinks, me.pointWhere[pt],
                     "vertex has " + std::to_string(n) +
                         (goldSrcStudiomdl(p) ? " links; " : " links after culling; ") +
                         std::string(profileName(p)) + " keeps at most " +
                         std::to_string(lim.weightsPerVertex) + " (drops " + num(dropped, 3) +
                         " of weight)",
                     vertexRef(pt));
    }
}

void checkWeightsBelowCull(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    std::vector<Link> links;
    std::size_t k = 0;
    std::size_t first = SIZE_MAX;
    float largest = 0;
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if (!hasLinks(me, pt) || !anyWeight(me, pt, [](float w) { return w > 0 && w < 0.05f; }) ||
            !once.first(pt)) {
            continue;
        }
        mergedLinks(me, pt, links);
        // The heaviest link always survives the cull.
        std::size_t heaviest = 0;
        for (std::size_t i = 1; i < links.size(); ++i) {
            if (links[i].weight > links[heaviest].weight) {
                heaviest = i;
            }
        }
        for (std::size_t i = 0; i < links.size(); ++i) {
            const float w = links[i].weight;
            if (i != heaviest && w > 0 && w < 0.05f) {
                ++k;
                largest = std::max(largest, w);
                if (first == SIZE_MAX) {
                    first = pt;
                }
            }
        }
    }
    if (k > 0) {
        sink.note(ids::kWeightsBelowCull, me.pointWhere[first],
                  groupedCount(k) + (k == 1 ? " link" : " links") +
                      " below 0.05 dropped by studiomdl (largest " + num(largest) + ")",
                  vertexRef(first));
    }
}

void checkWeightsDuplicateLink(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        const std::uint32_t n = me.influenceCount(pt);
        if (n < 2) {
            continue;
        }
        const std::uint32_t o = me.influenceOffsets[pt];
        bool repeated = false;
        for (std::uint32_t i = 0; i < n && !repeated; ++i) {
            for (std::uint32_t j = i + 1; j < n && !repeated; ++j) {
                repeated = me.influenceJoints[o + i] == me.influenceJoints[o + j];
            }
        }
        if (!repeated || !once.first(pt)) {
            continue;
        }
        for (std::uint32_t i = 0; i < n; ++i) {
            const JointIndex b = me.influenceJoints[o + i];
            bool earlier = false;
            std::size_t count = 0;
            for (std::uint32_t j = 0; j < n; ++j) {
                if (me.influenceJoints[o + j] == b) {
                    ++count;
                    earlier = earlier || j < i;
                }
            }
            if (count > 1 && !earlier) {
                sink.warning(ids::kWeightsDuplicateLink, me.pointWhere[pt],
                             "bone " + quoted(boneName(m.skeleton, b)) + " listed " +
                                 std::to_string(count) + " times; " + std::string(compilerName(p)) +
                                 (p == Profile::Cod ? " sum" : " sums") +
                                 " them, other tools may not",
                             vertexRef(pt));
            }
        }
    }
}

void checkWeightsParentMismatch(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    std::vector<Link> links;
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        if (!hasLinks(me, pt) || me.pointParents[pt] == kNoJoint) {
            continue;
        }
        mergedLinks(me, pt, links);
        std::size_t heaviest = 0;
        for (std::size_t i = 1; i < links.size(); ++i) {
            if (links[i].weight > links[heaviest].weight) {
                heaviest = i;
            }
        }
        const JointIndex b = links[heaviest].joint;
        if (b == me.pointParents[pt]) {
            continue;
        }
        // A tie with the parent field's bone is not a mismatch.
        bool tie = false;
        for (const Link& l : links) {
            tie = tie || (l.joint == me.pointParents[pt] && l.weight == links[heaviest].weight);
        }
        if (tie || !once.first(pt)) {
            continue;
        }
        sink.warning(ids::kWeightsParentMismatch, me.pointWhere[pt],
                     "GoldSrc binds this vertex to " +
                         quoted(boneName(m.skeleton, me.pointParents[pt])) +
                         " (parent field), links favour " + quoted(boneName(m.skeleton, b)),
                     vertexRef(pt));
    }
}

} // namespace rigscope::core::checks
