#include "core/pose/scene_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/pose/skin_job.h"
#include "core/pose/skin_matrices_job.h"

namespace rigscope::core {

bool FlexSetting::anyNonZero() const noexcept
{
    return std::any_of(left.begin(), left.end(), [](float w) { return w != 0.0f; }) ||
           std::any_of(right.begin(), right.end(),
                       [](float w) { return !std::isnan(w) && w != 0.0f; });
}

SceneEvaluator::SceneEvaluator(std::shared_ptr<const Model> reference, std::vector<FlexSet> flex,
                               Profile profile)
    : m_reference(std::move(reference)), m_flex(std::move(flex)),
      m_rig(makePoseRig(m_reference->skeleton)),
      m_profile(profile == Profile::Auto ? Profile::Source : profile)
{
    for (const FlexSet& f : m_flex) {
        m_firstShape.push_back(m_names.size());
        m_names.insert(m_names.end(), f.targets.names.begin(), f.targets.names.end());
    }
}

std::size_t SceneEvaluator::shapeIndex(const std::string& name) const noexcept
{
    const auto it = std::find(m_names.begin(), m_names.end(), name);
    return it == m_names.end() ? SIZE_MAX : static_cast<std::size_t>(it - m_names.begin());
}

std::vector<SideWeights> SceneEvaluator::shapeWeights(const FlexSetting& setting) const
{
    std::vector<SideWeights> out(m_names.size());
    for (std::size_t s = 0; s < out.size(); ++s) {
        const float l = s < setting.left.size() ? setting.left[s] : 0.0f;
        const float r =
            s < setting.right.size() && !std::isnan(setting.right[s]) ? setting.right[s] : l;
        out[s] = {l, r};
    }
    for (std::size_t f = 0; f < m_flex.size(); ++f) {
        const FlexSet& set = m_flex[f];
        if (!set.model || set.model->flexDominators.empty()) {
            continue;
        }
        // Each suppressed shape is scaled by 1 - the product of its dominators' values, per
        // side, within the file that declares the rule (core::applyDomination).
        const std::size_t first = m_firstShape[f];
        const std::size_t count = set.targets.shapeCount();
        std::vector<SideWeights> sides(out.begin() + static_cast<std::ptrdiff_t>(first),
                                       out.begin() + static_cast<std::ptrdiff_t>(first + count));
        auto shapeOf = [&set](const std::string& name) {
            const auto& n = set.targets.names;
            const auto it = std::find(n.begin(), n.end(), name);
            return it == n.end() ? SIZE_MAX : static_cast<std::size_t>(it - n.begin());
        };
        applyDomination(set.model->flexDominators, shapeOf, sides);
        std::copy(sides.begin(), sides.end(), out.begin() + static_cast<std::ptrdiff_t>(first));
    }
    return out;
}

std::vector<Vec3> SceneEvaluator::morphOffsets(const FlexSetting& setting) const
{
    std::vector<Vec3> positions;
    morph(setting, positions, nullptr);
    return positions;
}

void SceneEvaluator::morph(const FlexSetting& setting, std::vector<Vec3>& positions,
                           std::vector<Vec3>* normals) const
{
    positions.clear();
    if (normals) {
        normals->clear();
    }
    if (!setting.anyNonZero() || m_reference->mesh.empty()) {
        return;
    }
    const std::size_t points = m_reference->mesh.pointCount();
    const std::vector<SideWeights> sides = shapeWeights(setting);
    positions.assign(points, Vec3::Zero());
    for (std::size_t f = 0; f < m_flex.size(); ++f) {
        const FlexTargets& t = m_flex[f].targets;
        const Model* fm = m_flex[f].model.get();
        // A DMX's stereo split, when its points are the reference's.
        const std::vector<float>* balance =
            fm && fm->pointBalance.size() == points ? &fm->pointBalance : nullptr;
        const bool withNormals = normals && t.deltaNormals.size() == t.deltaPositions.size();
        if (withNormals && normals->empty()) {
            normals->assign(points, Vec3::Zero());
        }
        for (std::size_t s = 0; s < t.shapeCount(); ++s) {
            const float l = sides[m_firstShape[f] + s].left;
            const float r = sides[m_firstShape[f] + s].right;
            if (l == 0.0f && r == 0.0f) {
                continue;
            }
            for (std::uint32_t k = t.shapeOffsets[s]; k < t.shapeOffsets[s + 1]; ++k) {
                const std::uint32_t p = t.targets[k];
                if (p >= points) {
                    continue;
                }
                const float b = balance ? (*balance)[p] : 0.5f;
                // Mono (l == r) moves every point by l whatever its balance.
                const float w = l == r ? l : r * b + l * (1.0f - b);
                positions[p] += w * t.deltaPositions[k];
                if (withNormals) {
                    (*normals)[p] += w * t.deltaNormals[k];
                }
            }
        }
    }
}

const Influences& SceneEvaluator::influences(WeightView view, Profile profile) const
{
    if (profile == Profile::Auto) {
        profile = m_profile;
    }
    const std::lock_guard lock(m_cacheMutex);
    std::unique_ptr<const Influences>& slot = m_cache[{profile, view}];
    if (!slot) {
        const Model& m = *m_reference;
        slot = std::make_unique<const Influences>(
            effectiveInfluences(m.mesh, m.skeleton.size(), profile, view));
    }
    return *slot;
}

namespace {

bool skinWith(std::span<const SkinMatrix> skin, const Influences& inf,
              std::span<const Vec3> positions, std::span<Vec3> out, std::span<Mat3> linear)
{
    SkinJob job;
    job.skin = skin;
    job.offsets = inf.offsets;
    job.joints = inf.joints;
    job.weights = inf.weights;
    job.positions = positions;
    job.outPositions = out;
    job.outLinear = linear;
    return job.run();
}

} // namespace

void SceneEvaluator::evaluate(std::span<const Xform> joints, const FlexSetting& flex,
                              const EvaluateOptions& options, SceneFrame& out) const
{
    const Model& m = *m_reference;
    const Mesh& mesh = m.mesh;
    const std::size_t points = mesh.pointCount();
    out.posed = !joints.empty() && joints.size() == m.skeleton.size();
    if (out.posed) {
        out.joints.assign(joints.begin(), joints.end());
    } else {
        out.joints = m_rig.bindModel;
    }

    // Bind space: the morph added to the written positions.
    std::vector<Vec3> base(mesh.pointPositions.begin(), mesh.pointPositions.end());
    base.resize(points, Vec3::Zero());
    std::vector<Vec3> offsets, normalOffsets;
    morph(flex, offsets, options.normals ? &normalOffsets : nullptr);
    for (std::size_t p = 0; p < offsets.size() && p < points; ++p) {
        base[p] += offsets[p];
    }

    std::vector<Mat3> linear;
    out.displacement.clear();
    if (out.posed) {
        std::vector<SkinMatrix> skin(m_rig.jointCount());
        SkinMatricesJob{out.joints, m_rig.inverseBind, skin}.run();
        const Influences& inf = influences(options.weights, options.profile);
        out.positions.resize(points);
        linear.resize(options.normals ? points : 0);
        const bool ok =
            inf.vertexCount() == points && skinWith(skin, inf, base, out.positions, linear);
        if (!ok) { // inconsistent influences: shown unskinned rather than not at all
            out.positions = base;
            linear.clear();
        }
        if (options.displacement && ok) {
            const WeightView other = options.weights == WeightView::Compiled ? WeightView::Authored
                                                                             : WeightView::Compiled;
            const Influences& oinf = influences(other, options.profile);
            std::vector<Vec3> q(points);
            out.displacement.assign(points, 0.0f);
            if (oinf.vertexCount() == points && skinWith(skin, oinf, base, q, {})) {
                for (std::size_t p = 0; p < points; ++p) {
                    const float d = (q[p] - out.positions[p]).norm();
                    out.displacement[p] = std::isfinite(d) ? d : 0.0f;
                }
            }
        }
    } else {
        out.positions = std::move(base);
    }

    out.cornerNormals.clear();
    if (!options.normals) {
        return;
    }
    const std::size_t corners = mesh.cornerCount();
    out.cornerNormals.resize(corners, Vec3::Zero());
    for (std::size_t c = 0; c < corners; ++c) {
        Vec3 n = c < mesh.cornerNormals.size() ? mesh.cornerNormals[c] : Vec3::Zero();
        if (!n.allFinite()) {
            continue;
        }
        const std::uint32_t p = mesh.cornerPoints[c];
        if (p < normalOffsets.size()) {
            n += normalOffsets[p];
        }
        if (!linear.empty() && p < linear.size()) {
            n = linear[p] * n;
        }
        const float len = n.norm();
        out.cornerNormals[c] = len > 1e-12f && std::isfinite(len) ? Vec3(n / len) : Vec3::Zero();
    }
}

} // namespace rigscope::core
