#include "app/widgets/materials_page.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace rigscope::app {

MaterialsPage::MaterialsPage(QWidget* parent)
    : SettingsPage(parent), m_list(new QListWidget(this)), m_add(new QPushButton(tr("Add…"), this)),
      m_remove(new QPushButton(tr("Remove"), this))
{
    setObjectName(QStringLiteral("materialsPage"));
    m_list->setObjectName(QStringLiteral("materialRoots"));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_add->setObjectName(QStringLiteral("addMaterialRoot"));
    m_remove->setObjectName(QStringLiteral("removeMaterialRoot"));
    auto* help = new QLabel(
        tr("Game folders holding <i>materials/</i> (for example <i>Half-Life 2/hl2</i>), or "
           "the <i>materials/</i> folder itself, searched for every Source model after "
           "<tt>--materials</tt> and before the folder found above the model. The viewport, the "
           "Inspector and the checks use them alike."),
        this);
    help->setWordWrap(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(help);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    connect(m_add, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Game folder holding materials/ (or the materials/ folder)"), m_startFolder);
        if (!dir.isEmpty()) {
            addRoot(dir);
        }
    });
    connect(m_remove, &QPushButton::clicked, this, &MaterialsPage::removeSelected);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &MaterialsPage::updateButtons);
    updateButtons();
}

QStringList MaterialsPage::roots() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) {
        out << m_list->item(i)->text();
    }
    return out;
}

bool MaterialsPage::addRoot(const QString& folder)
{
    if (folder.isEmpty()) {
        return false;
    }
    const QString abs = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    if (roots().contains(abs)) {
        return false;
    }
    auto* item = new QListWidgetItem(abs, m_list);
    if (!QFileInfo(abs).isDir()) {
        item->setToolTip(tr("This folder does not exist"));
        item->setForeground(Qt::red);
    }
    updateButtons();
    return true;
}

void MaterialsPage::removeSelected()
{
    for (QListWidgetItem* item : m_list->selectedItems()) {
        delete item;
    }
    updateButtons();
}

void MaterialsPage::load(const QSettings& settings)
{
    m_list->clear();
    for (const QString& r : settings.value(QLatin1String(kMaterialRootsKey)).toStringList()) {
        addRoot(r);
    }
    updateButtons();
}

void MaterialsPage::save(QSettings& settings) const
{
    settings.setValue(QLatin1String(kMaterialRootsKey), roots());
}

void MaterialsPage::restoreDefaults()
{
    m_list->clear();
    updateButtons();
}

void MaterialsPage::updateButtons()
{
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
}

} // namespace rigscope::app
