#pragma once

#include <QtWidgets/QWidget>

#include "app/document/document.h"
#include "render/texture_loader.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace rigscope::app {

// Inspector dock: properties of the selection (bone transforms, parent, source line;
// material; triangle corners with weights) and file statistics when nothing is selected.
class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);
    QTreeWidget* tree() const { return m_tree; }
    void setTexturePathLookup(std::function<QString(int)> lookup)
    {
        m_texturePath = std::move(lookup);
    }
    // How the viewport looked a material up (VMT, shader, texture; or missing and where).
    void setMaterialLookLookup(std::function<const render::MaterialLook*(int)> lookup)
    {
        m_materialLook = std::move(lookup);
    }
    // "key: value" lines of the current contents (tests, Ctrl+C).
    QStringList lines() const;

private:
    void refresh();
    QTreeWidgetItem* group(const QString& title);
    void row(QTreeWidgetItem* group, const QString& key, const QString& value);
    void sourceRow(QTreeWidgetItem* group, const core::SourceLoc& where); // line or @0x offset
    void showFile();
    void showJoint(int joint);
    void showMaterial(int material);
    void showTriangle(int triangle, int corner);
    static QString textureSummary(const QString& path);

    Document* m_document = nullptr;
    QTreeWidget* m_tree;
    std::function<QString(int)> m_texturePath;
    std::function<const render::MaterialLook*(int)> m_materialLook;
};

} // namespace rigscope::app
