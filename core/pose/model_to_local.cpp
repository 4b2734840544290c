#include "core/pose/model_to_local.h"

#include "core/pose/local_to_model.h"

namespace rigscope::core {

bool AxesToModelJob::validate() const noexcept
{
    return positions.size() == axes.size() && model.size() == positions.size();
}

bool AxesToModelJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
        Xform& x = model[i];
        x.linear() = axes[i];
        x.translation() = positions[i];
        x.makeAffine();
    }
    return true;
}

bool ModelToLocalJob::validate() const noexcept
{
    if (model.size() != parents.size() || local.size() != parents.size()) {
        return false;
    }
    if (!parents.empty() && static_cast<const void*>(model.data()) == local.data()) {
        return false;
    }
    return parentsAreOrdered(parents);
}

bool ModelToLocalJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex p = parents[i];
        if (p == kNoJoint) {
            local[i] = model[i];
        } else {
            local[i] = model[static_cast<std::size_t>(p)].inverse(Eigen::Affine) * model[i];
        }
    }
    return true;
}

} // namespace rigscope::core
