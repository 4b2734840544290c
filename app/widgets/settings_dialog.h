#pragma once

#include <vector>

#include <QtCore/QSettings>
#include <QtGui/QColor>
#include <QtWidgets/QDialog>

#include "render/viewport.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace rigscope::app {

// One page of the Settings dialog (UX.md "Settings"). A page owns a few `Group/key` settings:
// load() fills its widgets from QSettings, save() writes them back (OK / Apply),
// restoreDefaults() puts the widgets back to the built-in values (saved on OK / Apply).
// Another feature adds its page with SettingsDialog::addPage (e.g. Materials, key
// `Materials/roots`).
class SettingsPage : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    virtual QString title() const = 0;
    virtual void load(const QSettings& settings) = 0;
    virtual void save(QSettings& settings) const = 0;
    virtual void restoreDefaults() = 0;
};

// Units of the status-bar size readout. Source and GoldSrc count 1 unit = 1 inch.
enum class Units { Model, Inches, Metres, Centimetres };
QString unitsKey(Units u); // "units" "inches" "metres" "centimetres"
Units unitsFromKey(const QString& key);
// "12.5 × 3 × 70 units" in the chosen units.
QString formatSize(const core::Vec3& size, Units units);

// Everything the pages store, read with defaults (the window applies it on start and after
// OK / Apply).
struct ViewerSettings {
    render::MouseOptions mouse;
    QColor backgroundTop{72, 77, 86};
    QColor backgroundBottom{30, 32, 37};
    Units units = Units::Model;
    static ViewerSettings read(const QSettings& settings);
};

// Mouse: scheme (HLAM / F3D / Blender), invert X / Y, sensitivity, wheel speed, zoom to cursor.
class MousePage : public SettingsPage {
    Q_OBJECT
public:
    explicit MousePage(QWidget* parent = nullptr);
    QString title() const override { return tr("Mouse"); }
    void load(const QSettings& settings) override;
    void save(QSettings& settings) const override;
    void restoreDefaults() override;
    QComboBox* schemeBox() const { return m_scheme; }
    QCheckBox* invertXBox() const { return m_invertX; }
    QCheckBox* invertYBox() const { return m_invertY; }
    QDoubleSpinBox* sensitivityBox() const { return m_sensitivity; }

private:
    void set(const render::MouseOptions& o);
    QComboBox* m_scheme;
    QCheckBox* m_invertX;
    QCheckBox* m_invertY;
    QDoubleSpinBox* m_sensitivity;
    QDoubleSpinBox* m_wheel;
    QCheckBox* m_zoomToCursor;
};

// Colours: the viewport background gradient.
class ColoursPage : public SettingsPage {
    Q_OBJECT
public:
    explicit ColoursPage(QWidget* parent = nullptr);
    QString title() const override { return tr("Colours"); }
    void load(const QSettings& settings) override;
    void save(QSettings& settings) const override;
    void restoreDefaults() override;
    QColor top() const { return m_top; }
    QColor bottom() const { return m_bottom; }
    void setColours(const QColor& top, const QColor& bottom);

private:
    QPushButton* m_topButton;
    QPushButton* m_bottomButton;
    QColor m_top;
    QColor m_bottom;
};

// Units of the size readout.
class UnitsPage : public SettingsPage {
    Q_OBJECT
public:
    explicit UnitsPage(QWidget* parent = nullptr);
    QString title() const override { return tr("Units"); }
    void load(const QSettings& settings) override;
    void save(QSettings& settings) const override;
    void restoreDefaults() override;
    QComboBox* unitsBox() const { return m_units; }

private:
    QComboBox* m_units;
};

// Edit ▸ Settings (Ctrl+,): a list of pages on the left, the page on the right; OK, Apply,
// Cancel and Restore Defaults (every page).
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QSettings& settings, QWidget* parent = nullptr);
    // Adds `page` (the dialog takes it) and loads it from the settings.
    void addPage(SettingsPage* page);
    const std::vector<SettingsPage*>& pages() const { return m_pages; }
    SettingsPage* page(const QString& title) const;
    void showPage(const QString& title);
    QListWidget* pageList() const { return m_list; }
    QDialogButtonBox* buttons() const { return m_buttons; }
    // Saves every page and emits applied().
    void apply();
    // Every page back to its built-in values (not saved until apply()).
    void restoreDefaults();

signals:
    void applied();

private:
    QSettings& m_settings;
    QListWidget* m_list;
    QStackedWidget* m_stack;
    QDialogButtonBox* m_buttons;
    std::vector<SettingsPage*> m_pages;
};

} // namespace rigscope::app
