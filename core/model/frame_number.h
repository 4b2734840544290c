#pragma once

// Frame numbers as the file writes them (UX.md Timeline: "Frame numbers are the file's own"):
// SMD `time N`, XANIM `FRAME f` (CoD exports may start at 260), never re-based. A frame *index*
// is the 0-based position in Animation::times (what `pose --frame` and the timeline's slider
// count); a frame *number* is the value written in the file. CLI and GUI name frames with these.

#include <optional>
#include <string>

#include "core/model/animation.h"

namespace rigscope::core {

// The file's own number of frame `index` (Animation::times[index]). Out of range (or an
// animation without times): the index itself, so a caller never reads past the end.
double fileFrameNumber(const Animation& anim, int index) noexcept;

// The index of the frame the file numbers `number` (exact match; times are sorted ascending),
// or nullopt when no frame carries that number (a `time` gap, outside the range).
std::optional<int> frameIndexOfFileNumber(const Animation& anim, double number) noexcept;

// The frame number as text: "42", "12.5" (shortest round trip, '.' decimal point).
std::string fileFrameText(const Animation& anim, int index);

// "frame 42": how CLI output, tooltips, the readout and Problems name frame `index`.
std::string fileFrameLabel(const Animation& anim, int index);

// "260..331" (first..last file number), "" for an animation without frames.
std::string fileFrameRange(const Animation& anim);

} // namespace rigscope::core
