#pragma once

#include <QtGui/QMatrix4x4>
#include <QtGui/QVector3D>

#include "core/model/model.h"

namespace rigscope::render {

enum class CameraPreset { Front, Back, Right, Left, Top, Bottom, Iso };

// Arc-ball camera state around a target, +Z up (SMD and CoD). Yaw 0 looks from +X (the way
// GoldSrc, Source and CoD models face), yaw -90° from -Y (the model's right side).
struct OrbitCamera {
    QVector3D target;
    float distance = 10.0f;
    float yawDeg = -35.0f;
    float pitchDeg = 20.0f;
    float fovDeg = 35.0f;
    bool ortho = false;
    bool operator==(const OrbitCamera&) const = default;

    QVector3D direction() const; // from target to eye (unit)
    QVector3D eye() const { return target + direction() * distance; }
    QVector3D up() const;
    QVector3D right() const;
    void setPreset(CameraPreset p);
    // Fits a sphere around the bounds into a view of the given aspect (width / height).
    void frame(const core::Bounds& b, float aspect);
    void orbit(float dxDeg, float dyDeg);
    void pan(float dxPixels, float dyPixels, float viewportHeight);
    void dolly(float factor);
    float orthoHalfHeight() const;
};

} // namespace rigscope::render
