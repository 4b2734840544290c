#pragma once

namespace rigscope::render {

// Pins QT3D_RENDERER=opengl when unset, so every run uses one backend (HOUSE_STYLE §9).
void pinRenderer();

} // namespace rigscope::render
