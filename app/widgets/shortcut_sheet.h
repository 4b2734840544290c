#pragma once

#include <QtCore/QString>
#include <QtWidgets/QFrame>

#include <vector>

#include "render/viewport.h"

class QLabel;
class QMenuBar;

namespace rigscope::app {

// The `H` cheat-sheet (UX.md): every menu action that has a key, with the key and, for toggles,
// the live state, plus the viewport's mouse and camera controls that no menu holds. Read from
// the menu bar each time it is shown, so it cannot drift from the menus. A frameless tool
// window laid over the viewport (a widget cannot be drawn over the native Qt3D window); any
// key or click closes it.
class ShortcutSheet : public QFrame {
    Q_OBJECT
public:
    struct Entry {
        QString group;  // menu title without '&', or "Mouse"
        QString key;    // native text, "Ctrl+F12"; several keys joined by " / "
        QString text;   // action text without '&' and without the "\tKEY" suffix
        int state = -1; // -1 not a toggle, 0 off, 1 on
    };

    explicit ShortcutSheet(QWidget* parent);
    // The entries of `menus` (in menu order), the viewport's own keys, and the mouse controls
    // of `scheme` (Settings ▸ Mouse).
    static std::vector<Entry> collect(const QMenuBar* menus, render::MouseScheme scheme);
    // Refills from `menus` and shows the sheet centred over `over` (global geometry).
    void showOver(const QMenuBar* menus, render::MouseScheme scheme, const QRect& over);
    const std::vector<Entry>& entries() const { return m_entries; }
    QString html(int columns = 3) const;

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void hideEvent(QHideEvent* e) override;
    // While shown: a key (Esc included) or a click anywhere in the application closes it, also
    // when the window manager left the focus on the main window or the click lands on the
    // native viewport.
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    std::vector<Entry> m_entries;
    QLabel* m_label;
    bool m_filtering = false;
    int m_swallowKey = 0;
};

} // namespace rigscope::app
