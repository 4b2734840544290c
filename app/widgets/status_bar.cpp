#include "app/widgets/status_bar.h"

#include <QtCore/QDir>
#include <QtCore/QLocale>
#include <QtGui/QPainter>
#include <QtWidgets/QLabel>
#include <QtWidgets/QProgressBar>
#include <QtWidgets/QToolButton>

#include "app/document/document.h"
#include "app/document/frame_names.h"
#include "app/qt_convert.h"
#include "app/widgets/budget_bar.h"
#include "core/diag/limits.h"

namespace rigscope::app {

namespace {

// A status-bar label that gives way: it takes the room the permanent widgets leave and elides
// its text there (full text in the tooltip), so it never overlaps or pushes them.
class ElidingLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }
    QSize sizeHint() const override { return {0, QLabel::sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* e) override
    {
        Q_UNUSED(e);
        QPainter p(this);
        const QRect r = contentsRect().adjusted(2, 0, -2, 0);
        const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, r.width());
        p.setPen(palette().color(foregroundRole()));
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, shown);
    }
};

QString swatch(const QColor& c, const QString& text)
{
    return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
        .arg(c.name(), text.toHtmlEscaped());
}

} // namespace

StatusBar::StatusBar(QWidget* parent)
    : QStatusBar(parent), m_summary(new ElidingLabel(this)), m_message(new ElidingLabel(this)),
      m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this)),
      m_frameLabel(new QLabel(this)), m_fpsLabel(new QLabel(this)), m_heatLabel(new QLabel(this)),
      m_profileLabel(new QLabel(this)), m_offer(new QToolButton(this))
{
    m_summary->setObjectName(QStringLiteral("statusSummary"));
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    addWidget(m_summary, 1);
    // Transient messages take the summary's place (QStatusBar::showMessage painted over the
    // status widgets when they left it no room).
    m_message->setObjectName(QStringLiteral("statusMessage"));
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message->setVisible(false);
    addWidget(m_message, 1);
    m_messageTimer.setSingleShot(true);
    connect(&m_messageTimer, &QTimer::timeout, this, &StatusBar::clearFlash);

    m_progress->setMaximumWidth(180);
    m_progress->setRange(0, 0);
    m_progress->setVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setVisible(false);
    connect(m_cancel, &QToolButton::clicked, this, &StatusBar::cancelRequested);
    m_offer->setObjectName(QStringLiteral("materialsOffer"));
    m_offer->setAutoRaise(true);
    m_offer->setVisible(false);
    connect(m_offer, &QToolButton::clicked, this, [this] {
        const QString folder = m_offer->property("folder").toString();
        if (!folder.isEmpty()) {
            emit materialRootOffered(folder);
        }
    });
    addPermanentWidget(m_offer);
    addPermanentWidget(m_progress);
    addPermanentWidget(m_cancel);
    addPermanentWidget(m_frameLabel);
    // Wide enough for "999 fps" from the start: the bar does not jump as the rate changes, and
    // a rate that arrives before the next layout is not clipped to its first digit.
    m_fpsLabel->setMinimumWidth(m_fpsLabel->fontMetrics().horizontalAdvance(tr("999 fps")) + 4);
    m_fpsLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    addPermanentWidget(m_fpsLabel);
    m_heatLabel->setObjectName(QStringLiteral("heatLegend"));
    m_heatLabel->setTextFormat(Qt::RichText);
    m_heatLabel->setVisible(false);
    addPermanentWidget(m_heatLabel);
    m_profileLabel->setObjectName(QStringLiteral("profileLabel"));
    addPermanentWidget(m_profileLabel);
    for (const QString& name : {tr("bones"), tr("materials"), tr("verts"), tr("flexed")}) {
        auto* bar = new BudgetBar(name, this);
        m_budgetBars.push_back(bar);
        addPermanentWidget(bar);
    }
    showNoFile();
}

void StatusBar::flash(const QString& text, int timeoutMs)
{
    m_message->setText(text);
    m_message->setToolTip(text);
    m_summary->hide();
    m_message->show();
    m_messageTimer.start(std::max(timeoutMs, 1));
}

void StatusBar::clearFlash()
{
    m_messageTimer.stop();
    m_message->hide();
    m_message->clear();
    m_summary->show();
}

void StatusBar::showNoFile()
{
    m_summary->setText(tr("No file · drop an SMD, VTA, SMDX or CoD export here"));
    m_summary->setToolTip({});
}

void StatusBar::showOpenFailed(const QString& message)
{
    m_summary->setText(tr("Could not open: %1").arg(message));
    m_summary->setToolTip(message);
}

void StatusBar::setLoading(bool on)
{
    m_progress->setVisible(on);
    m_cancel->setVisible(on);
    if (on) {
        m_progress->setRange(0, 0);
    }
}

void StatusBar::setLoadProgress(int done, int total)
{
    if (total > 1) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    }
}

void StatusBar::showDocument(const Document& doc, Units units)
{
    auto m = doc.primaryModel();
    m_hasModel = bool(m);
    m_frameLabel->setVisible(m_hasModel);
    m_fpsLabel->setVisible(m_hasModel && m_fpsWanted);
    static const Document::MaterialLookupState noLookup{};
    const Document::MaterialLookupState& lookup = m ? doc.materialLookupState() : noLookup;
    m_offer->setVisible(!lookup.offered.isEmpty());
    if (!lookup.offered.isEmpty()) {
        const QString folder = lookup.offered.front();
        m_offer->setText(tr("Look up materials in %1").arg(QDir(folder).dirName()));
        m_offer->setToolTip(tr("Add %1 to Settings ▸ Materials: the game folder found beside "
                               "the model's sources")
                                .arg(folder));
        m_offer->setProperty("folder", folder);
    }
    if (!m) {
        m_heatLabel->setVisible(false);
        for (BudgetBar* bar : m_budgetBars) {
            bar->clear();
        }
        return;
    }
    const QLocale loc = QLocale::system();
    QStringList parts;
    parts << toQString(core::kindName(m->kind));
    auto plural = [&loc](std::size_t n, const QString& one, const QString& many) {
        return QStringLiteral("%1 %2").arg(loc.toString(qulonglong(n)), n == 1 ? one : many);
    };
    parts << plural(m->skeleton.size(), tr("bone"), tr("bones"));
    if (!m->mesh.empty()) {
        parts << tr("%1 tris").arg(loc.toString(qlonglong(m->mesh.triangleCount())));
        parts << plural(m->mesh.materials.size(), tr("material"), tr("materials")) +
                     (lookup.notLookedUp ? tr(" (not looked up)") : QString());
    }
    if (!doc.animations().empty()) {
        parts << plural(doc.animations().size(), tr("animation"), tr("animations"));
    }
    std::size_t shapes = 0;
    for (const auto& f : doc.files()) {
        shapes += f.model ? f.model->flexShapes.size() : 0;
    }
    if (shapes > 0) {
        parts << plural(shapes, tr("flex shape"), tr("flex shapes"));
    }
    const core::Bounds b = core::meshBounds(*m);
    if (b.valid) {
        parts << formatSize(b.max - b.min, units);
    }
    m_summary->setText(parts.join(QStringLiteral(" · ")));
    m_summary->setToolTip(m_summary->text());
    if (doc.currentAnimation() >= 0) {
        const auto& d = doc.animations()[std::size_t(doc.currentAnimation())];
        const core::Animation& anim = d.animation(doc.files());
        m_frameLabel->setText(
            tr("%1 · frame %2 (%3) · %4 fps")
                .arg(d.name)
                .arg(frameNumberText(anim, doc.currentFrame()), frameRangeText(anim))
                .arg(double(anim.fps)));
    } else {
        m_frameLabel->setText(tr("rest pose"));
    }
}

void StatusBar::setFps(double fps)
{
    m_fpsLabel->setText(tr("%1 fps").arg(fps, 0, 'f', 0));
}

void StatusBar::setFpsWanted(bool on)
{
    m_fpsWanted = on;
    m_fpsLabel->setVisible(on && m_hasModel);
}

void StatusBar::showChecking(const Document& doc)
{
    // The model is on screen already; problems, budgets and the profile follow when the checks
    // finish. A load cleared the old files' meters; a profile change greys the current ones.
    m_profileLabel->setText(
        tr("profile %1 · checking…").arg(toQString(core::profileName(doc.requestedProfile()))));
    const std::vector<core::BudgetMeter> budget = doc.budget();
    for (std::size_t i = 0; i < m_budgetBars.size(); ++i) {
        m_budgetBars[i]->setChecking(true);
        if (i >= budget.size()) {
            m_budgetBars[i]->clear();
        }
    }
}

void StatusBar::showChecked(const Document& doc)
{
    const QString profile = toQString(core::profileName(doc.activeProfile()));
    const LoadedFile* p = doc.primary();
    const bool guessed = p && p->guessed;
    m_profileLabel->setText(guessed ? tr("profile %1 (auto)").arg(profile)
                                    : tr("profile %1").arg(profile));
    const std::vector<core::BudgetMeter> budget = doc.budget();
    for (std::size_t i = 0; i < m_budgetBars.size(); ++i) {
        m_budgetBars[i]->setChecking(false);
        if (i < budget.size()) {
            m_budgetBars[i]->setMeter(budget[i].used, budget[i].limit, profile,
                                      budget[i].overIsNote);
        } else {
            m_budgetBars[i]->clear();
        }
    }
}

void StatusBar::showWeightLegend(render::HeatMap heatMap, bool compiledWeights,
                                 core::Profile profile, float moved, bool hasModel)
{
    using H = render::HeatMap;
    const QString profileName = toQString(core::profileName(profile));
    QStringList parts;
    switch (heatMap) {
    case H::Off:
        break;
    case H::SelectedBone:
        parts << tr("<b>Weights of the selected bone</b>")
              << swatch(render::weightRampColor(0), tr("0"))
              << swatch(render::weightRampColor(0.25f), tr("0.25"))
              << swatch(render::weightRampColor(0.5f), tr("0.5"))
              << swatch(render::weightRampColor(1.0f), tr("1"));
        break;
    case H::InfluenceCount: {
        const std::size_t limit = core::limitsFor(profile).weightsPerVertex;
        parts << tr("<b>Influences</b>");
        for (int n = 1; n <= 4; ++n) {
            if (limit == 0 || std::size_t(n) <= limit) {
                parts << swatch(render::influenceCountColor(n, false, false),
                                n == 4 ? tr("4+") : QString::number(n));
            }
        }
        if (limit > 0) {
            parts << swatch(render::influenceCountColor(0, true, false),
                            tr("over %1 (%2)").arg(limit).arg(profileName));
        }
        parts << swatch(render::influenceCountColor(0, false, true), tr("problem"));
        break;
    }
    case H::WeightChange:
        if (moved > 0) {
            parts << tr("<b>Weight change</b> in this pose: authored vs compiled skinning (%1)")
                         .arg(profileName)
                  << swatch(render::weightRampColor(0), tr("same place"))
                  << swatch(render::weightRampColor(1.0f),
                            tr("moves %1 units").arg(moved, 0, 'g', 3));
            break;
        }
        parts << tr("<b>Weight change</b> authored → compiled (%1)").arg(profileName)
              << swatch(render::weightRampColor(0), tr("none"))
              << swatch(render::weightRampColor(0.1f), tr("0.1"))
              << swatch(render::weightRampColor(0.5f), tr("0.5"))
              << swatch(render::weightRampColor(1.0f), tr("≥ 1 (L1)"));
        break;
    }
    if (compiledWeights || heatMap != H::Off) {
        parts << tr("· skinning: %1")
                     .arg(compiledWeights ? tr("compiled (%1)").arg(profileName) : tr("authored"));
    }
    m_heatLabel->setText(parts.join(QStringLiteral(" ")));
    m_heatLabel->setVisible(!parts.isEmpty() && hasModel);
}

} // namespace rigscope::app
