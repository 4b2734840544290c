#pragma once

#include <QtCore/QString>

#include "core/model/animation.h"
#include "core/model/frame_number.h"

namespace rigscope::app {

// Frames are named by the file's own numbers everywhere in the window (UX.md: SMD `time`,
// XANIM `FRAME` may start at 260; never re-based): the readout, tooltips, the outline and the
// status bar. Indices stay internal (the slider, `--frame`).

// The file's number of frame `index` of `anim` ("42", "12.5"); the index itself when the
// animation has no such frame.
inline QString frameNumberText(const core::Animation& anim, int index)
{
    return QString::fromStdString(core::fileFrameText(anim, index)); // the CLI's words too
}

// A frame number as written (notetracks carry the file's number already).
inline QString frameNumberText(double frame)
{
    return QString::number(frame, 'g', 10);
}

// "0–71", "260–300": the first and last frame numbers of the file.
inline QString frameRangeText(const core::Animation& anim)
{
    if (anim.times.empty()) {
        return QStringLiteral("–");
    }
    return QStringLiteral("%1–%2").arg(frameNumberText(anim, 0),
                                       frameNumberText(anim, int(anim.times.size()) - 1));
}

} // namespace rigscope::app
