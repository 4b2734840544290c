#pragma once

// Names and tokens as readers show them in messages and name what they read: one spelling for
// every format.

#include <string>
#include <string_view>

namespace rigscope::core {

// A token for messages: cut after 40 bytes ("...") so hostile input cannot blow up a message;
// control bytes print as '?'.
std::string shownToken(std::string_view tok);
// What is wrong with a bone / material / shape name, or "" when nothing: bytes >= 0x80 (invalid
// UTF-8 included) or control bytes such as NUL, which studiomdl's C strings cut at.
std::string_view nameIssue(std::string_view name) noexcept;
// A number for messages: integral values as integers, others shortest round-trip.
std::string numberText(double v);
// The file name without its folders and last extension ("a/b/run.smd" -> "run"; ".smd" stays).
std::string fileStem(std::string_view fileName);

} // namespace rigscope::core
