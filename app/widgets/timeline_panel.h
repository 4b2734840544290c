#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace rigscope::app {

// Timeline dock: animation chooser, transport buttons, scrubber, frame box and readout
// "frame 12 (0–71) · 0.40 s · idle.smd". Frames are 0-based indices; the readout shows the file's
// own time too.
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);
    void setDocument(Document* document);
    bool isPlaying() const { return m_timer.isActive(); }
    void setPlaying(bool on);
    void step(int frames);

private:
    void onLoaded();
    void onAnimationChanged(int index);
    void onFrameChanged(int frame);
    void onTick();

    Document* m_document = nullptr;
    QComboBox* m_anims;
    QToolButton* m_play;
    QSlider* m_slider;
    QSpinBox* m_frame;
    QLabel* m_readout;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_accum = 0;
    bool m_syncing = false;
};

} // namespace rigscope::app
