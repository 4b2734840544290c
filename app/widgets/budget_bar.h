#pragma once

#include <QtWidgets/QWidget>

namespace rigscope::app {

// One budget meter of the status bar (UX.md "Budget bars"): "bones 98/127" over a bar filled
// to used / limit; green, amber from 75 %, red over the limit (amber when going over is only a
// note for the profile, as `check` grades it), grey when the profile has no limit. The tooltip
// says the numbers and the profile.
class BudgetBar : public QWidget {
    Q_OBJECT
public:
    enum class Level { NoLimit, Ok, Amber, OverNote, Over };

    explicit BudgetBar(const QString& name, QWidget* parent = nullptr);
    void setMeter(std::size_t used, std::size_t limit, const QString& profile,
                  bool overIsNote = false);
    void clear();
    // Checks running: greyed, "…" when there is no meter yet; setMeter / clear keep it.
    void setChecking(bool on);
    bool isChecking() const { return m_checking; }
    std::size_t used() const { return m_used; }
    std::size_t limit() const { return m_limit; }
    Level level() const { return levelFor(m_used, m_limit, m_overIsNote); }
    QString text() const;
    static Level levelFor(std::size_t used, std::size_t limit, bool overIsNote = false);
    static QColor levelColor(Level level);

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    QString m_name;
    std::size_t m_used = 0;
    std::size_t m_limit = 0;
    bool m_overIsNote = false;
    void showToolTip();

    QString m_tip; // the meter's tooltip, without the checking note
    bool m_empty = true;
    bool m_checking = false;
};

} // namespace rigscope::app
