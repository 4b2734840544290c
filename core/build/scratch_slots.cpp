#include "core/build/scratch_slots.h"

#include <utility>

namespace rigscope::core {

namespace {

struct Kept {
    int scopes = 0;
    std::vector<std::vector<std::uint64_t>> arrays; // a handful: tables alive at once
};

thread_local Kept t_kept;

} // namespace

ScratchSlotsScope::ScratchSlotsScope() noexcept
{
    ++t_kept.scopes;
}

ScratchSlotsScope::~ScratchSlotsScope()
{
    if (--t_kept.scopes == 0) {
        std::vector<std::vector<std::uint64_t>>().swap(t_kept.arrays);
    }
}

std::vector<std::uint64_t> takeScratchSlots(std::size_t slots)
{
    auto& arrays = t_kept.arrays;
    std::size_t pick = arrays.size();
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        const std::size_t cap = arrays[i].capacity();
        if (pick == arrays.size()) {
            pick = i;
            continue;
        }
        const std::size_t best = arrays[pick].capacity();
        const bool fits = cap >= slots, bestFits = best >= slots;
        if ((fits && (!bestFits || cap < best)) || (!fits && !bestFits && cap > best)) {
            pick = i;
        }
    }
    if (pick == arrays.size()) {
        return {};
    }
    std::vector<std::uint64_t> v = std::move(arrays[pick]);
    arrays.erase(arrays.begin() + static_cast<std::ptrdiff_t>(pick));
    v.clear();
    return v;
}

void giveScratchSlots(std::vector<std::uint64_t>&& v) noexcept
{
    std::vector<std::uint64_t> gone = std::move(v);
    if (t_kept.scopes == 0 || gone.capacity() == 0) {
        return; // freed here
    }
    try {
        gone.clear();
        t_kept.arrays.push_back(std::move(gone));
    } catch (...) {
        // no room to keep it: freed
    }
}

std::size_t scratchSlotsKept() noexcept
{
    return t_kept.arrays.size();
}

} // namespace rigscope::core
