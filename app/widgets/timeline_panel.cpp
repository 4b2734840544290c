#include "app/widgets/timeline_panel.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSlider>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStyle>
#include <QtWidgets/QToolButton>

namespace rigscope::app {

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent), m_anims(new QComboBox(this)), m_play(new QToolButton(this)),
      m_slider(new QSlider(Qt::Horizontal, this)), m_frame(new QSpinBox(this)),
      m_readout(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_anims->setMinimumWidth(160);
    m_anims->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    layout->addWidget(m_anims);
    auto button = [&](QStyle::StandardPixmap icon, const QString& tip, int delta) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, [this, delta] {
            if (!m_document) {
                return;
            }
            if (delta == INT_MIN) {
                m_document->setCurrentFrame(0);
            } else if (delta == INT_MAX) {
                m_document->setCurrentFrame(m_document->frameCount() - 1);
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
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_frame);
    m_readout->setMinimumWidth(220);
    layout->addWidget(m_readout);

    m_timer.setInterval(15);
    connect(&m_timer, &QTimer::timeout, this, &TimelinePanel::onTick);
    connect(m_play, &QToolButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_syncing && m_document) {
            m_document->setCurrentFrame(v);
        }
    });
    connect(m_frame, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing && m_document) {
            m_document->setCurrentFrame(v);
        }
    });
    connect(m_anims, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_syncing && m_document) {
            m_document->setCurrentAnimation(i - 1);
        }
    });
    setEnabled(false);
}

void TimelinePanel::setDocument(Document* document)
{
    m_document = document;
    connect(document, &Document::loaded, this, &TimelinePanel::onLoaded);
    connect(document, &Document::animationChanged, this, &TimelinePanel::onAnimationChanged);
    connect(document, &Document::frameChanged, this, &TimelinePanel::onFrameChanged);
}

void TimelinePanel::onLoaded()
{
    m_syncing = true;
    m_anims->clear();
    m_anims->addItem(tr("Rest pose"));
    for (const auto& a : m_document->animations()) {
        m_anims->addItem(a.name);
    }
    m_syncing = false;
    setEnabled(true);
    onAnimationChanged(m_document->currentAnimation());
}

void TimelinePanel::onAnimationChanged(int index)
{
    m_syncing = true;
    m_anims->setCurrentIndex(index + 1);
    const int last = m_document->frameCount() - 1;
    m_slider->setRange(0, last);
    m_frame->setRange(0, last);
    m_slider->setTickPosition(last < 200 ? QSlider::TicksBelow : QSlider::NoTicks);
    m_syncing = false;
    if (index < 0) {
        setPlaying(false);
    }
    onFrameChanged(m_document->currentFrame());
}

void TimelinePanel::onFrameChanged(int frame)
{
    m_syncing = true;
    m_slider->setValue(frame);
    m_frame->setValue(frame);
    m_syncing = false;
    const int a = m_document->currentAnimation();
    if (a < 0) {
        m_readout->setText(tr("rest pose"));
        return;
    }
    const auto& d = m_document->animations()[std::size_t(a)];
    const core::Animation& anim = d.animation(m_document->files());
    const double fps = anim.fps > 0 ? double(anim.fps) : 30.0;
    const double time =
        std::size_t(frame) < anim.times.size() ? anim.times[std::size_t(frame)] : frame;
    m_readout->setText(
        tr("frame %1 (0–%2) · time %3 · %4 s · %5")
            .arg(frame)
            .arg(m_document->frameCount() - 1)
            .arg(time)
            .arg(frame / fps, 0, 'f', 2)
            .arg(QFileInfo(m_document->files()[std::size_t(d.file)].path).fileName()));
}

void TimelinePanel::setPlaying(bool on)
{
    if (on && m_document && m_document->currentAnimation() < 0 &&
        !m_document->animations().empty()) {
        m_document->setCurrentAnimation(0); // Space on the rest pose plays the first animation
    }
    if (on && (!m_document || m_document->currentAnimation() < 0)) {
        on = false;
    }
    if (on == isPlaying()) {
        return;
    }
    m_play->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (on) {
        m_accum = 0;
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
    const int n = m_document->frameCount();
    m_document->setCurrentFrame(((m_document->currentFrame() + frames) % n + n) % n);
}

void TimelinePanel::onTick()
{
    const int a = m_document->currentAnimation();
    if (a < 0) {
        setPlaying(false);
        return;
    }
    const core::Animation& anim =
        m_document->animations()[std::size_t(a)].animation(m_document->files());
    const double fps = anim.fps > 0 ? double(anim.fps) : 30.0;
    m_accum += double(m_clock.restart()) / 1000.0 * fps;
    const int whole = int(m_accum);
    if (whole > 0) {
        m_accum -= whole;
        step(whole);
    }
}

} // namespace rigscope::app
