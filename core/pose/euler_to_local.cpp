#include "core/pose/euler_to_local.h"

namespace rigscope::core {

bool EulerToLocalJob::validate() const noexcept
{
    return positions.size() == rotations.size() && local.size() == positions.size();
}

bool EulerToLocalJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
        Xform& x = local[i];
        x.linear() = eulerToMatrix(rotations[i]);
        x.translation() = positions[i];
        x.makeAffine();
    }
    return true;
}

bool QuaternionToLocalJob::validate() const noexcept
{
    return positions.size() == quaternions.size() && local.size() == positions.size();
}

bool QuaternionToLocalJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
        Xform& x = local[i];
        x.linear() = quaternionOf(quaternions[i]).toRotationMatrix().cast<float>();
        x.translation() = positions[i];
        x.makeAffine();
    }
    return true;
}

} // namespace rigscope::core
