#pragma once

// The activities Half-Life 1's studiomdl knows by name (Cmd_Sequence's lookupActivity).

#include <string_view>

namespace rigscope::core {

// Whether HL1 studiomdl.c's lookupActivity gives `word` an activity: a name of the HL SDK's
// activity_map (dlls/activitymap.h, compared ignoring case), or `ACT_` and a nonzero number
// (atoi). Anything else, `ACT_INVALID` or `ACT_RESET` among them, returns 0, and Cmd_Sequence
// then takes the word for another animation file.
bool hl1KnowsActivity(std::string_view word) noexcept;

} // namespace rigscope::core
