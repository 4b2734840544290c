#include "app/widgets/settings_dialog.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QColorDialog>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QVBoxLayout>

namespace rigscope::app {

namespace {

const QString kSchemeKey = QStringLiteral("Mouse/scheme");
const QString kInvertXKey = QStringLiteral("Mouse/invertX");
const QString kInvertYKey = QStringLiteral("Mouse/invertY");
const QString kSensitivityKey = QStringLiteral("Mouse/sensitivity");
const QString kWheelKey = QStringLiteral("Mouse/wheelSpeed");
const QString kZoomToCursorKey = QStringLiteral("Mouse/zoomToCursor");
const QString kBackgroundTopKey = QStringLiteral("Colours/backgroundTop");
const QString kBackgroundBottomKey = QStringLiteral("Colours/backgroundBottom");
const QString kUnitsKey = QStringLiteral("Display/units");
const QStringList kSchemeKeys = {QStringLiteral("hlam"), QStringLiteral("f3d"),
                                 QStringLiteral("blender")};

void paintButton(QPushButton* b, const QColor& c)
{
    b->setText(c.name());
    b->setStyleSheet(QStringLiteral("QPushButton { background: %1; color: %2; }")
                         .arg(c.name(), c.lightness() > 128 ? QStringLiteral("black")
                                                            : QStringLiteral("white")));
}

} // namespace

QString unitsKey(Units u)
{
    switch (u) {
    case Units::Model:
        break;
    case Units::Inches:
        return QStringLiteral("inches");
    case Units::Metres:
        return QStringLiteral("metres");
    case Units::Centimetres:
        return QStringLiteral("centimetres");
    }
    return QStringLiteral("units");
}

Units unitsFromKey(const QString& key)
{
    for (Units u : {Units::Inches, Units::Metres, Units::Centimetres}) {
        if (key == unitsKey(u)) {
            return u;
        }
    }
    return Units::Model;
}

QString formatSize(const core::Vec3& size, Units units)
{
    double scale = 1.0;
    QString suffix = QObject::tr("units");
    switch (units) {
    case Units::Model:
        break;
    case Units::Inches:
        suffix = QObject::tr("in");
        break;
    case Units::Metres:
        scale = 0.0254;
        suffix = QObject::tr("m");
        break;
    case Units::Centimetres:
        scale = 2.54;
        suffix = QObject::tr("cm");
        break;
    }
    return QObject::tr("%1 × %2 × %3 %4")
        .arg(double(size.x()) * scale, 0, 'g', 4)
        .arg(double(size.y()) * scale, 0, 'g', 4)
        .arg(double(size.z()) * scale, 0, 'g', 4)
        .arg(suffix);
}

ViewerSettings ViewerSettings::read(const QSettings& s)
{
    ViewerSettings v;
    v.mouse.scheme = render::MouseScheme(
        std::max<qsizetype>(0, kSchemeKeys.indexOf(s.value(kSchemeKey).toString())));
    v.mouse.invertX = s.value(kInvertXKey, false).toBool();
    v.mouse.invertY = s.value(kInvertYKey, false).toBool();
    v.mouse.sensitivity = std::clamp(s.value(kSensitivityKey, 1.0).toFloat(), 0.1f, 5.0f);
    v.mouse.wheelSpeed = std::clamp(s.value(kWheelKey, 1.0).toFloat(), 0.1f, 5.0f);
    v.mouse.zoomToCursor = s.value(kZoomToCursorKey, true).toBool();
    const QColor top(s.value(kBackgroundTopKey).toString());
    const QColor bottom(s.value(kBackgroundBottomKey).toString());
    if (top.isValid()) {
        v.backgroundTop = top;
    }
    if (bottom.isValid()) {
        v.backgroundBottom = bottom;
    }
    v.units = unitsFromKey(s.value(kUnitsKey).toString());
    return v;
}

// ---------------------------------------------------------------------------------------------

MousePage::MousePage(QWidget* parent)
    : SettingsPage(parent), m_scheme(new QComboBox(this)),
      m_invertX(new QCheckBox(tr("Invert horizontal"), this)),
      m_invertY(new QCheckBox(tr("Invert vertical"), this)),
      m_sensitivity(new QDoubleSpinBox(this)), m_wheel(new QDoubleSpinBox(this)),
      m_zoomToCursor(new QCheckBox(tr("Wheel zooms toward the cursor"), this))
{
    setObjectName(QStringLiteral("mousePage"));
    m_scheme->setObjectName(QStringLiteral("mouseScheme"));
    m_scheme->addItem(tr("HLAM (LMB orbit, RMB dolly, Shift+LMB pan)"));
    m_scheme->addItem(tr("F3D (LMB orbit, MMB pan, MMB click recentres)"));
    m_scheme->addItem(tr("Blender (MMB orbit, Shift+MMB pan, Ctrl+MMB dolly)"));
    for (QDoubleSpinBox* b : {m_sensitivity, m_wheel}) {
        b->setRange(0.1, 5.0);
        b->setSingleStep(0.1);
        b->setDecimals(1);
        b->setSuffix(QStringLiteral("×"));
    }
    m_sensitivity->setObjectName(QStringLiteral("mouseSensitivity"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Scheme"), m_scheme);
    form->addRow(QString(), m_invertX);
    form->addRow(QString(), m_invertY);
    form->addRow(tr("Sensitivity"), m_sensitivity);
    form->addRow(tr("Wheel speed"), m_wheel);
    form->addRow(QString(), m_zoomToCursor);
    restoreDefaults();
}

void MousePage::set(const render::MouseOptions& o)
{
    m_scheme->setCurrentIndex(int(o.scheme));
    m_invertX->setChecked(o.invertX);
    m_invertY->setChecked(o.invertY);
    m_sensitivity->setValue(double(o.sensitivity));
    m_wheel->setValue(double(o.wheelSpeed));
    m_zoomToCursor->setChecked(o.zoomToCursor);
}

void MousePage::load(const QSettings& settings)
{
    set(ViewerSettings::read(settings).mouse);
}

void MousePage::save(QSettings& s) const
{
    s.setValue(kSchemeKey, kSchemeKeys.value(m_scheme->currentIndex()));
    s.setValue(kInvertXKey, m_invertX->isChecked());
    s.setValue(kInvertYKey, m_invertY->isChecked());
    s.setValue(kSensitivityKey, m_sensitivity->value());
    s.setValue(kWheelKey, m_wheel->value());
    s.setValue(kZoomToCursorKey, m_zoomToCursor->isChecked());
}

void MousePage::restoreDefaults()
{
    set(render::MouseOptions{});
}

// ---------------------------------------------------------------------------------------------

ColoursPage::ColoursPage(QWidget* parent)
    : SettingsPage(parent), m_topButton(new QPushButton(this)),
      m_bottomButton(new QPushButton(this))
{
    setObjectName(QStringLiteral("coloursPage"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Background, top"), m_topButton);
    form->addRow(tr("Background, bottom"), m_bottomButton);
    auto pick = [this](bool top) {
        const QColor c =
            QColorDialog::getColor(top ? m_top : m_bottom, this, tr("Background colour"));
        if (c.isValid()) {
            setColours(top ? c : m_top, top ? m_bottom : c);
        }
    };
    connect(m_topButton, &QPushButton::clicked, this, [pick] { pick(true); });
    connect(m_bottomButton, &QPushButton::clicked, this, [pick] { pick(false); });
    restoreDefaults();
}

void ColoursPage::setColours(const QColor& top, const QColor& bottom)
{
    m_top = top;
    m_bottom = bottom;
    paintButton(m_topButton, top);
    paintButton(m_bottomButton, bottom);
}

void ColoursPage::load(const QSettings& settings)
{
    const ViewerSettings v = ViewerSettings::read(settings);
    setColours(v.backgroundTop, v.backgroundBottom);
}

void ColoursPage::save(QSettings& s) const
{
    s.setValue(kBackgroundTopKey, m_top.name());
    s.setValue(kBackgroundBottomKey, m_bottom.name());
}

void ColoursPage::restoreDefaults()
{
    const ViewerSettings v;
    setColours(v.backgroundTop, v.backgroundBottom);
}

// ---------------------------------------------------------------------------------------------

UnitsPage::UnitsPage(QWidget* parent) : SettingsPage(parent), m_units(new QComboBox(this))
{
    setObjectName(QStringLiteral("unitsPage"));
    m_units->setObjectName(QStringLiteral("units"));
    m_units->addItem(tr("Model units (as written)"), unitsKey(Units::Model));
    m_units->addItem(tr("Inches (Source: 1 unit = 1 inch)"), unitsKey(Units::Inches));
    m_units->addItem(tr("Metres (1 unit = 2.54 cm)"), unitsKey(Units::Metres));
    m_units->addItem(tr("Centimetres (1 unit = 2.54 cm)"), unitsKey(Units::Centimetres));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Size readout"), m_units);
    restoreDefaults();
}

void UnitsPage::load(const QSettings& settings)
{
    m_units->setCurrentIndex(int(ViewerSettings::read(settings).units));
}

void UnitsPage::save(QSettings& s) const
{
    s.setValue(kUnitsKey, m_units->currentData().toString());
}

void UnitsPage::restoreDefaults()
{
    m_units->setCurrentIndex(0);
}

// ---------------------------------------------------------------------------------------------

SettingsDialog::SettingsDialog(QSettings& settings, QWidget* parent)
    : QDialog(parent), m_settings(settings), m_list(new QListWidget(this)),
      m_stack(new QStackedWidget(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                         QDialogButtonBox::Apply |
                                         QDialogButtonBox::RestoreDefaults,
                                     this))
{
    setObjectName(QStringLiteral("settings"));
    setWindowTitle(tr("Settings"));
    m_list->setObjectName(QStringLiteral("settingsPages"));
    m_list->setMaximumWidth(160);
    auto* body = new QHBoxLayout;
    body->addWidget(m_list);
    body->addWidget(m_stack, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(m_buttons);
    connect(m_list, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this,
            &SettingsDialog::apply);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            &SettingsDialog::restoreDefaults);

    // Built-in pages; features add theirs with addPage().
    addPage(new MousePage);
    addPage(new ColoursPage);
    addPage(new UnitsPage);
    m_list->setCurrentRow(0);
    resize(620, 360);
}

void SettingsDialog::addPage(SettingsPage* page)
{
    page->load(m_settings);
    m_pages.push_back(page);
    m_stack->addWidget(page);
    m_list->addItem(page->title());
}

SettingsPage* SettingsDialog::page(const QString& title) const
{
    for (SettingsPage* p : m_pages) {
        if (p->title() == title) {
            return p;
        }
    }
    return nullptr;
}

void SettingsDialog::showPage(const QString& title)
{
    for (std::size_t i = 0; i < m_pages.size(); ++i) {
        if (m_pages[i]->title() == title) {
            m_list->setCurrentRow(int(i));
        }
    }
}

void SettingsDialog::apply()
{
    for (SettingsPage* p : m_pages) {
        p->save(m_settings);
    }
    m_settings.sync();
    emit applied();
}

void SettingsDialog::restoreDefaults()
{
    for (SettingsPage* p : m_pages) {
        p->restoreDefaults();
    }
}

} // namespace rigscope::app
