#pragma once
// Replaces the global operator new / delete of the test executable that includes it (include it
// in exactly one .cpp of an executable) and records the largest single allocation, so tests can
// assert that hostile counts never reach the allocator.

#include <atomic>
#include <cstdlib>
#include <new>

// Largest single allocation since the last reset: hostile counts must not reach operator new.
inline std::atomic<std::size_t> g_largestAlloc{0}; // reset to 0 before the code under test

void* operator new(std::size_t size)
{
    std::size_t seen = g_largestAlloc.load(std::memory_order_relaxed);
    while (size > seen && !g_largestAlloc.compare_exchange_weak(seen, size)) {
    }
    if (void* p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    throw std::bad_alloc();
}
// The nothrow form too: std::stable_sort's temporary buffer uses it and frees through delete
// (ASan reports alloc-dealloc-mismatch when only one side is replaced).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    std::size_t seen = g_largestAlloc.load(std::memory_order_relaxed);
    while (size > seen && !g_largestAlloc.compare_exchange_weak(seen, size)) {
    }
    return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}
