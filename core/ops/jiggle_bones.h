#pragma once

// The jiggle bones a model shows (issue 32): a QC project's $jigglebone commands, or the
// procedural bones of a compiled model, on the skeleton drawn. The window and `pose --jiggle`
// take them from here. docs/jiggle.md.

#include <vector>

#include "core/model/model.h"
#include "core/pose/jiggle_pose.h"

namespace rigscope::core {

struct QcReport;
struct CompiledModelInfo;

// By bone name, ignoring case; a $jigglebone on a bone the skeleton lacks (dropped, or a
// $staticprop's) is left out. Either source may be null.
std::vector<JiggleJoint> jiggleJointsOf(const Skeleton& skeleton, const QcReport* qc,
                                        const CompiledModelInfo* compiled);

} // namespace rigscope::core
