#pragma once

#include <QtGui/QImage>

namespace rigscope::app {

class MainWindow;

// The whole window as one image: QWidget::grab() for the widgets with the Qt3D viewport's own
// capture painted into its container (grab() cannot read a native GL child window).
QImage grabWindow(MainWindow& window);

} // namespace rigscope::app
