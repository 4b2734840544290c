#include "app/widgets/shortcut_sheet.h"

#include <QtGui/QKeyEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace rigscope::app {

namespace {

// "&Open…" -> "Open…"; "&&" stays one '&'.
QString plainText(QString s)
{
    s.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    s.remove(QLatin1Char('&'));
    s.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return s;
}

// Controls the viewport handles itself (render::Viewport): no menu holds them.
const struct {
    const char* group;
    const char* key;
    const char* text;
} kViewportControls[] = {
    {"File", "Up", "Reload (viewport)"},
    {"Camera", "2 / 4 / 6 / 8", "Orbit 90° (viewport)"},
};

} // namespace

ShortcutSheet::ShortcutSheet(QWidget* parent)
    : QFrame(parent, Qt::Tool | Qt::FramelessWindowHint), m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("shortcutSheet"));
    setWindowTitle(tr("Keyboard and Mouse"));
    setFrameShape(QFrame::Box);
    setStyleSheet(
        QStringLiteral("#shortcutSheet { background: #1d2026; border: 1px solid #5a6270; }"
                       "QLabel { color: #d8dde6; }"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(18, 14, 18, 14);
    m_label->setTextFormat(Qt::RichText);
    layout->addWidget(m_label);
}

std::vector<ShortcutSheet::Entry> ShortcutSheet::collect(const QMenuBar* menus,
                                                         render::MouseScheme scheme)
{
    std::vector<Entry> out;
    if (menus) {
        for (const QAction* top : menus->actions()) {
            const QMenu* menu = top->menu();
            if (!menu) {
                continue;
            }
            const QString group = plainText(menu->title());
            for (const QAction* a : menu->actions()) {
                if (a->isSeparator() || a->menu() || !a->isVisible()) {
                    continue;
                }
                const QString full = plainText(a->text());
                const qsizetype tab = full.indexOf(QLatin1Char('\t'));
                Entry e;
                e.group = group;
                e.text = tab < 0 ? full : full.left(tab);
                QStringList keys;
                for (const QKeySequence& k : a->shortcuts()) {
                    keys << k.toString(QKeySequence::NativeText);
                }
                e.key = keys.isEmpty() && tab >= 0 ? full.mid(tab + 1)
                                                   : keys.join(QStringLiteral(" / "));
                if (e.key.isEmpty()) {
                    continue;
                }
                e.state = a->isCheckable() ? int(a->isChecked()) : -1;
                out.push_back(std::move(e));
            }
        }
    }
    for (const auto& c : kViewportControls) {
        Entry e{QString::fromUtf8(c.group), QString::fromUtf8(c.key), QString::fromUtf8(c.text)};
        // After the last entry of its group, or at the end.
        auto at = std::find_if(out.rbegin(), out.rend(),
                               [&e](const Entry& x) { return x.group == e.group; });
        out.insert(at == out.rend() ? out.end() : at.base(), std::move(e));
    }
    for (const render::MouseControl& c : render::mouseControls(scheme)) {
        out.push_back(
            {QStringLiteral("Mouse"), QString::fromUtf8(c.input), QString::fromUtf8(c.action)});
    }
    return out;
}

QString ShortcutSheet::html(int columnCount) const
{
    // Groups in order, laid out in columns of about equal rows.
    std::vector<std::pair<QString, std::vector<const Entry*>>> groups;
    for (const Entry& e : m_entries) {
        if (groups.empty() || groups.back().first != e.group) {
            groups.push_back({e.group, {}});
        }
        groups.back().second.push_back(&e);
    }
    const std::size_t rows = m_entries.size() + 2 * groups.size();
    const std::size_t kColumns = std::size_t(std::clamp(columnCount, 1, 6));
    const std::size_t perColumn = (rows + kColumns - 1) / kColumns;
    std::vector<QString> columns(kColumns);
    std::size_t column = 0, used = 0;
    for (const auto& [group, entries] : groups) {
        if (used > 0 && used + entries.size() / 2 > perColumn && column < kColumns - 1) {
            ++column;
            used = 0;
        }
        QString& c = columns[column];
        c += QStringLiteral("<tr><td colspan=3 style='padding-top:6px'><b style='color:#9fb4d8'>") +
             group.toHtmlEscaped() + QStringLiteral("</b></td></tr>");
        for (const Entry* e : entries) {
            QString state;
            if (e->state >= 0) {
                state = e->state ? QStringLiteral("<span style='color:#8fd18f'>on</span>")
                                 : QStringLiteral("<span style='color:#7d8590'>off</span>");
            }
            c += QStringLiteral("<tr><td style='color:#ffd479; padding-right:10px'>") +
                 e->key.toHtmlEscaped() + QStringLiteral("</td><td>") + e->text.toHtmlEscaped() +
                 QStringLiteral("</td><td style='padding-left:8px'>") + state +
                 QStringLiteral("</td></tr>");
        }
        used += entries.size() + 2;
    }
    QString out = QStringLiteral("<p style='font-size:large'><b>") + tr("Keyboard and Mouse") +
                  QStringLiteral("</b> <span style='color:#7d8590'>") +
                  tr("(any key or click closes)") + QStringLiteral("</span></p><table><tr>");
    for (const QString& c : columns) {
        out += QStringLiteral("<td valign=top style='padding-right:28px'><table>") + c +
               QStringLiteral("</table></td>");
    }
    return out + QStringLiteral("</tr></table>");
}

void ShortcutSheet::showOver(const QMenuBar* menus, render::MouseScheme scheme, const QRect& over)
{
    m_entries = collect(menus, scheme);
    // The fewest columns that fit over the window at the application's font; else four, with
    // a smaller font until they fit (down to 7 pt).
    QFont f = QApplication::font();
    const qreal base = f.pointSizeF() > 0 ? f.pointSizeF() : 9.0;
    auto fits = [&] {
        m_label->adjustSize();
        adjustSize();
        return sizeHint().width() <= over.width() && sizeHint().height() <= over.height();
    };
    m_label->setFont(f);
    bool done = false;
    for (int columns = 2; columns <= 4 && !done; ++columns) {
        m_label->setText(html(columns));
        done = fits();
    }
    for (qreal pt = base - 0.5; !done && pt >= 7.0; pt -= 0.5) {
        f.setPointSizeF(pt);
        m_label->setFont(f);
        done = fits();
    }
    const QSize s = sizeHint().boundedTo(over.size());
    resize(s);
    move(over.center() - QPoint(s.width() / 2, s.height() / 2));
    show();
    raise();
    activateWindow();
    setFocus();
    if (!m_filtering) {
        qApp->installEventFilter(this);
        m_filtering = true;
    }
}

void ShortcutSheet::hideEvent(QHideEvent* e)
{
    QFrame::hideEvent(e);
}

bool ShortcutSheet::eventFilter(QObject* watched, QEvent* e)
{
    Q_UNUSED(watched);
    switch (e->type()) {
    case QEvent::ShortcutOverride:
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent*>(e)->key();
        if (isVisible()) {
            // The key that closes the sheet does nothing else: its KeyPress (sent after the
            // ShortcutOverride) is swallowed too.
            hide();
            m_swallowKey = key;
            e->accept(); // no shortcut (Esc: Deselect, H: the sheet again) takes the key
            return true;
        }
        if (key == m_swallowKey) {
            e->accept();
            if (e->type() == QEvent::KeyPress) {
                m_swallowKey = 0;
            }
            return true;
        }
        m_swallowKey = 0;
        break;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        if (isVisible()) {
            hide();
            return true;
        }
        break;
    default:
        break;
    }
    return false;
}

void ShortcutSheet::keyPressEvent(QKeyEvent* e)
{
    e->accept();
    hide();
}

void ShortcutSheet::mousePressEvent(QMouseEvent* e)
{
    Q_UNUSED(e);
    hide();
}

} // namespace rigscope::app
