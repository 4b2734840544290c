#pragma once

#include <QtCore/QString>

// The QSettings keys MainWindow's files (main_window*.cpp) share; the INI's other keys belong
// to their pages (settings_dialog.h, materials_page.h).
namespace rigscope::app::window_keys {

inline const QString kGeometryKey = QStringLiteral("MainWindow/geometry");
inline const QString kStateKey = QStringLiteral("MainWindow/state");
inline const QString kTexturePathKey = QStringLiteral("Textures/searchPath");
inline const QString kAutoReloadKey = QStringLiteral("Files/autoReload");
inline const QString kLastFolderKey = QStringLiteral("Files/lastFolder");
inline const QString kScreenshotDirKey = QStringLiteral("Screenshot/folder");
inline const QString kFpsKey = QStringLiteral("Viewport/frameRate");
inline const QString kCompareIgnoreTimesKey = QStringLiteral("Compare/ignoreTimestamps");

} // namespace rigscope::app::window_keys
