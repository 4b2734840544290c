#include "core/pose/local_to_model.h"

namespace rigscope::core {

bool parentsAreOrdered(std::span<const JointIndex> parents) noexcept
{
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex p = parents[i];
        if (p != kNoJoint && (p < 0 || static_cast<std::size_t>(p) >= i)) {
            return false;
        }
    }
    return true;
}

bool LocalToModelJob::validate() const noexcept
{
    return local.size() == parents.size() && model.size() == parents.size() &&
           parentsAreOrdered(parents);
}

bool LocalToModelJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex p = parents[i];
        if (p != kNoJoint) {
            model[i] = model[static_cast<std::size_t>(p)] * local[i];
        } else if (root != nullptr) {
            model[i] = *root * local[i];
        } else {
            model[i] = local[i];
        }
    }
    return true;
}

} // namespace rigscope::core
