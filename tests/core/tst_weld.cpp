#include <QtTest/QtTest>

#include "core/build/model_builder.h"
#include "core/build/scratch_slots.h"
#include "core/build/weld.h"

using namespace rigscope::core;

namespace {

// Two triangles forming a quad, sharing an edge; corners written SMD-style (one point each).
Mesh quad(bool splitUv)
{
    Mesh m;
    const Vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
    const JointIndex j[1] = {0};
    const float w[1] = {1.0f};
    m.materials.push_back({"a", {}, {}, {}, {}});
    m.materials.push_back({"b", {}, {}, {}, {}});
    for (int t = 0; t < 2; ++t) {
        for (int c = 0; c < 3; ++c) {
            const int k = tri[t][c];
            appendPoint(m, p[k], 0, LinkState::List, j, w, 1, {});
            m.cornerPoints.push_back(static_cast<std::uint32_t>(m.cornerPoints.size()));
            m.cornerNormals.push_back(Vec3::UnitZ());
            const float u = splitUv && t == 1 ? 0.5f : 0.0f;
            m.cornerUvs.push_back(Vec2(p[k].x() + u, p[k].y()));
            m.cornerWhere.push_back({});
        }
        m.triangleMaterials.push_back(static_cast<std::uint32_t>(1 - t)); // b, then a
        m.triangleWhere.push_back({});
    }
    return m;
}

// The same corners as a pool of 5 points (CoD, DMX) or as one point per corner (SMD): point 4
// lies on point 0 with its skin, so their corners weld; triangle 3's corner 0 faces the other
// way. 12 corners on 5 points: the weld hashes each pooled point once.
Mesh pooled(bool onePointPerCorner)
{
    Mesh m;
    const Vec3 p[5] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 0}};
    const int tri[4][3] = {{0, 1, 2}, {0, 2, 3}, {4, 2, 1}, {0, 1, 2}};
    const JointIndex j[1] = {0};
    const float w[1] = {1.0f};
    m.materials.push_back({"a", {}, {}, {}, {}});
    if (!onePointPerCorner) {
        for (const Vec3& q : p) {
            appendPoint(m, q, 0, LinkState::List, j, w, 1, {});
        }
    }
    for (int t = 0; t < 4; ++t) {
        for (int c = 0; c < 3; ++c) {
            const int k = tri[t][c];
            if (onePointPerCorner) {
                appendPoint(m, p[k], 0, LinkState::List, j, w, 1, {});
            }
            m.cornerPoints.push_back(static_cast<std::uint32_t>(
                onePointPerCorner ? m.cornerPoints.size() : std::size_t(k)));
            m.cornerNormals.push_back(t == 3 && c == 0 ? Vec3(-Vec3::UnitZ()) : Vec3::UnitZ());
            m.cornerUvs.push_back(Vec2(p[k].x(), p[k].y()));
            m.cornerWhere.push_back({});
        }
        m.triangleMaterials.push_back(0);
        m.triangleWhere.push_back({});
    }
    return m;
}

} // namespace

class TstWeld : public QObject {
    Q_OBJECT
private slots:
    void sharedCornersWeld()
    {
        const Mesh m = quad(false);
        const WeldedMesh w = weldMesh(m);
        QCOMPARE(w.vertexCount(), std::size_t(4));
        QCOMPARE(w.cornerVertex[0], w.cornerVertex[3]); // corner 0 of both triangles
        QCOMPARE(w.cornerVertex[2], w.cornerVertex[4]);
    }
    void differentUvSplits() { QCOMPARE(weldMesh(quad(true)).vertexCount(), std::size_t(6)); }
    void differentWeightsSplit()
    {
        Mesh m = quad(false);
        m.influenceWeights[3] = 0.5f; // corner 3 (point 3) now differs from corner 0
        QCOMPARE(weldMesh(m).vertexCount(), std::size_t(5));
    }
    void pooledPointsWeldAsOnePointPerCorner()
    {
        for (const bool perCorner : {false, true}) {
            const Mesh m = pooled(perCorner);
            QCOMPARE(m.pointPositions.size(), perCorner ? std::size_t(12) : std::size_t(5));
            const WeldedMesh w = weldMesh(m);
            QCOMPARE(w.vertexCount(), std::size_t(5));      // 4 grid points + point 0 facing down
            QCOMPARE(w.cornerVertex[6], w.cornerVertex[0]); // point 4 welds with point 0
            QCOMPARE(w.cornerVertex[10], w.cornerVertex[1]);
            QVERIFY(w.cornerVertex[9] != w.cornerVertex[0]); // same point, other normal
            QCOMPARE(w.cornerVertex[9], 4u);
        }
        Mesh m = pooled(false);
        m.influenceWeights[4] = 0.5f; // point 4's skin now differs from point 0's
        QCOMPARE(weldMesh(m).vertexCount(), std::size_t(6));
    }
    void trianglesGroupedByMaterialStably()
    {
        const WeldedMesh w = weldMesh(quad(false));
        QCOMPARE(w.materialRanges.size(), std::size_t(2));
        QCOMPARE(w.materialRanges[0].material, 0u);
        QCOMPARE(w.drawTriangle[0], 1u); // triangle 1 uses material a
        QCOMPARE(w.drawTriangle[1], 0u);
        QCOMPARE(w.indices.size(), std::size_t(6));
        QCOMPARE(w.indices[0], w.cornerVertex[3]);
    }
    void manyCornersWeld()
    {
        // On 3,000 corners of 1,000 triangles over 600 distinct corners, weldMesh builds 600.
        Mesh m;
        m.materials.push_back({"a", {}, {}, {}, {}});
        const JointIndex j[1] = {0};
        const float w[1] = {1.0f};
        for (std::uint32_t c = 0; c < 3000; ++c) {
            const std::uint32_t k = (c * 7919u) % 600u;
            appendPoint(m, Vec3(float(k % 30), float(k / 30), 0), 0, LinkState::List, j, w, 1, {});
            m.cornerPoints.push_back(c);
            m.cornerNormals.push_back(Vec3::UnitZ());
            m.cornerUvs.push_back(Vec2(0, 0));
            m.cornerWhere.push_back({});
            if (c % 3 == 2) {
                m.triangleMaterials.push_back(0);
                m.triangleWhere.push_back({});
            }
        }
        QCOMPARE(weldMesh(m).vertexCount(), std::size_t(600));
    }
    void scratchSlotsAreKeptOnlyInAScope()
    {
        {
            WeldTable t(1000);
        }
        QCOMPARE(scratchSlotsKept(), std::size_t(0)); // no scope: freed at once
        {
            const ScratchSlotsScope scope;
            {
                WeldTable t(1000);
            }
            QCOMPARE(scratchSlotsKept(), std::size_t(1));
            {
                const ScratchSlotsScope inner;
                WeldTable a(500); // takes the kept slots (large enough)
                QCOMPARE(scratchSlotsKept(), std::size_t(0));
                bool created = false;
                QCOMPARE(a.findOrAdd(
                             42, [](std::uint32_t) { return true; }, created),
                         0u);
                QVERIFY(created); // the reused slots start empty
                QCOMPARE(a.findOrAdd(
                             42, [](std::uint32_t) { return true; }, created),
                         0u);
                QVERIFY(!created);
            }
            QCOMPARE(scratchSlotsKept(), std::size_t(1)); // the inner scope does not free
            const std::vector<std::uint64_t> taken = takeScratchSlots(10);
            QVERIFY(taken.empty());
            QVERIFY(taken.capacity() >= WeldTable::slotsFor(1000));
        }
        QCOMPARE(scratchSlotsKept(), std::size_t(0)); // the outermost scope frees them
    }
};

QTEST_APPLESS_MAIN(TstWeld)
#include "tst_weld.moc"
