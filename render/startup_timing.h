#pragma once

namespace rigscope::render {

// Issue 7 measurements: with RIGSCOPE_TIMING set, prints "rigscope-timing <epoch s.µs> <stage>"
// to stderr (a wrapper subtracts its own start time: process start to first frame, stage by
// stage). Otherwise nothing.
void timingMark(const char* stage);

} // namespace rigscope::render
