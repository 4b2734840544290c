#pragma once

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QStringList>

#include <functional>
#include <vector>

#include "app/document/document.h"
#include "render/orbit_camera.h"

namespace rigscope::app {

// The window's tabs (UX.md: one document per tab): the Documents in tab order, the camera each
// tab had when it was left, the stack of closed tabs (Ctrl+Shift+T) and the current document.
// There is always at least one tab; closing the last leaves an empty one. Every document is made
// by one function (makeDocument) that gives it what every tab shares: the material roots and
// the requested profile of the tab it is opened from. The window mirrors the tabs in its tab
// bar and binds its panels to the current document when currentDocumentChanged says so.
class DocumentManager : public QObject {
    Q_OBJECT
public:
    explicit DocumentManager(QObject* parent = nullptr); // one empty tab, current
    ~DocumentManager() override;

    int count() const { return int(m_tabs.size()); }
    int currentIndex() const { return indexOf(m_current); }
    Document* current() const { return m_current; }
    Document* document(int index) const;    // nullptr out of range
    int indexOf(const Document* doc) const; // -1 when not a tab

    // Searched by every document, those open and those to come (--materials, Settings ▸
    // Materials, the texture path's game folders: the window decides the list).
    void setMaterialRoots(const QStringList& roots);
    const QStringList& materialRoots() const { return m_materialRoots; }

    // Where the current tab's camera is read when it is left (the viewport's); without it the
    // tabs keep the cameras given with setCamera only.
    void setCameraSource(std::function<render::OrbitCamera()> source);
    render::OrbitCamera camera(int index) const; // a default camera out of range
    void setCamera(int index, const render::OrbitCamera& camera);

    // The document files opened "in a new tab" go to: the current one while it shows nothing
    // (nothing opened yet, or only failures), else a new tab, made current.
    Document* documentForNewFiles();
    // Appends a tab with a new document (not made current) and returns it.
    Document* addTab();
    void setCurrentIndex(int index); // out of range, or already current: nothing
    // Ctrl+W: its files go on the closed stack; the last tab leaves an empty document. The tab
    // after it (else before it) becomes current when it was.
    void closeTab(int index);
    // Ctrl+Shift+T: the files of the last closed tab that still exists on disk (taken off the
    // stack with the gone ones above it); empty when there is none.
    QStringList takeClosed();
    const QList<QStringList>& closedTabs() const { return m_closed; }

signals:
    // Emitted once per change, after `current` is the current document; `previous` may be about
    // to be closed (it is still alive).
    void currentDocumentChanged(rigscope::app::Document* current,
                                rigscope::app::Document* previous);
    void tabAdded(int index);
    void tabRemoved(int index);   // the document is deleted right after
    void titleChanged(int index); // the document at `index` loaded other files

private:
    struct Tab {
        Document* doc = nullptr; // a child of the manager
        render::OrbitCamera camera;
    };
    // The one place a document is made: the shared settings applied.
    Document* makeDocument(core::Profile profile);

    std::vector<Tab> m_tabs;
    Document* m_current = nullptr;
    QList<QStringList> m_closed;
    QStringList m_materialRoots;
    std::function<render::OrbitCamera()> m_cameraSource;
};

} // namespace rigscope::app
