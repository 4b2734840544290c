#include "app/widgets/budget_bar.h"

#include <QtCore/QLocale>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

namespace rigscope::app {

BudgetBar::BudgetBar(const QString& name, QWidget* parent) : QWidget(parent), m_name(name)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    clear();
}

BudgetBar::Level BudgetBar::levelFor(std::size_t used, std::size_t limit, bool overIsNote)
{
    if (limit == 0) {
        return Level::NoLimit;
    }
    if (used > limit) {
        return overIsNote ? Level::OverNote : Level::Over;
    }
    return used * 4 >= limit * 3 ? Level::Amber : Level::Ok;
}

QColor BudgetBar::levelColor(Level level)
{
    switch (level) {
    case Level::Ok:
        return {76, 175, 80};
    case Level::Amber:
    case Level::OverNote:
        return {255, 179, 0};
    case Level::Over:
        return {229, 57, 53};
    case Level::NoLimit:
        break;
    }
    return {120, 128, 140};
}

void BudgetBar::setMeter(std::size_t used, std::size_t limit, const QString& profile,
                         bool overIsNote)
{
    m_used = used;
    m_limit = limit;
    m_overIsNote = overIsNote;
    m_empty = false;
    const QLocale loc = QLocale::system();
    QString tip;
    if (limit == 0) {
        tip = tr("%1: %2 (no verified limit for %3)")
                  .arg(m_name, loc.toString(qulonglong(used)), profile);
    } else {
        tip = tr("%1: %2 of %3 allowed by %4 (%5 %)")
                  .arg(m_name, loc.toString(qulonglong(used)), loc.toString(qulonglong(limit)),
                       profile)
                  .arg(double(used) * 100.0 / double(limit), 0, 'f', 1);
        if (used > limit && overIsNote) {
            tip += QLatin1Char('\n') +
                   tr("Over by %1: a note for %2, whose compiler can be told to go past it "
                      "(see the Problems dock)")
                       .arg(used - limit)
                       .arg(profile);
        } else if (used > limit) {
            tip += QLatin1Char('\n') + tr("Over the limit by %1").arg(used - limit);
        } else if (levelFor(used, limit) == Level::Amber) {
            tip += QLatin1Char('\n') + tr("Above 75 % of the limit");
        }
    }
    m_tip = tip;
    showToolTip();
    updateGeometry();
    update();
}

void BudgetBar::clear()
{
    m_used = m_limit = 0;
    m_overIsNote = false;
    m_empty = true;
    m_tip = tr("%1: no model").arg(m_name);
    showToolTip();
    updateGeometry();
    update();
}

void BudgetBar::setChecking(bool on)
{
    if (on == m_checking) {
        return;
    }
    m_checking = on;
    showToolTip();
    updateGeometry();
    update();
}

void BudgetBar::showToolTip()
{
    setToolTip(m_checking ? m_tip + QLatin1Char('\n') + tr("Checking…") : m_tip);
}

QString BudgetBar::text() const
{
    if (m_empty) {
        return m_checking ? m_name + QStringLiteral(" …") : m_name;
    }
    const QLocale loc = QLocale::system();
    return m_limit == 0 ? QStringLiteral("%1 %2").arg(m_name, loc.toString(qulonglong(m_used)))
                        : QStringLiteral("%1 %2/%3")
                              .arg(m_name, loc.toString(qulonglong(m_used)),
                                   loc.toString(qulonglong(m_limit)));
}

QSize BudgetBar::sizeHint() const
{
    const QFontMetrics fm(font());
    return {std::max(90, fm.horizontalAdvance(text()) + 16), fm.height() + 4};
}

void BudgetBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_checking) {
        p.setOpacity(0.45);
    }
    const QRectF r = QRectF(rect()).adjusted(0.5, 1.5, -0.5, -1.5);
    QPainterPath frame;
    frame.addRoundedRect(r, 3, 3);
    p.fillPath(frame, palette().color(QPalette::Base).darker(108));
    if (!m_empty) {
        const Level lv = level();
        const double fraction =
            m_limit == 0 ? 1.0 : std::min(1.0, double(m_used) / double(m_limit));
        QColor fill = levelColor(lv);
        fill.setAlpha(lv == Level::NoLimit ? 70 : 200);
        p.save();
        p.setClipPath(frame);
        p.fillRect(QRectF(r.left(), r.top(), r.width() * fraction, r.height()), fill);
        p.restore();
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawPath(frame);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r, Qt::AlignCenter, text());
}

} // namespace rigscope::app
