#pragma once

#include <vector>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// Every per-frame buffer, owned by the caller and sized once per model (resize() allocates;
// the jobs that fill these never do).
struct PoseBuffers {
    std::vector<Xform> sampled;         // per animation joint: SampleJob output
    std::vector<Xform> animModel;       // per animation joint: its world (RetargetJob scratch)
    std::vector<Xform> local;           // per reference joint
    std::vector<Xform> model;           // per reference joint
    std::vector<SkinMatrix> skin;       // per reference joint: model * inverseBind
    std::vector<float> flexWeights;     // per flex shape (the caller sets them)
    std::vector<Vec3> morphedPositions; // per vertex: base + flex
    std::vector<Vec3> morphedNormals;
    std::vector<Vec3> positions; // per vertex: skinned result
    std::vector<Vec3> normals;

    void resize(std::size_t joints, std::size_t animJoints, std::size_t vertices, bool withNormals,
                std::size_t shapes)
    {
        sampled.resize(animJoints, Xform::Identity());
        animModel.resize(animJoints, Xform::Identity());
        local.resize(joints, Xform::Identity());
        model.resize(joints, Xform::Identity());
        skin.resize(joints, SkinMatrix::Identity());
        flexWeights.resize(shapes, 0.0f);
        morphedPositions.resize(shapes > 0 ? vertices : 0, Vec3::Zero());
        morphedNormals.resize(shapes > 0 && withNormals ? vertices : 0, Vec3::Zero());
        positions.resize(vertices, Vec3::Zero());
        normals.resize(withNormals ? vertices : 0, Vec3::Zero());
    }
};

} // namespace rigscope::core
