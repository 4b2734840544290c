#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QTimer>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

#include <vector>

#include <QtWidgets/QSlider>
#include <QtWidgets/QSpinBox>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QToolButton;

namespace rigscope::app {

// The scrub bar: a QSlider that also draws notetrack markers (name on hover).
class MarkerSlider : public QSlider {
    Q_OBJECT
public:
    using QSlider::QSlider;
    struct Marker {
        int index; // frame index on the bar
        QString text;
        QString frame; // the file's own frame number, for the tooltip
    };
    void setMarkers(std::vector<Marker> markers);
    const std::vector<Marker>& markers() const { return m_markers; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int xOf(int index) const;
    std::vector<Marker> m_markers;
};

// The frame box: its value is a frame index (as the scrubber's), its text the file's own frame
// number (UX.md: "frame 42" everywhere). A typed number goes to the frame the file numbers so,
// or the nearest one (between two frames, before the first, after the last).
class FrameBox : public QSpinBox {
    Q_OBJECT
public:
    explicit FrameBox(QWidget* parent = nullptr);
    // The number of each index, ascending; empty: indices as they are.
    void setNumbers(std::vector<double> numbers);
    int indexOfNumber(double number) const;

protected:
    QString textFromValue(int value) const override;
    int valueFromText(const QString& text) const override;
    QValidator::State validate(QString& input, int& pos) const override;

private:
    std::vector<double> m_numbers;
};

enum class LoopMode { Loop, Once, PingPong };

// Timeline dock: animation chooser, transport buttons, scrubber, frame box and readout
// "frame 12 (0–71) · 0.40 s · idle.smd". The scrubber counts 0-based indices; the frame box, the
// readout and the tooltips name frames by the file's own numbers. The scrubber keeps at least
// kScrubberMinWidth pixels; the readout elides (whole text in its tooltip).
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);
    void setDocument(Document* document);
    bool isPlaying() const { return m_timer.isActive(); }
    // Space plays forward, Ctrl+Shift+Space backward (in every loop mode).
    void setPlaying(bool on, bool backwards = false);
    bool isPlayingBackwards() const { return isPlaying() && m_direction < 0; }
    void step(int frames);
    // Playback: moves `frames` whole frames in the play direction, as the loop mode says
    // (Loop wraps, Once stops at the end it plays towards, PingPong turns around at either end).
    void advance(int frames);
    // UX "Interpolate" (I): playback slerps between frames instead of showing whole frames.
    bool interpolate() const;
    void setInterpolate(bool on);
    LoopMode loopMode() const { return m_loop; }
    void setLoopMode(LoopMode mode);
    void cycleLoopMode(); // L: loop -> once -> ping-pong
    double speed() const { return m_speed; }
    void setSpeed(double speed); // clamped to 0.1 .. 4
    double fps() const;          // the current animation's (file, else 30, or overridden)
    void setFps(double fps);     // override for the current animation, by name
    bool isFlexMode() const { return m_flexMode; }
    int shapeFrame() const { return m_shape; }
    const MarkerSlider* scrubBar() const { return m_slider; }

private:
    void onLoaded();
    void onAnimationChanged(int index);
    void onFrameChanged(int frame);
    void onTick();
    int advancedIndex(int from, int frames); // where advance() goes; stops Once at the end
    void showFrame(int frame);               // slider, spin box and readout
    void setShape(int shape);                // flex mode: shape N solo at 1.0
    int barCount() const;                    // frames (or shapes in flex mode) on the bar
    void setBarIndex(int index);
    int barIndex() const;

    Document* m_document = nullptr;
    QComboBox* m_anims;
    QToolButton* m_play;
    MarkerSlider* m_slider;
    FrameBox* m_frame;
    QLabel* m_readout;
    QComboBox* m_loopBox;
    QToolButton* m_interpolate;
    QDoubleSpinBox* m_speedBox;
    QDoubleSpinBox* m_fpsBox;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_accum = 0;
    int m_playFrame = -1;       // interpolated playback: the frame the playhead left last
    double m_lastPlayhead = -1; // what it set, to notice a scrub or step in between
    bool m_syncing = false;
    LoopMode m_loop = LoopMode::Loop;
    int m_direction = 1; // the play direction; ping-pong turns it around
    double m_speed = 1.0;
    QHash<QString, double> m_fpsOverride; // by animation name
    bool m_flexMode = false;              // the combo's last entry: step through VTA shapes
    int m_shape = 0;
};

} // namespace rigscope::app
