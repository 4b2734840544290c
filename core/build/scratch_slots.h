#pragma once

#include <cstdint>
#include <vector>

namespace rigscope::core {

// Hash-table slot arrays reused within a run (issue 27 item 10). The checks of one run build
// several tables as large as the model (the weld's, mesh.duplicate-triangle's, VertexOnce's),
// one after another; each freed and the next allocated afresh had the kernel fault in and clear
// new pages every time (tens of MB on a 100 MB SMD). While a ScratchSlotsScope is open on a
// thread, arrays given back there are kept (emptied, their capacity and pages kept) and handed
// to the next table of that thread; when the outermost scope closes they are freed. Without an
// open scope, giveScratchSlots frees at once (the viewer's weld keeps nothing).
class ScratchSlotsScope {
public:
    ScratchSlotsScope() noexcept;
    ~ScratchSlotsScope();
    ScratchSlotsScope(const ScratchSlotsScope&) = delete;
    ScratchSlotsScope& operator=(const ScratchSlotsScope&) = delete;
};

// A kept array (empty) whose capacity is the smallest of at least `slots`, else the largest kept
// one, else an empty one.
std::vector<std::uint64_t> takeScratchSlots(std::size_t slots);
void giveScratchSlots(std::vector<std::uint64_t>&& v) noexcept;
// Arrays kept on this thread (tests).
std::size_t scratchSlotsKept() noexcept;

} // namespace rigscope::core
