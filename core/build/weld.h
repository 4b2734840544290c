#pragma once

#include <cstdint>
#include <vector>

#include "core/build/scratch_slots.h"
#include "core/io/file_buffer.h"
#include "core/model/mesh.h"

namespace rigscope::core {

// The one table every weld runs on (the renderer's and info's bit-exact weld below, and the
// checks' studiomdl rules): open addressing with linear probing, at most half full, one 64-bit
// slot per group (32 bits of hash, group number). `same(group)` is asked only for slots whose
// hash bits match. Groups are numbered 0, 1, ... as they are created; equal hashes sit in probe
// order, which is creation order, so the first matching group found is the oldest.
class WeldTable {
public:
    explicit WeldTable(std::size_t maxGroups) : m_slots(takeScratchSlots(slotsFor(maxGroups)))
    {
        const std::size_t cap = slotsFor(maxGroups);
        if (m_slots.capacity() < cap) {
            std::vector<std::uint64_t>().swap(m_slots);
            m_slots.reserve(cap); // huge pages before the fill touches it: 1 fault per 2 MB
            adviseHugePages(m_slots.data(), cap * sizeof(std::uint64_t));
        }
        m_slots.assign(cap, kEmpty);
        m_mask = cap - 1;
    }
    // Its slots go back to this thread's scratch (kept while a ScratchSlotsScope is open).
    ~WeldTable() { giveScratchSlots(std::move(m_slots)); }
    WeldTable(const WeldTable&) = delete;
    WeldTable& operator=(const WeldTable&) = delete;
    static std::size_t slotsFor(std::size_t maxGroups) noexcept
    {
        std::size_t cap = 16;
        while (cap < 2 * maxGroups) {
            cap *= 2;
        }
        return cap;
    }
    void prefetch(std::uint64_t hash) const noexcept
    {
        __builtin_prefetch(&m_slots[static_cast<std::size_t>(hash) & m_mask]);
    }
    // The group of an item: the first existing one `same` accepts, else a new one. At most
    // `maxGroups` groups may be created.
    template <class Same> std::uint32_t findOrAdd(std::uint64_t hash, Same&& same, bool& created)
    {
        const auto tag = static_cast<std::uint32_t>(hash >> 32);
        for (std::size_t i = static_cast<std::size_t>(hash) & m_mask;; i = (i + 1) & m_mask) {
            const std::uint64_t s = m_slots[i];
            if (s == kEmpty) {
                const std::uint32_t g = m_groups++;
                m_slots[i] = (std::uint64_t(tag) << 32) | g;
                created = true;
                return g;
            }
            const auto g = static_cast<std::uint32_t>(s);
            if (static_cast<std::uint32_t>(s >> 32) == tag && same(g)) {
                created = false;
                return g;
            }
        }
    }
    // The same with the group named by the caller (`key`, e.g. the item's first index, unique
    // per group) rather than numbered: for a caller that keeps nothing per group. `same(key)` is
    // asked of the keys of earlier groups. Returns the group's key.
    template <class Same>
    std::uint32_t findOrAddKey(std::uint64_t hash, std::uint32_t key, Same&& same, bool& created)
    {
        const auto tag = static_cast<std::uint32_t>(hash >> 32);
        for (std::size_t i = static_cast<std::size_t>(hash) & m_mask;; i = (i + 1) & m_mask) {
            const std::uint64_t s = m_slots[i];
            if (s == kEmpty) {
                ++m_groups;
                m_slots[i] = (std::uint64_t(tag) << 32) | key;
                created = true;
                return key;
            }
            const auto g = static_cast<std::uint32_t>(s);
            if (static_cast<std::uint32_t>(s >> 32) == tag && same(g)) {
                created = false;
                return g;
            }
        }
    }
    std::uint32_t groups() const noexcept { return m_groups; }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
    std::vector<std::uint64_t> m_slots;
    std::size_t m_mask = 0;
    std::uint32_t m_groups = 0;
};

// Spreads every bit of a 64-bit hash over the bits WeldTable uses (the low bits index the table,
// the high 32 are compared).
inline std::uint64_t finishHash(std::uint64_t h) noexcept
{
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

// Welded vertex view of a mesh, for rendering and counting: corners that agree bit for bit on
// position, normal, UV set 0 and skinning (parent field, link state, raw links) share one
// vertex. Triangles are grouped by material (stable within a material) so a renderer can draw
// each material as one index range. Corner order in the model is untouched.
struct WeldedMesh {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    std::vector<Vec2> uvs;
    std::vector<std::uint32_t> vertexPoint;  // vertex -> mesh point
    std::vector<std::uint32_t> cornerVertex; // mesh corner -> vertex
    std::vector<std::uint32_t> indices;      // 3 per triangle, grouped by material
    std::vector<std::uint32_t> drawTriangle; // draw order -> mesh triangle
    struct Range {
        std::uint32_t material = 0;
        std::uint32_t firstIndex = 0;
        std::uint32_t indexCount = 0;
    };
    std::vector<Range> materialRanges;
    std::size_t vertexCount() const noexcept { return positions.size(); }
};

WeldedMesh weldMesh(const Mesh& mesh);

} // namespace rigscope::core
