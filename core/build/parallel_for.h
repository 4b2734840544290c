#pragma once

// The one thread-pool helper of core/ and render/: runs fn(0) … fn(n - 1) on `threads` threads
// (0 = one per core), the calling thread included, indices handed out one at a time so uneven
// jobs balance. A thread that cannot start leaves its share to the others; fn must not throw.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace rigscope::core {

template <class Fn> void parallelFor(std::size_t n, unsigned threads, Fn&& fn)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t count = std::min<std::size_t>(n, threads != 0 ? threads : cores);
    std::atomic<std::size_t> next{0};
    auto run = [&] {
        for (std::size_t i = next++; i < n; i = next++) {
            fn(i);
        }
    };
    std::vector<std::jthread> pool;
    pool.reserve(count > 0 ? count - 1 : 0);
    for (std::size_t t = 1; t < count; ++t) {
        try {
            pool.emplace_back(run);
        } catch (const std::system_error&) {
            break; // no more threads: the ones running (and this one) take the rest
        }
    }
    run();
} // joins the pool

} // namespace rigscope::core
