#include "app/widgets/timeline_panel.h"

#include <algorithm>
#include <cmath>

#include <QtCore/QFileInfo>
#include <QtGui/QHelpEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleOptionSlider>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QToolTip>

#include "app/document/frame_names.h"
#include "app/document/qc_document.h"
#include "core/formats/mdl/compiled_model.h"

namespace rigscope::app {

namespace {

constexpr int kScrubberMinWidth = 180;

// A label that elides its text to the room it has (the whole text in its tooltip) and asks for
// no more than the text's width.
class ElidedLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override
    {
        return {minimumWidth(), QLabel::minimumSizeHint().height()};
    }
    QSize sizeHint() const override
    {
        return {fontMetrics().horizontalAdvance(text()) + 8, QLabel::sizeHint().height()};
    }

protected:
    void paintEvent(QPaintEvent* e) override
    {
        Q_UNUSED(e);
        QPainter p(this);
        const QRect r = contentsRect().adjusted(2, 0, -2, 0);
        p.setPen(palette().color(foregroundRole()));
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                   fontMetrics().elidedText(text(), Qt::ElideMiddle, r.width()));
    }
};

} // namespace

// ---- MarkerSlider ---------------------------------------------------------------------------

void MarkerSlider::setMarkers(std::vector<Marker> markers)
{
    m_markers = std::move(markers);
    update();
}

int MarkerSlider::xOf(int index) const
{
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    const QRect groove =
        style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
    const QRect handle =
        style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    const int span = groove.width() - handle.width();
    return groove.left() + handle.width() / 2 +
           QStyle::sliderPositionFromValue(minimum(), maximum(), index, std::max(span, 1));
}

void MarkerSlider::paintEvent(QPaintEvent* event)
{
    QSlider::paintEvent(event);
    if (m_markers.empty()) {
        return;
    }
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(240, 170, 40));
    for (const Marker& m : m_markers) {
        const int x = xOf(m.index);
        const QPolygon tri({QPoint(x - 4, 0), QPoint(x + 4, 0), QPoint(x, 6)});
        p.drawPolygon(tri);
    }
}

bool MarkerSlider::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && !m_markers.empty()) {
        const auto* help = static_cast<QHelpEvent*>(event);
        QStringList names;
        for (const Marker& m : m_markers) {
            if (std::abs(xOf(m.index) - help->pos().x()) <= 5) {
                names << tr("%1 (frame %2)").arg(m.text, m.frame);
            }
        }
        if (!names.isEmpty()) {
            QToolTip::showText(help->globalPos(), names.join(QLatin1Char('\n')), this);
            return true;
        }
    }
    return QSlider::event(event);
}

// ---- FrameBox -------------------------------------------------------------------------------

FrameBox::FrameBox(QWidget* parent) : QSpinBox(parent)
{
    setObjectName(QStringLiteral("frameBox"));
    setKeyboardTracking(false); // a number is taken when typed out (Enter, focus out)
    setToolTip(tr("Frame: the file's own frame number (SMD time, XANIM FRAME)"));
}

void FrameBox::setNumbers(std::vector<double> numbers)
{
    m_numbers = std::move(numbers);
    setValue(value()); // the text follows
    lineEdit()->setText(textFromValue(value()));
}

int FrameBox::indexOfNumber(double number) const
{
    if (m_numbers.empty()) {
        return int(std::lround(number));
    }
    const auto it = std::lower_bound(m_numbers.begin(), m_numbers.end(), number);
    if (it == m_numbers.end()) {
        return int(m_numbers.size()) - 1;
    }
    const int i = int(it - m_numbers.begin());
    if (i > 0 && number - m_numbers[std::size_t(i) - 1] < *it - number) {
        return i - 1;
    }
    return i;
}

QString FrameBox::textFromValue(int value) const
{
    if (value < 0 || std::size_t(value) >= m_numbers.size()) {
        return QString::number(value);
    }
    return frameNumberText(m_numbers[std::size_t(value)]);
}

int FrameBox::valueFromText(const QString& text) const
{
    bool ok = false;
    double n = text.trimmed().toDouble(&ok);
    if (!ok) {
        n = locale().toDouble(text.trimmed(), &ok);
    }
    return ok ? std::clamp(indexOfNumber(n), minimum(), maximum()) : value();
}

QValidator::State FrameBox::validate(QString& input, int& pos) const
{
    Q_UNUSED(pos);
    const QString t = input.trimmed();
    if (t.isEmpty() || t == u"-" || t == u"." || t == u"-.") {
        return QValidator::Intermediate;
    }
    bool ok = false;
    t.toDouble(&ok);
    if (!ok) {
        locale().toDouble(t, &ok);
    }
    return ok ? QValidator::Acceptable : QValidator::Invalid;
}

// ---- TimelinePanel --------------------------------------------------------------------------

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent), m_anims(new QComboBox(this)), m_play(new QToolButton(this)),
      m_slider(new MarkerSlider(Qt::Horizontal, this)), m_frame(new FrameBox(this)),
      m_readout(new ElidedLabel(this)), m_loopBox(new QComboBox(this)),
      m_interpolate(new QToolButton(this)), m_speedBox(new QDoubleSpinBox(this)),
      m_fpsBox(new QDoubleSpinBox(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    // A long animation name widens the popup, not the dock (the scrubber keeps its room).
    m_anims->setMinimumWidth(120);
    m_anims->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_anims->setMinimumContentsLength(16);
    layout->addWidget(m_anims);
    auto button = [&](QStyle::StandardPixmap icon, const QString& tip, int delta) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, [this, delta] {
            if (delta == INT_MIN) {
                setBarIndex(0);
            } else if (delta == INT_MAX) {
                setBarIndex(barCount() - 1);
            } else {
                step(delta);
            }
        });
        layout->addWidget(b);
        return b;
    };
    button(QStyle::SP_MediaSkipBackward, tr("First frame (Home)"), INT_MIN);
    button(QStyle::SP_MediaSeekBackward, tr("Back 5 frames (<)"), -5);
    button(QStyle::SP_ArrowLeft, tr("Previous frame (,)"), -1);
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(tr("Play / pause (Space)"));
    m_play->setAutoRaise(true);
    layout->addWidget(m_play);
    button(QStyle::SP_ArrowRight, tr("Next frame (.)"), 1);
    button(QStyle::SP_MediaSeekForward, tr("Forward 5 frames (>)"), 5);
    button(QStyle::SP_MediaSkipForward, tr("Last frame (End)"), INT_MAX);
    m_loopBox->addItems({tr("Loop"), tr("Once"), tr("Ping-pong")});
    m_loopBox->setToolTip(tr("At the last frame: loop, stop, or play back (L)"));
    layout->addWidget(m_loopBox);
    m_interpolate->setText(tr("Interpolate"));
    m_interpolate->setCheckable(true);
    m_interpolate->setAutoRaise(true);
    m_interpolate->setToolTip(tr("Slerp between frames for slow motion; off shows whole frames, "
                                 "as compiled (I)"));
    layout->addWidget(m_interpolate);
    m_slider->setMinimumWidth(kScrubberMinWidth);
    layout->addWidget(m_slider, 3);
    layout->addWidget(m_frame);
    m_speedBox->setRange(0.1, 4.0);
    m_speedBox->setSingleStep(0.1);
    m_speedBox->setDecimals(2);
    m_speedBox->setSuffix(QStringLiteral("×"));
    m_speedBox->setValue(1.0);
    m_speedBox->setToolTip(tr("Playback speed (- halves, = doubles, Ctrl+0 resets)"));
    layout->addWidget(m_speedBox);
    m_fpsBox->setRange(1.0, 240.0);
    m_fpsBox->setDecimals(2);
    m_fpsBox->setSuffix(tr(" fps"));
    m_fpsBox->setToolTip(tr("Frames per second: the file's (XANIM FRAMERATE), else 30; "
                            "a change is kept for this animation"));
    layout->addWidget(m_fpsBox);
    // The readout gives way to the scrubber: it elides, its whole text in the tooltip.
    m_readout->setMinimumWidth(90);
    m_readout->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    layout->addWidget(m_readout, 1);

    m_timer.setInterval(15);
    connect(&m_timer, &QTimer::timeout, this, &TimelinePanel::onTick);
    connect(m_play, &QToolButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_syncing) {
            setBarIndex(v);
        }
    });
    connect(m_frame, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing) {
            setBarIndex(v);
        }
    });
    connect(m_anims, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_syncing || !m_document) {
            return;
        }
        const int animations = int(m_document->animations().size());
        const bool flex = !m_document->flexNames().isEmpty() && i == animations + 1;
        if (flex != m_flexMode) {
            m_flexMode = flex;
            m_document->resetFlexWeights();
        }
        if (flex) {
            m_document->setCurrentAnimation(-1);
            onAnimationChanged(-1);
            setShape(0);
        } else {
            m_document->setCurrentAnimation(i - 1);
        }
    });
    connect(m_interpolate, &QToolButton::toggled, this, &TimelinePanel::setInterpolate);
    connect(m_loopBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setLoopMode(LoopMode(i)); });
    connect(m_speedBox, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_syncing) {
            setSpeed(v);
        }
    });
    connect(m_fpsBox, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_syncing) {
            setFps(v);
        }
    });
    setEnabled(false);
}

void TimelinePanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
        disconnect(m_document, nullptr, m_interpolate, nullptr);
    }
    m_document = document;
    connect(document, &Document::loaded, this, &TimelinePanel::onLoaded);
    connect(document, &Document::animationChanged, this, &TimelinePanel::onAnimationChanged);
    connect(document, &Document::frameChanged, this, &TimelinePanel::onFrameChanged);
    connect(document, &Document::interpolateChanged, m_interpolate, &QToolButton::setChecked);
    m_interpolate->setChecked(document->interpolate());
}

bool TimelinePanel::interpolate() const
{
    return m_document && m_document->interpolate();
}

void TimelinePanel::setInterpolate(bool on)
{
    if (m_document) {
        m_document->setInterpolate(on);
    }
}

void TimelinePanel::onLoaded()
{
    m_syncing = true;
    m_anims->clear();
    m_anims->addItem(tr("Rest pose"));
    const core::QcReport* qc = m_document->qcProject();
    for (const auto& a : m_document->animations()) {
        // QC delta sequences say so: they are shown added to the rest pose.
        m_anims->addItem(qc ? a.name + qcSequenceNote(*qc, a.index) : a.name);
    }
    if (!m_document->flexNames().isEmpty()) {
        m_anims->addItem(tr("Flex shapes (%1)").arg(m_document->flexNames().size()));
    }
    m_syncing = false;
    m_flexMode = false;
    setEnabled(true);
    onAnimationChanged(m_document->currentAnimation());
}

void TimelinePanel::onAnimationChanged(int index)
{
    m_syncing = true;
    if (!m_flexMode || index >= 0) {
        m_flexMode = false;
        m_anims->setCurrentIndex(index + 1);
    }
    const int last = barCount() - 1;
    m_slider->setRange(0, last);
    m_frame->setRange(0, last);
    std::vector<double> numbers;
    if (m_flexMode) {
        for (int k = 0; k <= last; ++k) {
            numbers.push_back(k + 1); // "shape 1 of 3", as the readout counts them
        }
    } else if (index >= 0) {
        numbers = m_document->animations()[std::size_t(index)].animation(m_document->files()).times;
    }
    m_frame->setNumbers(std::move(numbers));
    m_slider->setTickPosition(last < 200 ? QSlider::TicksBelow : QSlider::NoTicks);
    m_fpsBox->setValue(fps());
    m_fpsBox->setEnabled(index >= 0);
    // Notetrack markers: note frames are the file's own numbers; the bar counts indices.
    std::vector<MarkerSlider::Marker> markers;
    if (index >= 0 && !m_flexMode) {
        const DocAnimation& d = m_document->animations()[std::size_t(index)];
        const core::Animation& anim = d.animation(m_document->files());
        // A compiled sequence's notes are its events, one each in order (issue 29): the
        // marker names the event by number, name, options and cycle.
        const auto& compiled = m_document->files()[std::size_t(d.file)].compiled;
        const core::CompiledSequence* seq =
            compiled ? compiledSequence(*compiled, d.index) : nullptr;
        const bool events = seq && seq->events.size() == anim.notes.size();
        for (std::size_t k = 0; k < anim.notes.size(); ++k) {
            const core::Notetrack& n = anim.notes[k];
            const auto it = std::lower_bound(anim.times.begin(), anim.times.end(), n.frame);
            const int i = int(std::min<std::ptrdiff_t>(it - anim.times.begin(), last));
            markers.push_back({std::max(i, 0),
                               events
                                   ? compiledEventText(seq->events[k], compiled->engine == "source")
                                   : QString::fromStdString(n.text),
                               frameNumberText(n.frame)});
        }
    }
    m_slider->setMarkers(std::move(markers));
    m_direction = 1;
    m_syncing = false;
    if (index < 0 && !m_flexMode) {
        setPlaying(false);
    }
    if (m_flexMode) {
        showFrame(m_shape);
    } else {
        onFrameChanged(m_document->currentFrame());
    }
}

void TimelinePanel::onFrameChanged(int frame)
{
    if (!m_flexMode) {
        showFrame(frame);
    }
}

void TimelinePanel::showFrame(int frame)
{
    m_syncing = true;
    m_slider->setValue(frame);
    m_frame->setValue(frame);
    m_syncing = false;
    QString text;
    if (m_flexMode) {
        const QStringList& names = m_document->flexNames();
        text = tr("shape %1 of %2 · %3")
                   .arg(frame + 1)
                   .arg(names.size())
                   .arg(frame < names.size() ? names[frame] : QString());
    } else if (const int a = m_document->currentAnimation(); a < 0) {
        text = tr("rest pose");
    } else {
        const auto& d = m_document->animations()[std::size_t(a)];
        const core::Animation& anim = d.animation(m_document->files());
        // The file's own frame numbers (UX.md), never the index: "frame 42 (20–91) · 0.73 s".
        text = tr("frame %1 (%2) · %3 s · %4")
                   .arg(frameNumberText(anim, frame), frameRangeText(anim))
                   .arg(frame / fps(), 0, 'f', 2)
                   .arg(QFileInfo(m_document->files()[std::size_t(d.file)].path).fileName());
    }
    m_readout->setText(text);
    m_readout->setToolTip(text);
    m_readout->updateGeometry();
}

void TimelinePanel::setShape(int shape)
{
    const int n = int(m_document->flexNames().size());
    if (n == 0) {
        return;
    }
    m_shape = std::clamp(shape, 0, n - 1);
    m_document->resetFlexWeights();
    m_document->setFlexWeight(m_shape, 1.0f);
    showFrame(m_shape);
}

int TimelinePanel::barCount() const
{
    if (!m_document) {
        return 1;
    }
    return m_flexMode ? std::max(1, int(m_document->flexNames().size())) : m_document->frameCount();
}

int TimelinePanel::barIndex() const
{
    return m_flexMode ? m_shape : (m_document ? m_document->currentFrame() : 0);
}

void TimelinePanel::setBarIndex(int index)
{
    if (!m_document) {
        return;
    }
    if (m_flexMode) {
        setShape(index);
    } else {
        m_document->setCurrentFrame(index);
    }
}

void TimelinePanel::setPlaying(bool on, bool backwards)
{
    if (on && m_document && !m_flexMode && m_document->currentAnimation() < 0 &&
        !m_document->animations().empty()) {
        m_document->setCurrentAnimation(0); // Space on the rest pose plays the first animation
    }
    if (on && (!m_document || (!m_flexMode && m_document->currentAnimation() < 0))) {
        on = false;
    }
    if (on == isPlaying()) {
        return;
    }
    m_play->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (on) {
        // Ping-pong keeps the way it was going unless told to go back.
        if (m_loop != LoopMode::PingPong || backwards) {
            m_direction = backwards ? -1 : 1;
        }
        if (m_loop == LoopMode::Once && !backwards && barIndex() >= barCount() - 1) {
            setBarIndex(0); // play again from the start
        } else if (m_loop == LoopMode::Once && backwards && barIndex() <= 0) {
            setBarIndex(barCount() - 1); // and backwards from the end
        }
        m_accum = 0;
        m_playFrame = -1;
        m_clock.start();
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

void TimelinePanel::step(int frames)
{
    if (!m_document) {
        return;
    }
    const int n = barCount();
    if (m_loop == LoopMode::Once) {
        setBarIndex(std::clamp(barIndex() + frames, 0, n - 1));
    } else {
        setBarIndex(((barIndex() + frames) % n + n) % n);
    }
}

void TimelinePanel::advance(int frames)
{
    if (!m_document || frames <= 0) {
        return;
    }
    setBarIndex(advancedIndex(barIndex(), frames));
}

int TimelinePanel::advancedIndex(int from, int frames)
{
    const int n = barCount();
    int i = from;
    switch (m_loop) {
    case LoopMode::Loop:
        i = ((i + m_direction * (frames % n)) % n + n) % n;
        break;
    case LoopMode::Once: {
        const int end = m_direction > 0 ? n - 1 : 0;
        i = m_direction > 0 ? std::min(i + frames, end) : std::max(i - frames, end);
        if (i == end) {
            setPlaying(false);
        }
        break;
    }
    case LoopMode::PingPong:
        for (int k = 0; k < frames && n > 1; ++k) {
            if (i + m_direction < 0 || i + m_direction > n - 1) {
                m_direction = -m_direction;
            }
            i += m_direction;
        }
        break;
    }
    return i;
}

void TimelinePanel::setLoopMode(LoopMode mode)
{
    m_loop = mode;
    m_direction = 1;
    if (m_loopBox->currentIndex() != int(mode)) {
        m_loopBox->setCurrentIndex(int(mode));
    }
}

void TimelinePanel::cycleLoopMode()
{
    setLoopMode(LoopMode((int(m_loop) + 1) % 3));
}

void TimelinePanel::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.1, 4.0);
    m_syncing = true;
    m_speedBox->setValue(m_speed);
    m_syncing = false;
}

double TimelinePanel::fps() const
{
    if (!m_document || m_flexMode || m_document->currentAnimation() < 0) {
        return m_flexMode ? 2.0 : 30.0; // shapes step slowly enough to see each one
    }
    const auto& d = m_document->animations()[std::size_t(m_document->currentAnimation())];
    if (const auto it = m_fpsOverride.constFind(d.name); it != m_fpsOverride.constEnd()) {
        return *it;
    }
    const core::Animation& anim = d.animation(m_document->files());
    return anim.fps > 0 ? double(anim.fps) : 30.0;
}

void TimelinePanel::setFps(double fps)
{
    if (!m_document || m_flexMode || m_document->currentAnimation() < 0 || !(fps > 0)) {
        return;
    }
    const auto& d = m_document->animations()[std::size_t(m_document->currentAnimation())];
    m_fpsOverride.insert(d.name, fps);
    m_syncing = true;
    m_fpsBox->setValue(fps);
    m_syncing = false;
    showFrame(m_document->currentFrame());
}

void TimelinePanel::onTick()
{
    if (!m_flexMode && m_document->currentAnimation() < 0) {
        setPlaying(false);
        return;
    }
    m_accum += double(m_clock.restart()) / 1000.0 * fps() * m_speed;
    const int whole = int(m_accum);
    m_accum -= whole;
    if (m_flexMode || !m_document->interpolate()) {
        advance(whole);
        return;
    }
    // Between frames: the part of a frame played so far, toward the next frame in the play
    // direction (held at the last frame until Loop wraps). One pose per tick. The frame left
    // last is kept here: played backwards, the playhead's whole part is the frame ahead.
    if (m_playFrame < 0 || m_document->playhead() != m_lastPlayhead) {
        m_playFrame = m_document->currentFrame(); // scrubbed, stepped or just started
    }
    const int i = whole > 0 ? advancedIndex(m_playFrame, whole) : m_playFrame;
    const int n = barCount();
    const bool turning =
        m_loop == LoopMode::PingPong && (i + m_direction < 0 || i + m_direction > n - 1);
    const int toward = turning ? -m_direction : m_direction;
    m_playFrame = i;
    m_document->setPlayhead(double(i) + toward * (isPlaying() ? m_accum : 0.0));
    m_lastPlayhead = m_document->playhead();
}

} // namespace rigscope::app
