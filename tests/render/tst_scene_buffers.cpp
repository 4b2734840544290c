// The mesh buffers ModelScene hands to Qt3D: filled in chunks on every core, zero-area
// triangles left out and the chunks closed up, in material then file order.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QLayer>

#include "render/geometry.h"
#include "render/model_scene.h"
#include "render/render_setup.h"
#include "tests/support/test_support.h"

using namespace rigscope;

class TstSceneBuffers : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void chunksSkipZeroAreaTriangles()
    {
        // 2 materials x 20000 triangles (more than one chunk each), every 997th of zero area.
        constexpr int kPerMaterial = 20000;
        QByteArray smd = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                         "0 0 0 0 0 0 0\nend\ntriangles\n";
        std::vector<std::array<float, 3>> expected[2]; // first corner of each drawn triangle
        for (int mat = 0; mat < 2; ++mat) {
            for (int t = 0; t < kPerMaterial; ++t) {
                const float x = float(t % 200), y = float(t / 200), z = float(mat);
                const bool flat = t % 997 == 5;
                smd += mat == 0 ? "a.bmp\n" : "b.bmp\n";
                const float d = flat ? 0.0f : 0.5f;
                for (auto [px, py] : {std::pair{x, y}, std::pair{x + d, y}, std::pair{x, y + d}}) {
                    smd += QByteArray::number(0) + ' ' + QByteArray::number(px) + ' ' +
                           QByteArray::number(py) + ' ' + QByteArray::number(z) + " 0 0 1 0 0\n";
                }
                if (!flat) {
                    expected[mat].push_back({x, y, z});
                }
            }
        }
        smd += "end\n";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.smd"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(smd);
        f.close();
        const core::ReadResult r = test::readPath(path);
        QVERIFY(r.hasModel);
        QCOMPARE(r.model.mesh.triangleCount(), std::size_t(2 * kPerMaterial));

        Qt3DCore::QEntity root;
        render::SceneLayers layers{new Qt3DRender::QLayer(&root), new Qt3DRender::QLayer(&root),
                                   new Qt3DRender::QLayer(&root)};
        auto* scene = render::SceneBuilder::build(std::make_shared<const core::Model>(r.model), {},
                                                  layers, &root);
        const auto geometries = scene->findChildren<render::TriangleGeometry*>();
        QCOMPARE(geometries.size(), 2);
        for (int mat = 0; mat < 2; ++mat) {
            render::TriangleGeometry* g = geometries[mat];
            QCOMPARE(g->vertexCount(), int(expected[mat].size() * 3));
            const QByteArray bytes = g->geometry()->attributes().front()->buffer()->data();
            QCOMPARE(bytes.size(), qsizetype(expected[mat].size() * 3 * 11 * sizeof(float)));
            const auto* v = reinterpret_cast<const float*>(bytes.constData());
            for (std::size_t t = 0; t < expected[mat].size(); ++t) {
                const float* first = v + t * 3 * 11;
                QCOMPARE(first[0], expected[mat][t][0]);
                QCOMPARE(first[1], expected[mat][t][1]);
                QCOMPARE(first[2], expected[mat][t][2]);
                QCOMPARE(first[3 * 11 - 11 + 0], expected[mat][t][0]); // third corner: x
                QCOMPARE(first[5], 1.0f);                              // normal z
            }
        }
    }

    // A DMX's DmeAttachments are drawn as named axes on their joint (docs/dmx.md §4), after the
    // markers the window sets (QC attachments and hitboxes).
    void dmxAttachmentsAreMarkers()
    {
        const core::ReadResult r = test::readPath(
            test::fixturesDir() + QStringLiteral("/dmx/valid/wrinkle_attach_face.dmx"));
        QVERIFY(r.hasModel);
        Qt3DCore::QEntity root;
        render::SceneLayers layers{new Qt3DRender::QLayer(&root), new Qt3DRender::QLayer(&root),
                                   new Qt3DRender::QLayer(&root)};
        auto* scene = render::SceneBuilder::build(std::make_shared<const core::Model>(r.model), {},
                                                  layers, &root);
        render::SceneMarker box;
        box.kind = render::SceneMarker::Kind::Box;
        box.joint = 0;
        scene->setMarkers({box});
        const std::vector<render::SceneMarker> shown = scene->shownMarkers();
        QCOMPARE(shown.size(), std::size_t(2));
        QCOMPARE(shown[0].kind, render::SceneMarker::Kind::Box);
        const render::SceneMarker& eyes = shown[1];
        QCOMPARE(eyes.kind, render::SceneMarker::Kind::Axes);
        QCOMPARE(eyes.name, QStringLiteral("eyes"));
        QCOMPARE(eyes.joint, r.model.skeleton.findByName("head"));
        QVERIFY((eyes.offset - core::Vec3(1, 2, 3)).cwiseAbs().maxCoeff() < 1e-6f);
        // Turned 90 degrees about z: its x axis is the joint's y.
        QVERIFY((eyes.rotation.col(0) - core::Vec3(0, 1, 0)).cwiseAbs().maxCoeff() < 1e-6f);
        QVERIFY((eyes.rotation.col(2) - core::Vec3(0, 0, 1)).cwiseAbs().maxCoeff() < 1e-6f);
    }
};

QTEST_MAIN(TstSceneBuffers)
#include "tst_scene_buffers.moc"
