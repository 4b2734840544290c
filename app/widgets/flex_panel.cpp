#include "app/widgets/flex_panel.h"

#include <algorithm>
#include <cmath>

#include <QtCore/QEvent>
#include <QtCore/QVariant>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QSlider>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/pose/flex_controls.h"
#include "core/pose/qc_flex.h"

namespace rigscope::app {

namespace {
constexpr int kSteps = 1000;
const char* const kShapeProperty = "rigscopeShape";
} // namespace

FlexPanel::FlexPanel(QWidget* parent)
    : QWidget(parent), m_filter(new QLineEdit(this)), m_rows(new QWidget),
      m_rowsLayout(new QVBoxLayout(m_rows))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* header = new QHBoxLayout;
    m_filter->setPlaceholderText(tr("Filter shapes"));
    m_filter->setClearButtonEnabled(true);
    header->addWidget(m_filter, 1);
    auto* resetAll = new QPushButton(tr("Reset all"), this);
    header->addWidget(resetAll);
    layout->addLayout(header);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_rows);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    m_rowsLayout->setContentsMargins(2, 2, 2, 2);
    m_rowsLayout->setSpacing(2);
    m_rowsLayout->addStretch(1);
    connect(resetAll, &QPushButton::clicked, this, [this] {
        if (m_document) {
            m_document->resetFlexWeights();
        }
    });
    m_filter->setObjectName(QStringLiteral("flexFilter"));
    connect(m_filter, &QLineEdit::textChanged, this, &FlexPanel::applyFilter);
}

void FlexPanel::applyFilter()
{
    const QString text = m_filter->text();
    for (QWidget* row :
         m_rows->findChildren<QWidget*>(QStringLiteral("flexRow"), Qt::FindDirectChildrenOnly)) {
        row->setVisible(text.isEmpty() ||
                        row->property("shapeName").toString().contains(text, Qt::CaseInsensitive));
    }
}

void FlexPanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
        m_filters.insert(m_document, m_filter->text());
    }
    // Each tab keeps its own filter (issue 27): the other tab's words do not carry over.
    if (document && !m_filters.contains(document)) {
        connect(document, &QObject::destroyed, this,
                [this, document] { m_filters.remove(document); });
    }
    m_document = document;
    m_filter->blockSignals(true);
    m_filter->setText(m_filters.value(document));
    m_filter->blockSignals(false);
    connect(document, &Document::loaded, this, &FlexPanel::rebuild);
    connect(document, &Document::flexChanged, this, &FlexPanel::syncValues);
    rebuild();
}

void FlexPanel::rebuild()
{
    for (QWidget* row :
         m_rows->findChildren<QWidget*>(QStringLiteral("flexRow"), Qt::FindDirectChildrenOnly)) {
        delete row;
    }
    if (!m_document) {
        return;
    }
    const QStringList names = m_document->flexNames();
    if (const core::QcFlexRig* face = m_document->qcFace(); face && !face->eyes.empty()) {
        addEyeTarget(*face);
    }
    if (const core::CompiledModelInfo* program = m_document->flexProgram()) {
        addCompiledControllers(*program);
    }
    // A DMX with DmeCombinationOperator controls: one slider per control on Valve's 0..1 scale,
    // driving its raw shapes as CDmeCombinationOperator does (core::controlWeights): one shape
    // follows the value; two shapes rest at 0.5 (below drives the first, above the second);
    // three or more (and eyelids) get a level slider choosing between them. Stereo controls get
    // a balance slider.
    const auto model = m_document->primaryModel();
    if (model && !model->flexControllers.empty() && !names.isEmpty()) {
        for (const core::FlexController& c : model->flexControllers) {
            QList<int> shapes;
            for (const std::string& raw : c.rawControls) {
                shapes << int(names.indexOf(QString::fromStdString(raw)));
            }
            if (shapes.isEmpty() || shapes.contains(-1)) {
                continue; // drives nothing this document has
            }
            const bool multi = shapes.size() >= 3 || c.eyelid;
            const QString label = QString::fromStdString(c.name);
            auto* row = new QWidget(m_rows);
            row->setObjectName(QStringLiteral("flexRow"));
            row->setProperty("shapeName", label);
            auto* grid = new QGridLayout(row);
            grid->setContentsMargins(2, 1, 2, 1);
            QStringList driven;
            for (int k : shapes) {
                driven << names[k];
            }
            QString tip = tr("Controller %1 (0 to 1%2%3) drives: %4")
                              .arg(label)
                              .arg(c.stereo ? tr(", stereo") : QString())
                              .arg(c.eyelid ? tr(", eyelid") : QString())
                              .arg(driven.join(QStringLiteral(", ")));
            if (shapes.size() == 2 && !c.eyelid) {
                tip += tr("\n0: %1, 0.5: neither, 1: %2").arg(driven[0], driven[1]);
            }
            if (c.min != 0.0f || c.max != 1.0f) {
                tip += tr("\ncompiled range %1 to %2").arg(double(c.min)).arg(double(c.max));
            }
            auto* name = new QLabel(c.stereo ? tr("%1 (L+R)").arg(label) : label, row);
            name->setToolTip(tip);
            auto* value = new QLabel(row);
            value->setObjectName(QStringLiteral("value"));
            value->setMinimumWidth(36);
            value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            auto* slider = new QSlider(Qt::Horizontal, row);
            slider->setObjectName(QStringLiteral("controller"));
            slider->setRange(0, kSteps);
            slider->setValue(int(std::lround(core::controlDefaultValue(c) * kSteps)));
            slider->setToolTip(tip);
            slider->setProperty("controllerShapes", QVariant::fromValue(shapes));
            grid->addWidget(name, 0, 0);
            grid->addWidget(value, 0, 1);
            grid->addWidget(slider, 1, 0, 1, 2);
            grid->setColumnStretch(0, 1);
            int nextRow = 2;
            QSlider* level = nullptr;
            if (multi) {
                level = new QSlider(Qt::Horizontal, row);
                level->setObjectName(QStringLiteral("level"));
                level->setRange(0, kSteps);
                level->setValue(kSteps / 2);
                level->setToolTip(
                    tr("Level of %1: 0 %2 … 1 %3").arg(label, driven.front(), driven.back()));
                grid->addWidget(new QLabel(tr("level"), row), nextRow, 0, Qt::AlignLeft);
                grid->addWidget(level, nextRow + 1, 0, 1, 2);
                nextRow += 2;
            }
            // Stereo: a balance slider (left 0 .. 1 right, 0.5 both), split as Valve's
            // ValueBalanceToLeftRight does; the points follow their balance in the file.
            QSlider* balance = nullptr;
            if (c.stereo) {
                balance = new QSlider(Qt::Horizontal, row);
                balance->setObjectName(QStringLiteral("balance"));
                balance->setRange(0, kSteps);
                balance->setValue(kSteps / 2);
                balance->setToolTip(tr("Balance of %1: left 0, both 0.5, right 1").arg(label));
                auto* balanceValue = new QLabel(row);
                balanceValue->setObjectName(QStringLiteral("balanceValue"));
                balanceValue->setAlignment(Qt::AlignCenter);
                balanceValue->setText(tr("balance %1").arg(0.5, 0, 'f', 2));
                grid->addWidget(new QLabel(tr("L"), row), nextRow, 0, Qt::AlignLeft);
                grid->addWidget(balanceValue, nextRow, 0, 1, 2, Qt::AlignHCenter);
                grid->addWidget(new QLabel(tr("R"), row), nextRow, 1, Qt::AlignRight);
                grid->addWidget(balance, nextRow + 1, 0, 1, 2);
            }
            auto apply = [this, c, shapes, value, slider, balance, level](int) {
                const float x = float(slider->value()) / kSteps;
                value->setText(QString::number(double(x), 'f', 2));
                const float b = balance ? float(balance->value()) / kSteps : 0.5f;
                if (balance) {
                    if (auto* bv = balance->parentWidget()->findChild<QLabel*>(
                            QStringLiteral("balanceValue"))) {
                        bv->setText(tr("balance %1").arg(double(b), 0, 'f', 2));
                    }
                }
                if (m_syncing || !m_document) {
                    return;
                }
                const float lv = level ? float(level->value()) / kSteps : 0.5f;
                const std::vector<core::SideWeights> w = core::controlWeights(c, x, b, lv);
                for (qsizetype k = 0; k < shapes.size() && std::size_t(k) < w.size(); ++k) {
                    const core::SideWeights& sw = w[std::size_t(k)];
                    if (c.stereo) {
                        m_document->setFlexWeightStereo(shapes[k], sw.left, sw.right);
                    } else {
                        m_document->setFlexWeight(shapes[k], sw.left);
                    }
                }
            };
            connect(slider, &QSlider::valueChanged, this, apply);
            if (balance) {
                connect(balance, &QSlider::valueChanged, this, apply);
            }
            if (level) {
                connect(level, &QSlider::valueChanged, this, apply);
            }
            m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row);
        }
    }
    for (int i = 0; i < names.size(); ++i) {
        auto* row = new QWidget(m_rows);
        row->setObjectName(QStringLiteral("flexRow"));
        row->setProperty("shapeName", names[i]);
        auto* grid = new QGridLayout(row);
        grid->setContentsMargins(2, 1, 2, 1);
        auto* name = new QLabel(names[i], row);
        name->setToolTip(names[i]);
        // A number box on every row (UX.md): type an exact weight.
        auto* value = new QDoubleSpinBox(row);
        value->setObjectName(QStringLiteral("value"));
        value->setRange(0.0, 1.0);
        value->setSingleStep(0.05);
        value->setDecimals(2);
        value->setKeyboardTracking(false);
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setToolTip(tr("Weight of %1 (0–1)").arg(names[i]));
        auto* slider = new QSlider(Qt::Horizontal, row);
        slider->setRange(0, kSteps);
        slider->setProperty(kShapeProperty, i);
        slider->installEventFilter(this);
        auto* solo = new QToolButton(row);
        solo->setText(tr("Solo"));
        solo->setAutoRaise(true);
        auto* reset = new QToolButton(row);
        reset->setText(tr("Reset"));
        reset->setAutoRaise(true);
        grid->addWidget(name, 0, 0, 1, 3);
        grid->addWidget(value, 0, 3);
        grid->addWidget(slider, 1, 0);
        grid->addWidget(solo, 1, 1);
        grid->addWidget(reset, 1, 2, 1, 2);
        grid->setColumnStretch(0, 1);
        connect(slider, &QSlider::valueChanged, this, [this, i, value](int v) {
            if (!m_syncing && m_document) {
                m_document->setFlexWeight(i, float(v) / kSteps);
            } else {
                const QSignalBlocker block(value);
                value->setValue(double(v) / kSteps);
            }
        });
        connect(value, &QDoubleSpinBox::valueChanged, this, [this, i](double v) {
            if (!m_syncing && m_document) {
                m_document->setFlexWeight(i, float(v));
            }
        });
        connect(reset, &QToolButton::clicked, this,
                [this, i] { m_document->setFlexWeight(i, 0.0f); });
        connect(solo, &QToolButton::clicked, this, [this, i] {
            m_syncing = true;
            for (int k = 0; k < m_document->flexNames().size(); ++k) {
                m_document->setFlexWeight(k, k == i ? 1.0f : 0.0f);
            }
            m_syncing = false;
            syncValues();
        });
        m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row);
    }
    if (names.isEmpty()) {
        auto* row = new QLabel(tr("No flex shapes. Open or drop a VTA on a reference."), m_rows);
        row->setObjectName(QStringLiteral("flexRow"));
        row->setWordWrap(true);
        m_rowsLayout->insertWidget(0, row);
    }
    syncValues();
    applyFilter();
}

// A QC face's eyes (issue 32): where they look, as yaw and pitch from the eyes' midpoint (a
// target 100 units away), or straight ahead. The eyelids follow the pitch.
void FlexPanel::addEyeTarget(const core::QcFlexRig& face)
{
    core::Vec3 mid = core::Vec3::Zero();
    for (const core::QcFlexRig::Eye& e : face.eyes) {
        mid += e.position / float(face.eyes.size());
    }
    auto* row = new QWidget(m_rows);
    row->setObjectName(QStringLiteral("flexRow"));
    row->setProperty("shapeName", tr("eyes look at"));
    auto* grid = new QGridLayout(row);
    grid->setContentsMargins(2, 1, 2, 1);
    auto* name = new QLabel(tr("Eyes look at"), row);
    name->setToolTip(tr("Where the eyes look (the engine's look-at target); the eyelids follow "
                        "the eyes' pitch. Yaw and pitch in degrees from straight ahead."));
    auto* ahead = new QToolButton(row);
    ahead->setText(tr("Ahead"));
    ahead->setAutoRaise(true);
    auto* yaw = new QSlider(Qt::Horizontal, row);
    yaw->setObjectName(QStringLiteral("eyeYaw"));
    yaw->setRange(-60, 60);
    auto* pitch = new QSlider(Qt::Horizontal, row);
    pitch->setObjectName(QStringLiteral("eyePitch"));
    pitch->setRange(-45, 45);
    // The sliders show the document's target however it moved (here, the viewport's marker
    // drag, --look-at), without setting it again (a dragged target keeps its distance).
    const auto show = [this, mid, yaw, pitch] {
        const QSignalBlocker b1(yaw), b2(pitch);
        const core::QcEyeTarget& t = m_document->eyeTarget();
        if (!t.set) {
            yaw->setValue(0);
            pitch->setValue(0);
            return;
        }
        const core::Vec3 d = (t.point - mid).normalized();
        yaw->setValue(int(std::lround(std::atan2(d.x(), -d.y()) * 57.2957795)));
        pitch->setValue(int(std::lround(std::asin(std::clamp(d.z(), -1.0f, 1.0f)) * 57.2957795)));
    };
    show();
    connect(m_document, &Document::eyeTargetChanged, row, show);
    grid->addWidget(name, 0, 0);
    grid->addWidget(ahead, 0, 1);
    grid->addWidget(new QLabel(tr("yaw"), row), 1, 0);
    grid->addWidget(yaw, 1, 1);
    grid->addWidget(new QLabel(tr("pitch"), row), 2, 0);
    grid->addWidget(pitch, 2, 1);
    grid->setColumnStretch(1, 1);
    const auto apply = [this, mid, yaw, pitch](int) {
        if (!m_document || m_syncing) {
            return;
        }
        const double y = yaw->value() / 57.2957795, p = pitch->value() / 57.2957795;
        core::QcEyeTarget target;
        target.set = true;
        target.point =
            mid + 100.0f * core::Vec3(float(std::sin(y) * std::cos(p)),
                                      float(-std::cos(y) * std::cos(p)), float(std::sin(p)));
        m_document->setEyeTarget(target);
    };
    connect(yaw, &QSlider::valueChanged, this, apply);
    connect(pitch, &QSlider::valueChanged, this, apply);
    connect(ahead, &QToolButton::clicked, this, [this, yaw, pitch] {
        const QSignalBlocker b1(yaw), b2(pitch);
        yaw->setValue(0);
        pitch->setValue(0);
        m_document->setEyeTarget({});
    });
    m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row);
}

void FlexPanel::addCompiledControllers(const core::CompiledModelInfo& info)
{
    // A compiled Source model (issue 29) or a QC's face (issue 32): one slider per flex
    // controller over its range; the document runs the flex rules and the shape rows below show
    // the weights they give. A QC's right_X / left_X controllers share one row (L and R).
    std::vector<std::int32_t> partners(info.flexControllers.size(), -1);
    if (const core::QcFlexRig* face = m_document->qcFace(); face && &face->program == &info) {
        partners = core::stereoPartners(*face);
    }
    const auto drivesOf = [&info](std::size_t c) {
        QStringList drives;
        for (const core::CompiledFlexRule& rule : info.flexRuleList) {
            const bool reads = std::any_of(rule.ops.begin(), rule.ops.end(), [&](const auto& op) {
                return (op.op == 2 || op.op == 15 || op.op == 16 || op.op == 17 || op.op == 20 ||
                        op.op == 21) &&
                       op.index == int(c);
            });
            if (reads && rule.flex >= 0 && std::size_t(rule.flex) < info.flexDescs.size()) {
                drives << toQString(info.flexDescs[std::size_t(rule.flex)]);
            }
        }
        drives.removeDuplicates();
        return drives;
    };
    for (std::size_t c = 0; c < info.flexControllers.size(); ++c) {
        const core::CompiledFlexController& fc = info.flexControllers[c];
        const std::int32_t partner = partners[c];
        const bool pairRow = partner >= 0;
        if (pairRow && !QString::fromStdString(fc.name).startsWith(QStringLiteral("right_"),
                                                                   Qt::CaseInsensitive)) {
            continue; // left_X: on right_X's row
        }
        // The sides on this row: (controller, side label).
        QList<QPair<int, QString>> sides;
        QString label = toQString(fc.name);
        if (pairRow) {
            label = label.mid(6);
            sides << qMakePair(int(partner), tr("L")) << qMakePair(int(c), tr("R"));
        } else {
            sides << qMakePair(int(c), QString());
        }
        auto* row = new QWidget(m_rows);
        row->setObjectName(QStringLiteral("flexRow"));
        row->setProperty("shapeName", label);
        auto* grid = new QGridLayout(row);
        grid->setContentsMargins(2, 1, 2, 1);
        QStringList drives;
        for (const auto& side : sides) {
            drives << drivesOf(std::size_t(side.first));
        }
        const QString tip =
            tr("Controller %1 (%2, %3 to %4)%5%6")
                .arg(pairRow ? tr("%1 (left_%1, right_%1)").arg(label) : label, toQString(fc.type))
                .arg(double(fc.min))
                .arg(double(fc.max))
                .arg(pairRow ? tr(", stereo") : QString())
                .arg(drives.isEmpty()
                         ? tr("\nno flex rule reads it")
                         : tr("\nflex rules: %1").arg(drives.join(QStringLiteral(", "))));
        auto* name = new QLabel(pairRow ? tr("%1 (L / R)").arg(label) : label, row);
        name->setObjectName(QStringLiteral("name"));
        name->setToolTip(tip);
        auto* range = new QLabel(tr("%1 … %2").arg(double(fc.min)).arg(double(fc.max)), row);
        range->setObjectName(QStringLiteral("range"));
        range->setEnabled(false); // secondary text
        grid->addWidget(name, 0, 0);
        grid->addWidget(range, 0, 1);
        grid->setColumnStretch(0, 1);
        int gridRow = 1;
        for (const auto& side : sides) {
            const int k = side.first;
            const core::CompiledFlexController& sc = info.flexControllers[std::size_t(k)];
            // A pair's sliders sit each in its own widget so syncValues finds each one's value
            // label; a lone slider sits in the row, by its name and range.
            QWidget* cell = row;
            QHBoxLayout* h = nullptr;
            if (pairRow) {
                cell = new QWidget(row);
                h = new QHBoxLayout(cell);
                h->setContentsMargins(0, 0, 0, 0);
                h->addWidget(new QLabel(side.second, cell));
            }
            auto* slider = new QSlider(Qt::Horizontal, cell);
            slider->setObjectName(QStringLiteral("compiledController"));
            slider->setRange(0, kSteps);
            slider->setProperty("controller", k);
            slider->setToolTip(tip);
            auto* value = new QLabel(cell);
            value->setObjectName(QStringLiteral("value"));
            value->setMinimumWidth(36);
            value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (h) {
                h->addWidget(slider, 1);
                h->addWidget(value);
                grid->addWidget(cell, gridRow++, 0, 1, 3);
            } else {
                grid->addWidget(value, 0, 2);
                grid->addWidget(slider, gridRow++, 0, 1, 3);
            }
            const float lo = sc.min, hi = sc.max;
            connect(slider, &QSlider::valueChanged, this, [this, k, lo, hi, value](int v) {
                const float x = lo + (hi - lo) * float(v) / kSteps;
                value->setText(QString::number(double(x), 'f', 2));
                if (!m_syncing && m_document) {
                    m_document->setControllerValue(k, x);
                }
            });
        }
        m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row);
    }
}

void FlexPanel::syncValues()
{
    if (!m_document) {
        return;
    }
    m_syncing = true;
    for (QSlider* s : m_rows->findChildren<QSlider*>()) {
        if (s->objectName() == QLatin1String("balance") ||
            s->objectName() == QLatin1String("level") ||
            s->objectName() == QLatin1String("eyeYaw") ||
            s->objectName() == QLatin1String("eyePitch")) {
            continue; // kept as the user set it
        }
        if (s->objectName() == QLatin1String("compiledController")) {
            const int c = s->property("controller").toInt();
            const std::vector<float>& values = m_document->controllerValues();
            const core::CompiledModelInfo* info = m_document->flexProgram();
            if (info && std::size_t(c) < values.size() &&
                std::size_t(c) < info->flexControllers.size()) {
                const core::CompiledFlexController& fc = info->flexControllers[std::size_t(c)];
                const float span = fc.max - fc.min;
                const float t = span != 0 ? (values[std::size_t(c)] - fc.min) / span : 0.0f;
                s->setValue(int(std::lround(std::clamp(t, 0.0f, 1.0f) * kSteps)));
                if (auto* value = s->parentWidget()->findChild<QLabel*>(QStringLiteral("value"))) {
                    value->setText(QString::number(double(values[std::size_t(c)]), 'f', 2));
                }
            }
            continue;
        }
        if (s->objectName() == QLatin1String("controller")) {
            // The control's value from its shapes' weights (stereo: the larger of left and
            // right): one shape, its weight; two, 0.5 − first / 2 + second / 2; more, kept
            // unless every shape is back at 0.
            const auto shapes = s->property("controllerShapes").value<QList<int>>();
            auto weight = [this](int k) {
                return std::max(m_document->flexWeight(k), m_document->flexWeightRight(k));
            };
            float v = float(s->value()) / kSteps;
            if (shapes.size() == 1) {
                v = weight(shapes[0]);
            } else if (shapes.size() == 2 &&
                       !s->parentWidget()->findChild<QSlider*>(QStringLiteral("level"))) {
                v = 0.5f - 0.5f * weight(shapes[0]) + 0.5f * weight(shapes[1]);
            } else if (std::all_of(shapes.begin(), shapes.end(),
                                   [&](int k) { return weight(k) == 0.0f; })) {
                v = 0.0f;
            }
            s->setValue(int(std::lround(v * kSteps)));
            if (auto* value = s->parentWidget()->findChild<QLabel*>(QStringLiteral("value"))) {
                value->setText(QString::number(double(s->value()) / kSteps, 'f', 2));
            }
            continue;
        }
        const int i = s->property(kShapeProperty).toInt();
        s->setValue(int(m_document->flexWeight(i) * kSteps + 0.5f));
        if (auto* value = s->parentWidget()->findChild<QDoubleSpinBox*>(QStringLiteral("value"))) {
            value->setValue(double(m_document->flexWeight(i)));
        }
    }
    m_syncing = false;
}

bool FlexPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonDblClick && m_document) {
        if (auto* s = qobject_cast<QSlider*>(watched)) {
            m_document->setFlexWeight(s->property(kShapeProperty).toInt(), 0.0f);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rigscope::app
