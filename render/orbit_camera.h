#pragma once

#include <QtGui/QMatrix4x4>
#include <QtGui/QVector3D>

#include "core/model/model.h"

namespace rigscope::render {

enum class CameraPreset { Front, Back, Right, Left, Top, Bottom, Iso };

// Where a model's face looks, as a camera yaw (degrees): the way the presets turn. Valve sources
// (SMD, VTA, SMDX, DMX, QC) face -Y as written (studiomdl turns them 90° about Z, so the compiled
// model faces +X): -90. CoD exports face +X as written: 0.
float frontYawDeg(const core::Model& model);
inline constexpr float kValveFrontYawDeg = -90.0f;

// Arc-ball camera state around a target, +Z up (SMD and CoD). Yaw 0 looks from +X, yaw -90°
// from -Y.
// Presets (Blender's numpad, relative to the model's front): Front looks at the face, Back at
// the back, Right from the viewer's right of the front view, Left from its left, Top from
// above and Bottom from below with the front towards the bottom (top) of the picture, Iso the
// default three-quarter view.
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
    void setPreset(CameraPreset p, float frontYaw = kValveFrontYawDeg);
    // Fits a sphere around the bounds into a view of the given aspect (width / height).
    void frame(const core::Bounds& b, float aspect);
    void orbit(float dxDeg, float dyDeg);
    void pan(float dxPixels, float dyPixels, float viewportHeight);
    void dolly(float factor);
    float orthoHalfHeight() const;
};

} // namespace rigscope::render
