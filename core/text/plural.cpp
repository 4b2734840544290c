#include "core/text/plural.h"

namespace rigscope::core {

std::string groupedCount(std::size_t n)
{
    // Built digit by digit: std::string::insert trips GCC 12's -Wrestrict false positive.
    const std::string digits = std::to_string(n);
    std::string s;
    s.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            s += ',';
        }
        s += digits[i];
    }
    return s;
}

std::string plural(std::size_t n, std::string_view singular, std::string_view pluralForm)
{
    std::string s = groupedCount(n);
    s += ' ';
    if (n == 1) {
        s += singular;
    } else if (!pluralForm.empty()) {
        s += pluralForm;
    } else {
        s += singular;
        s += 's';
    }
    return s;
}

} // namespace rigscope::core
