// The "Fix" of each id (JSON `fix`, the Problems dock tooltip): the explanation's fix field
// (core/diag/check_explanations.cpp), so the text lives in one place.
#include "core/checks/registry.h"
#include "core/diag/check_explanations.h"

namespace rigscope::core {

std::string_view fixHint(std::string_view id) noexcept
{
    const CheckExplanation* x = findExplanation(id);
    return x ? x->fix : std::string_view();
}

} // namespace rigscope::core
