#pragma once

// Reading one large block in shares on threads (the SMD, XMODEL and XANIM fast paths): every
// share but the first is read on its own thread, the first on the calling thread straight into
// the model; then shares are kept in file order while `keep` accepts them (it checks that the
// text read so far ends where the share begins, and splices it), and the rest of the block is
// left to be read in order. A share whose thread cannot start, or whose reading throws (out of
// memory), is marked failed and so not kept.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace rigscope::core {

// How many shares `rest` bytes are read in: at most `threads` (0 = one per core), each of at
// least `minBytes`; below 2 the block is read in order.
inline std::size_t shareCount(unsigned threads, std::size_t minBytes, std::size_t rest) noexcept
{
    const unsigned t =
        std::clamp(threads != 0 ? threads : std::thread::hardware_concurrency(), 1u, 64u);
    return std::min<std::size_t>(t, rest / std::max<std::size_t>(minBytes, 1));
}

// `Share` has a `bool failed`. `read(share)` reads a share (on a worker), `readFirst()` the
// first one (here; false stops everything), `keep(share)` splices or refuses. Returns the
// number of shares kept counting the first (0 when fewer than 2), or -1 when readFirst failed.
template <class Share, class Read, class ReadFirst, class Keep>
int readInShares(std::vector<Share>& shares, Read&& read, ReadFirst&& readFirst, Keep&& keep)
{
    bool firstOk = false;
    {
        std::vector<std::jthread> workers;
        workers.reserve(shares.size());
        for (Share& sh : shares) {
            try {
                workers.emplace_back([&sh, &read] {
                    try {
                        read(sh);
                    } catch (...) {
                        sh.failed = true; // out of memory: read in order instead
                    }
                });
            } catch (...) {
                sh.failed = true; // no thread: read in order instead
            }
        }
        firstOk = readFirst();
    } // joins the workers
    if (!firstOk) {
        return -1;
    }
    int kept = 1;
    for (Share& sh : shares) {
        if (sh.failed || !keep(sh)) {
            break;
        }
        ++kept;
    }
    return kept >= 2 ? kept : 0;
}

} // namespace rigscope::core
