// Profiles (core/diag/profile.h, core/diag/limits.h): names round-trip, catalog columns, the
// profile `auto` picks for each kind of file, and the compiler limits per profile.
#include <QtTest/QtTest>

#include "core/diag/limits.h"
#include "core/diag/profile.h"

using namespace rigscope::core;

namespace {

// One triangle, each corner rigid on bone 0 (a 9-field GoldSrc line) unless `linked`.
Model triangle(std::string format, std::string material, bool linked)
{
    Model m;
    m.format = std::move(format);
    m.skeleton.names = {"root"};
    m.skeleton.parents = {kNoJoint};
    m.mesh.materials.push_back({});
    m.mesh.materials.back().name = std::move(material);
    m.mesh.influenceOffsets.push_back(0);
    for (int k = 0; k < 3; ++k) {
        m.mesh.pointPositions.push_back(Vec3(float(k), 0, 0));
        m.mesh.pointParents.push_back(0);
        m.mesh.pointLinkState.push_back(linked ? LinkState::List : LinkState::Absent);
        if (linked) {
            m.mesh.influenceJoints.push_back(0);
            m.mesh.influenceWeights.push_back(1.0f);
        }
        m.mesh.influenceOffsets.push_back(std::uint32_t(m.mesh.influenceJoints.size()));
        m.mesh.cornerPoints.push_back(std::uint32_t(k));
    }
    m.mesh.triangleMaterials.push_back(0);
    return m;
}

} // namespace

class TstProfile : public QObject {
    Q_OBJECT
private slots:
    void namesRoundTrip()
    {
        for (Profile p :
             {Profile::Auto, Profile::GoldSrc, Profile::Source, Profile::Source256, Profile::Cod}) {
            QCOMPARE(parseProfile(profileName(p)), std::optional<Profile>(p));
        }
        QCOMPARE(profileName(Profile::Source256), std::string_view("source256"));
        QVERIFY(!parseProfile("Source")); // ids are lower-case; the CLI lower-cases first
        QVERIFY(!parseProfile("quake"));
        QVERIFY(!parseProfile(""));
    }

    void catalogColumns()
    {
        QCOMPARE(profileColumn(Profile::GoldSrc), 0);
        QCOMPARE(profileColumn(Profile::Source), 1);
        QCOMPARE(profileColumn(Profile::Auto), 1); // auto grades as source until resolved
        QCOMPARE(profileColumn(Profile::Source256), 2);
        QCOMPARE(profileColumn(Profile::Cod), 3);
    }

    void autoResolution_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("material");
        QTest::addColumn<bool>("linked");
        QTest::addColumn<int>("expected");
        QTest::newRow("9-field corners, .bmp") << "smd"
                                               << "skin.bmp" << false << int(Profile::GoldSrc);
        QTest::newRow(".BMP any case") << "smd"
                                       << "SKIN.BMP" << false << int(Profile::GoldSrc);
        QTest::newRow("links") << "smd"
                               << "skin.bmp" << true << int(Profile::Source);
        QTest::newRow("a .tga material") << "smd"
                                         << "skin.tga" << false << int(Profile::Source);
        QTest::newRow("smdx") << "smdx"
                              << "skin" << true << int(Profile::Source);
        QTest::newRow("xmodel") << "xmodel"
                                << "skin" << true << int(Profile::Cod);
        QTest::newRow("xanim_bin") << "xanim_bin"
                                   << "skin" << true << int(Profile::Cod);
        QTest::newRow("nt") << "nt"
                            << "skin" << false << int(Profile::Cod);
        QTest::newRow("dmx") << "dmx"
                             << "skin" << true << int(Profile::Source);
    }

    void autoResolution()
    {
        QFETCH(QString, format);
        QFETCH(QString, material);
        QFETCH(bool, linked);
        QFETCH(int, expected);
        const Model m = triangle(format.toStdString(), material.toStdString(), linked);
        QCOMPARE(int(resolveProfile(m, Profile::Auto)), expected);
        // A concrete request is never second-guessed.
        QCOMPARE(resolveProfile(m, Profile::Source256), Profile::Source256);
        QCOMPARE(resolveProfile(m, Profile::GoldSrc), Profile::GoldSrc);
    }

    void noMeshIsSource()
    {
        Model anim;
        anim.format = "smd";
        anim.skeleton.names = {"root"};
        anim.skeleton.parents = {kNoJoint};
        QCOMPARE(resolveProfile(anim, Profile::Auto), Profile::Source);
        Model extraUvs = triangle("smd", "skin.bmp", false);
        extraUvs.mesh.uvSetCount = 2;
        QCOMPARE(resolveProfile(extraUvs, Profile::Auto), Profile::Source);
    }

    void limits()
    {
        QCOMPARE(limitsFor(Profile::GoldSrc).bones, std::size_t(127));
        QCOMPARE(limitsFor(Profile::GoldSrc).weightsPerVertex, std::size_t(1));
        QCOMPARE(limitsFor(Profile::GoldSrc).weightCull, 0.0f);
        QCOMPARE(limitsFor(Profile::Source).bones, std::size_t(127));
        QCOMPARE(limitsFor(Profile::Source).weightsPerVertex, std::size_t(3));
        QCOMPARE(limitsFor(Profile::Source).weightCull, 0.05f);
        QCOMPARE(limitsFor(Profile::Source).materialNameLength, std::size_t(63));
        QCOMPARE(limitsFor(Profile::Source256).bones, std::size_t(255));
        QCOMPARE(limitsFor(Profile::Source256).materialNameLength, std::size_t(259));
        QCOMPARE(limitsFor(Profile::Auto).bones, limitsFor(Profile::Source).bones);
        // CoD: XMODEL v5/v6 index vertices with 16 bits and materials with 8; v7 lifts both.
        Model v6;
        v6.version = 6;
        QCOMPARE(limitsFor(Profile::Cod, &v6).uniqueVertices, std::size_t(65535));
        QCOMPARE(limitsFor(Profile::Cod, &v6).materials, std::size_t(255));
        Model v7;
        v7.version = 7;
        QCOMPARE(limitsFor(Profile::Cod, &v7).uniqueVertices, std::size_t(0));
        QCOMPARE(limitsFor(Profile::Cod, &v7).materials, std::size_t(0));
        QCOMPARE(limitsFor(Profile::Cod).bones, std::size_t(0)); // no verified bone limit
    }
};

QTEST_MAIN(TstProfile)
#include "tst_profile.moc"
