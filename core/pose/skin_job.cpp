#include "core/pose/skin_job.h"

#include <algorithm>
#include <cmath>

#include "core/pose/skin_matrices_job.h"

namespace rigscope::core {

bool SkinMatricesJob::validate() const noexcept
{
    return model.size() == inverseBind.size() && skin.size() == model.size();
}

bool SkinMatricesJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t j = 0; j < model.size(); ++j) {
        skin[j] = (model[j] * inverseBind[j]).affine();
    }
    return true;
}

bool SkinJob::validate() const noexcept
{
    const std::size_t n = positions.size();
    if (offsets.size() != n + 1 || outPositions.size() != n || weights.size() != joints.size()) {
        return false;
    }
    if (!normals.empty() && normals.size() != n) {
        return false;
    }
    if (outNormals.size() != normals.size()) {
        return false;
    }
    if (!outLinear.empty() && outLinear.size() != n) {
        return false;
    }
    if (offsets[n] != joints.size()) {
        return false;
    }
    const std::size_t last = std::min(end, n);
    if (begin > last) {
        return false;
    }
    for (std::size_t v = begin; v < last; ++v) {
        if (offsets[v] > offsets[v + 1]) {
            return false;
        }
    }
    const std::size_t jointCount = skin.size();
    for (std::size_t k = offsets[begin]; k < offsets[last]; ++k) {
        if (joints[k] < 0 || static_cast<std::size_t>(joints[k]) >= jointCount) {
            return false;
        }
    }
    return true;
}

bool SkinJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    const std::size_t last = std::min(end, positions.size());
    const bool doNormals = !normals.empty();
    const bool doLinear = !outLinear.empty();
    for (std::size_t v = begin; v < last; ++v) {
        const std::uint32_t first = offsets[v];
        const std::uint32_t stop = offsets[v + 1];
        SkinMatrix m = SkinMatrix::Zero();
        float sum = 0.0f;
        for (std::uint32_t k = first; k < stop; ++k) {
            const float w = weights[k];
            if (std::isfinite(w)) {
                m.noalias() += w * skin[static_cast<std::size_t>(joints[k])];
                sum += w;
            }
        }
        if (!(sum > 0.0f) || !std::isfinite(sum)) {
            outPositions[v] = positions[v];
            if (doNormals) {
                outNormals[v] = normals[v];
            }
            if (doLinear) {
                outLinear[v] = Mat3::Identity();
            }
            continue;
        }
        if (sum != 1.0f) {
            m *= 1.0f / sum;
        }
        // Written out: Eigen's Block<3x4> * Vector3f product goes through a generic path here.
        const float* a = m.data(); // column-major: columns at 0, 3, 6 and the translation at 9
        const Vec3& p = positions[v];
        outPositions[v] = Vec3(a[0] * p.x() + a[3] * p.y() + a[6] * p.z() + a[9],
                               a[1] * p.x() + a[4] * p.y() + a[7] * p.z() + a[10],
                               a[2] * p.x() + a[5] * p.y() + a[8] * p.z() + a[11]);
        if (doNormals) {
            const Vec3& q = normals[v];
            const Vec3 n(a[0] * q.x() + a[3] * q.y() + a[6] * q.z(),
                         a[1] * q.x() + a[4] * q.y() + a[7] * q.z(),
                         a[2] * q.x() + a[5] * q.y() + a[8] * q.z());
            const float len2 = n.squaredNorm();
            outNormals[v] = len2 > 0.0f ? Vec3(n * (1.0f / std::sqrt(len2))) : n;
        }
        if (doLinear) {
            outLinear[v] = m.leftCols<3>();
        }
    }
    return true;
}

} // namespace rigscope::core
