#include "render/eye_scene.h"

#include <cmath>

#include <QtGui/QColor>
#include <Qt3DRender/QLayer>

#include "render/geometry.h"
#include "render/materials.h"

namespace rigscope::render {

namespace {

constexpr int kCircle = 32; // segments per circle
constexpr float kTau = 6.28318530718f;

// A circle of radius r about `centre` in the plane of unit vectors a and b.
void circle(LineList& out, const QVector3D& centre, const QVector3D& a, const QVector3D& b, float r,
            const QColor& c)
{
    for (int i = 0; i < kCircle; ++i) {
        const float t0 = kTau * float(i) / kCircle, t1 = kTau * float(i + 1) / kCircle;
        out.add(centre + r * (std::cos(t0) * a + std::sin(t0) * b),
                centre + r * (std::cos(t1) * a + std::sin(t1) * b), c);
    }
}

} // namespace

EyeScene::EyeScene(Qt3DRender::QLayer* linesLayer, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_lines(new LineGeometry(this))
{
    if (linesLayer) {
        addComponent(linesLayer);
    }
    addComponent(m_lines);
    addComponent(new LineMaterial(DepthMode::Scene, this));
}

void EyeScene::setEyes(const std::vector<EyeDrawing>& eyes, std::optional<QVector3D> target,
                       float markerSize, std::optional<QVector3D> handle)
{
    LineList l;
    const QColor ball(230, 230, 235);
    const QColor iris(40, 140, 230);
    const QColor pupil(20, 20, 30);
    const QColor aim(255, 200, 40);
    for (const EyeDrawing& e : eyes) {
        const QVector3D f = e.forward.normalized();
        const QVector3D u = e.up.normalized();
        const QVector3D r = QVector3D::crossProduct(f, u).normalized();
        // The ball: three great circles.
        circle(l, e.centre, r, u, e.radius, ball);
        circle(l, e.centre, f, u, e.radius, ball);
        circle(l, e.centre, r, f, e.radius, ball);
        // The iris: a disc where the sphere meets the look direction (its rim on the sphere),
        // filled with spokes, and the pupil.
        const float ir = std::min(e.irisRadius, e.radius * 0.95f);
        const float depth = std::sqrt(std::max(0.0f, e.radius * e.radius - ir * ir));
        const QVector3D disc = e.centre + depth * f;
        circle(l, disc, r, u, ir, iris);
        for (int i = 0; i < 16; ++i) {
            const float t = kTau * float(i) / 16;
            l.add(disc + 0.35f * ir * (std::cos(t) * r + std::sin(t) * u),
                  disc + ir * (std::cos(t) * r + std::sin(t) * u), iris);
        }
        circle(l, disc + 0.01f * e.radius * f, r, u, 0.35f * ir, pupil);
        if (target) {
            l.add(e.centre + e.radius * f, *target, aim, QColor(255, 200, 40, 90));
        }
    }
    const std::optional<QVector3D> marker = target ? target : handle;
    if (marker && !eyes.empty()) {
        // A cross and a box around it: a handle to grab (dimmer while no target is set).
        const float s = markerSize;
        const QVector3D t = *marker;
        const QColor c = target ? aim : QColor(200, 170, 90);
        l.add(t - QVector3D(s, 0, 0), t + QVector3D(s, 0, 0), c);
        l.add(t - QVector3D(0, s, 0), t + QVector3D(0, s, 0), c);
        l.add(t - QVector3D(0, 0, s), t + QVector3D(0, 0, s), c);
        const float h = 0.6f * s;
        for (int a = 0; a < 3; ++a) {
            // The 4 edges of the box along axis a.
            for (int k = 0; k < 4; ++k) {
                QVector3D p0, p1;
                p0[a] = -h;
                p1[a] = h;
                p0[(a + 1) % 3] = p1[(a + 1) % 3] = (k & 1) ? h : -h;
                p0[(a + 2) % 3] = p1[(a + 2) % 3] = (k & 2) ? h : -h;
                l.add(t + p0, t + p1, c);
            }
        }
    }
    m_drawn = eyes;
    m_segments = l.vertexCount() / 2;
    m_lines->setLines(l);
}

} // namespace rigscope::render
