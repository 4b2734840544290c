#include "core/pose/weight_stats.h"

#include <algorithm>
#include <cmath>

#include "core/diag/limits.h"
#include "core/pose/effective_weights.h"

namespace rigscope::core {

namespace {

float l1Distance(const std::vector<Link>& a, const std::vector<Link>& b) noexcept
{
    float d = 0.0f;
    for (const Link& x : a) {
        const auto it =
            std::find_if(b.begin(), b.end(), [&](const Link& y) { return y.joint == x.joint; });
        d += std::abs(x.weight - (it != b.end() ? it->weight : 0.0f));
    }
    for (const Link& y : b) {
        if (std::none_of(a.begin(), a.end(), [&](const Link& x) { return x.joint == y.joint; })) {
            d += std::abs(y.weight);
        }
    }
    return d;
}

} // namespace

WeightStats weightStats(const Mesh& mesh, std::size_t jointCount, Profile profile)
{
    const Profile p = profile == Profile::Auto ? Profile::Source : profile;
    const Limits lim = limitsFor(p);
    WeightStats out;
    out.limit = lim.weightsPerVertex;
    const std::size_t n = mesh.pointCount();
    out.linkCount.assign(n, 0);
    out.overLimit.assign(n, 0);
    out.change.assign(n, 0.0f);
    out.problem.assign(n, WeightProblem::None);
    const JointIndex fallback = jointCount > 0 ? 0 : kNoJoint;
    std::vector<Link> merged, authored, compiled;
    for (std::size_t pt = 0; pt < n; ++pt) {
        const RawLinks raw = rawLinks(mesh, pt);
        merged.clear();
        bool nonFinite = false;
        const bool listed = raw.state == LinkState::List && !raw.joints.empty();
        for (std::size_t i = 0; i < raw.joints.size(); ++i) {
            const float w = raw.weights[i];
            if (!std::isfinite(w)) {
                nonFinite = true;
                continue;
            }
            if (!(w > 0.0f)) {
                continue;
            }
            auto it = std::find_if(merged.begin(), merged.end(),
                                   [&](const Link& l) { return l.joint == raw.joints[i]; });
            if (it != merged.end()) {
                it->weight += w;
            } else {
                merged.push_back({raw.joints[i], w});
            }
        }
        const bool hasBone = raw.parent != kNoJoint || fallback != kNoJoint;
        std::size_t count = merged.size();
        if (count == 0 && !listed && hasBone) {
            count = 1; // rigid
        }
        out.linkCount[pt] = static_cast<std::uint8_t>(std::min<std::size_t>(count, 255));
        if (nonFinite) {
            out.problem[pt] = WeightProblem::NonFinite;
        } else if (listed && merged.empty()) {
            out.problem[pt] = WeightProblem::ZeroSum;
        } else if (count == 0) {
            out.problem[pt] = WeightProblem::Unweighted;
        }
        if (lim.weightsPerVertex > 0) {
            std::sort(merged.begin(), merged.end(),
                      [](const Link& a, const Link& b) { return a.weight > b.weight; });
            while (merged.size() > 1 && lim.weightCull > 0.0f &&
                   merged.back().weight < lim.weightCull) {
                merged.pop_back();
            }
            out.overLimit[pt] = merged.size() > lim.weightsPerVertex ? 1 : 0;
        }
        effectiveLinks(raw, p, WeightView::Authored, fallback, authored);
        effectiveLinks(raw, p, WeightView::Compiled, fallback, compiled);
        const float d = l1Distance(authored, compiled);
        out.change[pt] = std::isfinite(d) ? std::min(d, 2.0f) : 2.0f;
    }
    return out;
}

} // namespace rigscope::core
