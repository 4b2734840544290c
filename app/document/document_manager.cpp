#include "app/document/document_manager.h"

#include <QtCore/QFileInfo>

#include <algorithm>

namespace rigscope::app {

DocumentManager::DocumentManager(QObject* parent) : QObject(parent)
{
    m_current = makeDocument(core::Profile::Auto);
    m_tabs.push_back({m_current, {}});
}

DocumentManager::~DocumentManager() = default;

Document* DocumentManager::makeDocument(core::Profile profile)
{
    auto* doc = new Document(this);
    doc->setProfile(profile);
    doc->setMaterialRoots(m_materialRoots);
    connect(doc, &Document::loaded, this, [this, doc] {
        if (const int i = indexOf(doc); i >= 0) {
            emit titleChanged(i);
        }
    });
    return doc;
}

Document* DocumentManager::document(int index) const
{
    return index >= 0 && std::size_t(index) < m_tabs.size() ? m_tabs[std::size_t(index)].doc
                                                            : nullptr;
}

int DocumentManager::indexOf(const Document* doc) const
{
    const auto it =
        std::find_if(m_tabs.begin(), m_tabs.end(), [doc](const Tab& t) { return t.doc == doc; });
    return it == m_tabs.end() ? -1 : int(it - m_tabs.begin());
}

void DocumentManager::setMaterialRoots(const QStringList& roots)
{
    m_materialRoots = roots;
    for (const Tab& t : m_tabs) {
        t.doc->setMaterialRoots(roots);
    }
}

void DocumentManager::setCameraSource(std::function<render::OrbitCamera()> source)
{
    m_cameraSource = std::move(source);
}

render::OrbitCamera DocumentManager::camera(int index) const
{
    return document(index) ? m_tabs[std::size_t(index)].camera : render::OrbitCamera{};
}

void DocumentManager::setCamera(int index, const render::OrbitCamera& camera)
{
    if (document(index)) {
        m_tabs[std::size_t(index)].camera = camera;
    }
}

Document* DocumentManager::addTab()
{
    Document* doc = makeDocument(m_current->requestedProfile());
    m_tabs.push_back({doc, {}});
    emit tabAdded(count() - 1);
    return doc;
}

Document* DocumentManager::documentForNewFiles()
{
    if (m_current->files().empty()) {
        return m_current;
    }
    addTab();
    setCurrentIndex(count() - 1);
    return m_current;
}

void DocumentManager::setCurrentIndex(int index)
{
    Document* next = document(index);
    if (!next || next == m_current) {
        return;
    }
    // Leaving: keep the camera the current tab was seen with.
    if (const int old = indexOf(m_current); old >= 0 && m_cameraSource) {
        m_tabs[std::size_t(old)].camera = m_cameraSource();
    }
    Document* previous = m_current;
    m_current = next;
    emit currentDocumentChanged(m_current, previous);
}

void DocumentManager::closeTab(int index)
{
    Document* doc = document(index);
    if (!doc) {
        return;
    }
    if (!doc->paths().isEmpty()) {
        m_closed.push_back(doc->paths());
    }
    if (m_tabs.size() == 1) {
        // The last tab: an empty document takes its place, with the same settings.
        m_tabs.push_back({makeDocument(doc->requestedProfile()), {}});
        emit tabAdded(count() - 1);
    }
    if (doc == m_current) {
        setCurrentIndex(index + 1 < count() ? index + 1 : index - 1);
    }
    m_tabs.erase(m_tabs.begin() + index);
    emit tabRemoved(index);
    delete doc;
}

QStringList DocumentManager::takeClosed()
{
    while (!m_closed.isEmpty()) {
        QStringList paths = m_closed.takeLast();
        if (QFileInfo::exists(paths.front())) {
            return paths;
        }
    }
    return {};
}

} // namespace rigscope::app
