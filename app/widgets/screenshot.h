#pragma once

#include <QtCore/QString>

#include "app/document/command_line.h"
#include "render/orbit_camera.h"

namespace rigscope::app {

class Document;

// Applies the view options of the command line to a loaded document: --bodygroup, --skin,
// --anim, --frame, --flex. Returns the error ("no flex shape named 'X'"), empty when all applied.
// The same for --screenshot, the thumbnailer and the interactive window.
QString applyStartOptions(Document& doc, const GuiOptions& options);
// --camera NAME: front, right (side), top, iso.
render::CameraPreset cameraPresetNamed(const QString& name);

// `rigscope FILE… --screenshot OUT.png`: loads, renders one frame in a window of the requested
// size (no MSAA), writes the PNG and returns the exit code (0 written, 1 model failed to load,
// 2 usage or I/O). Messages go to `error`.
int runScreenshot(const GuiOptions& options, QString* error);

// `rigscope --thumbnail IN OUT.png [--size N]` (the freedesktop thumbnailer): the rest pose of
// IN from the iso view, framed to fill the image, on a transparent background without grid or
// overlays; a skeleton for animation-only files, the base vertices for a VTA. Drawn in software
// (no display, window or OpenGL), so it also works in sandboxed thumbnailers. Exit 0 written,
// 1 the file holds nothing drawable, 2 usage, unreadable input or write failure.
int runThumbnail(const GuiOptions& options, QString* error);

// Expands {model} {anim} {frame} {frame:04} in an output path.
QString expandOutputTemplate(const QString& pattern, const QString& model, const QString& anim,
                             int frame);

} // namespace rigscope::app
