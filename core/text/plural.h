#pragma once

// Counts in messages: "1 warning", "2 warnings", "1,204 vertices" (issue 15: plural agreement
// everywhere; CHECKS.md messages use ',' thousands separators).

#include <cstddef>
#include <string>
#include <string_view>

namespace rigscope::core {

// "1,204" (',' every three digits).
std::string groupedCount(std::size_t n);
// "1 bone", "3 bones", "1,204 vertices": `pluralForm` when the plural is not singular + "s".
std::string plural(std::size_t n, std::string_view singular, std::string_view pluralForm = {});

} // namespace rigscope::core
