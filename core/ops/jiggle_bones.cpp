#include "core/ops/jiggle_bones.h"

#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::core {

std::vector<JiggleJoint> jiggleJointsOf(const Skeleton& skeleton, const QcReport* qc,
                                        const CompiledModelInfo* compiled)
{
    std::vector<std::pair<std::string, JiggleParams>> named;
    if (qc != nullptr) {
        for (const QcJiggleBone& j : qc->project.jiggleBones) {
            named.emplace_back(j.bone, j.params);
        }
    }
    if (compiled != nullptr) {
        for (const CompiledBone& b : compiled->bones) {
            if (b.jiggle) {
                named.emplace_back(b.name, *b.jiggle);
            }
        }
    }
    return jiggleJoints(skeleton, named);
}

} // namespace rigscope::core
