#pragma once

#include <QtCore/QStringList>

#include "app/widgets/settings_dialog.h"

class QListWidget;
class QPushButton;

namespace rigscope::app {

// Settings ▸ Materials (issue 18): the game folders holding materials/ that every document
// searches, as `--materials DIR` does (after the command line's, before those found above the
// model). Key `Materials/roots`, a list of folders.
class MaterialsPage : public SettingsPage {
    Q_OBJECT
public:
    explicit MaterialsPage(QWidget* parent = nullptr);
    QString title() const override { return tr("Materials"); }
    void load(const QSettings& settings) override;
    void save(QSettings& settings) const override;
    void restoreDefaults() override;

    QStringList roots() const;
    // Adds `folder` (absolute, once); false when it is already listed or empty.
    bool addRoot(const QString& folder);
    void removeSelected();
    // Where Add…'s folder dialog starts: beside the open model (empty: the dialog's default).
    void setStartFolder(const QString& folder) { m_startFolder = folder; }
    const QString& startFolder() const { return m_startFolder; }
    QListWidget* list() const { return m_list; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }

private:
    void updateButtons();
    QListWidget* m_list;
    QPushButton* m_add;
    QPushButton* m_remove;
    QString m_startFolder;
};

inline constexpr char kMaterialRootsKey[] = "Materials/roots";

} // namespace rigscope::app
