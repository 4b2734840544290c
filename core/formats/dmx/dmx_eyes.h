#pragma once

// DMX eyes (issue 32): the DmeEyeball nodes of a DMX model's DAG tree, a DmeDag with a
// diameter, a yaw angle and a pupil scale (Source SDK 2013 movieobjects/dmeeyeball.h: defaults
// 1, 2 and 1). Source SDK 2013's studiomdl does not read them (it places eyes only from the
// QC's `eyeball` lines); the window draws them as it draws a QC's eyeballs, so an exporter's
// eyes can be checked against the head before the QC lines are written. docs/flex.md.

#include <string>
#include <string_view>
#include <vector>

#include "core/model/model.h"

namespace rigscope::core {

struct DmxEyeball {
    std::string name;
    std::string bone;             // the joint carrying it: itself when a joint, else an ancestor
    JointIndex joint = kNoJoint;  // in `skeleton`
    Vec3 position = Vec3::Zero(); // model space at the bind pose (its DAG transforms)
    float diameter = 1.0f;
    float angle = 2.0f; // degrees, the iris's yaw off forward (QC eyeball's angle)
    float pupilScale = 1.0f;
    SourceLoc where;
};

// Reads `bytes` (a DMX file, either encoding) and returns its DmeEyeballs; their joints are
// looked up by name in `skeleton` (the model the DMX reader made). Empty for anything else;
// never throws on bad input.
std::vector<DmxEyeball> dmxEyeballs(std::string_view bytes, const Skeleton& skeleton);

} // namespace rigscope::core
