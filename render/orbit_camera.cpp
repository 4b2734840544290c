#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include "render/convert.h"

namespace rigscope::render {

namespace {
constexpr float kDeg = 3.14159265358979f / 180.0f;
}

QVector3D OrbitCamera::direction() const
{
    const float y = yawDeg * kDeg, p = pitchDeg * kDeg;
    return {std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), std::sin(p)};
}

QVector3D OrbitCamera::up() const
{
    const float y = yawDeg * kDeg, p = pitchDeg * kDeg;
    return {-std::sin(p) * std::cos(y), -std::sin(p) * std::sin(y), std::cos(p)};
}

QVector3D OrbitCamera::right() const
{
    return QVector3D::crossProduct(-direction(), up()).normalized();
}

float frontYawDeg(const core::Model& model)
{
    const std::string& f = model.format;
    const bool cod =
        f == "xmodel" || f == "xanim" || f == "nt" || f == "xmodel_bin" || f == "xanim_bin";
    return cod ? 0.0f : kValveFrontYawDeg;
}

void OrbitCamera::setPreset(CameraPreset preset, float frontYaw)
{
    auto wrap = [](float deg) { return std::remainder(deg, 360.0f); };
    switch (preset) {
    case CameraPreset::Front:
        yawDeg = wrap(frontYaw);
        pitchDeg = 0;
        break;
    case CameraPreset::Back:
        yawDeg = wrap(frontYaw + 180);
        pitchDeg = 0;
        break;
    case CameraPreset::Right:
        yawDeg = wrap(frontYaw + 90);
        pitchDeg = 0;
        break;
    case CameraPreset::Left:
        yawDeg = wrap(frontYaw - 90);
        pitchDeg = 0;
        break;
    case CameraPreset::Top: // the face towards the bottom of the picture
        yawDeg = wrap(frontYaw);
        pitchDeg = 90;
        break;
    case CameraPreset::Bottom: // the face towards the top
        yawDeg = wrap(frontYaw);
        pitchDeg = -90;
        break;
    case CameraPreset::Iso:
        yawDeg = -35;
        pitchDeg = 20;
        break;
    }
}

void OrbitCamera::frame(const core::Bounds& b, float aspect)
{
    if (!b.valid) {
        target = {};
        distance = 10.0f;
        return;
    }
    target = toQt(core::Vec3((b.min + b.max) * 0.5f));
    float radius = 0.5f * (b.max - b.min).norm();
    if (!(radius > 1e-6f) || !std::isfinite(radius)) {
        radius = 1.0f; // a single joint or a point: show a unit neighbourhood
    }
    const float halfV = 0.5f * fovDeg * kDeg;
    const float halfH = std::atan(std::tan(halfV) * std::max(aspect, 0.05f));
    const float half = std::min(halfV, halfH);
    distance = radius / std::sin(half) * 1.08f;
}

void OrbitCamera::orbit(float dxDeg, float dyDeg)
{
    yawDeg = std::fmod(yawDeg + dxDeg, 360.0f);
    pitchDeg = std::clamp(pitchDeg + dyDeg, -90.0f, 90.0f);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float viewportHeight)
{
    const float worldPerPixel = 2.0f * orthoHalfHeight() / std::max(viewportHeight, 1.0f);
    target += (-right() * dxPixels + up() * dyPixels) * worldPerPixel;
}

void OrbitCamera::dolly(float factor)
{
    distance = std::clamp(distance * factor, 1e-4f, 1e7f);
}

float OrbitCamera::orthoHalfHeight() const
{
    return distance * std::tan(0.5f * fovDeg * kDeg);
}

} // namespace rigscope::render
