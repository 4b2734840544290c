#pragma once

#include <QtGui/QImage>

namespace rigscope::render {

class Viewport;

// Renders one frame of the viewport and returns it (ARGB32, right way up under
// QT3D_RENDERER=opengl). With transparentBackground the background is left out and alpha is
// recovered from renders over black and white if the surface has no alpha channel. Null image
// on timeout. Serves render tests, F12 and --screenshot. Textures still streaming in are waited
// for unless `waitForTextures` is false (a test of the first frame).
QImage captureViewport(Viewport& viewport, bool transparentBackground = false,
                       int timeoutMs = 20000, bool waitForTextures = true);

} // namespace rigscope::render
