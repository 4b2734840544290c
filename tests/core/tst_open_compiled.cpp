// Issue 29 item 3: compiled models open through core::openInput like any model, so `info`,
// `check` and `pose` (and the window) read a .mdl with the companions beside it.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/mdl_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

void write(const QString& path, const std::string& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
}

} // namespace

class TstOpenCompiled : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    test::SourceMdlSpec m_spec = test::sampleSourceSpec();
    QString m_mdl;

    // LOD 0 triangles of the model `choice` of every bodypart (the first where it has fewer).
    int bodyTriangles(std::size_t choice) const
    {
        int n = 0;
        for (const auto& part : m_spec.bodyparts) {
            const auto& model = part.models[std::min(choice, part.models.size() - 1)];
            for (const auto& mesh : model.meshes) {
                n += int(mesh.strip.empty() ? mesh.triangles.size() : mesh.strip.size() - 2);
            }
        }
        return n;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const test::SourceMdlBytes b = test::writeSourceMdl(m_spec);
        m_mdl = m_dir.filePath(QStringLiteral("hero.mdl"));
        write(m_mdl, b.mdl);
        write(m_dir.filePath(QStringLiteral("hero.vvd")), b.vvd);
        write(m_dir.filePath(QStringLiteral("hero.dx90.vtx")), b.vtx);
        if (!b.ani.empty()) {
            write(m_dir.filePath(QStringLiteral("hero.ani")), b.ani);
        }
    }

    void infoJsonHasTheCompiledKeys()
    {
        const auto r = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), m_mdl});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).array().at(0).toObject();
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("mdl"));
        QCOMPARE(o.value(QStringLiteral("engine")).toString(), QStringLiteral("source"));
        QCOMPARE(o.value(QStringLiteral("version")).toInt(), m_spec.version);
        QCOMPARE(o.value(QStringLiteral("checksum")).toInt(), m_spec.checksum);
        QCOMPARE(o.value(QStringLiteral("bones")).toInt(), int(m_spec.bones.size()));
        const QJsonArray names = o.value(QStringLiteral("boneNames")).toArray();
        QCOMPARE(names.size(), qsizetype(m_spec.bones.size()));
        QCOMPARE(names.at(0).toString(), QString::fromStdString(m_spec.bones[0].name));
        const QJsonArray parts = o.value(QStringLiteral("bodyparts")).toArray();
        QCOMPARE(parts.size(), qsizetype(m_spec.bodyparts.size()));
        for (qsizetype p = 0; p < parts.size(); ++p) {
            const auto& spec = m_spec.bodyparts[std::size_t(p)];
            const QJsonArray models =
                parts.at(p).toObject().value(QStringLiteral("models")).toArray();
            QCOMPARE(models.size(), qsizetype(spec.models.size()));
            for (qsizetype m = 0; m < models.size(); ++m) {
                int vertices = 0, triangles = 0;
                for (const auto& mesh : spec.models[std::size_t(m)].meshes) {
                    vertices += int(mesh.vertices.size());
                    triangles +=
                        int(mesh.strip.empty() ? mesh.triangles.size() : mesh.strip.size() - 2);
                }
                const QJsonObject jm = models.at(m).toObject();
                QCOMPARE(jm.value(QStringLiteral("vertices")).toInt(), vertices);
                QCOMPARE(jm.value(QStringLiteral("triangles")).toInt(), triangles);
            }
        }
        // The game draws body 0: the first model of each bodypart ("hat" starts blank).
        QCOMPARE(o.value(QStringLiteral("defaultBodyTriangles")).toInt(), bodyTriangles(0));
        QVERIFY(o.value(QStringLiteral("triangles")).toInt() > bodyTriangles(0));
        const QJsonArray seqs = o.value(QStringLiteral("sequences")).toArray();
        QCOMPARE(seqs.size(), qsizetype(m_spec.sequences.size()));
        for (qsizetype s = 0; s < seqs.size(); ++s) {
            const QJsonObject js = seqs.at(s).toObject();
            QCOMPARE(js.value(QStringLiteral("name")).toString(),
                     QString::fromStdString(m_spec.sequences[std::size_t(s)].name));
            QCOMPARE(js.value(QStringLiteral("frames")).toInt(),
                     m_spec.sequences[std::size_t(s)].frames);
        }
        QCOMPARE(o.value(QStringLiteral("attachments")).toArray().size(),
                 qsizetype(m_spec.attachments.size()));
        QCOMPARE(o.value(QStringLiteral("hitboxes")).toInt(), int(m_spec.hitboxes.size()));
        QCOMPARE(o.value(QStringLiteral("materialNames")).toArray().size(),
                 qsizetype(m_spec.materials.size()));
    }

    // The one count of vertices (issue 30): a compiled model's are the .vvd vertices its
    // triangles use (Mesh::cornerVertices), in info, info --json and check's vertex budget, not
    // a weld of the decoded mesh by value (test::keptApartSourceSpec: 5 of the .vvd's 6, which
    // a weld by value made 4).
    void verticesAreTheVvdsTheTrianglesUse()
    {
        QTemporaryDir dir;
        const QString mdl = QString::fromStdString(test::writeSourceMdlFiles(
            dir.path().toStdString(), "apart", test::keptApartSourceSpec()));
        QVERIFY(!mdl.isEmpty());
        const auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), mdl});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(info.out).array().at(0).toObject();
        QCOMPARE(o.value(QStringLiteral("vertices")).toInt(), 5);
        QCOMPARE(o.value(QStringLiteral("corners")).toInt(), 6);
        const QJsonObject model = o.value(QStringLiteral("bodyparts"))
                                      .toArray()
                                      .at(0)
                                      .toObject()
                                      .value(QStringLiteral("models"))
                                      .toArray()
                                      .at(0)
                                      .toObject();
        QCOMPARE(model.value(QStringLiteral("vertices")).toInt(), 6); // the .vvd's
        const auto text = test::runCli({QStringLiteral("info"), mdl});
        QVERIFY2(text.out.contains("vertices    5 unique of 6 corners"), text.out.constData());
        const auto check = test::runCli(
            {QStringLiteral("check"), QStringLiteral("--format"), QStringLiteral("json"), mdl});
        int used = -1;
        for (const QJsonValue& m : QJsonDocument::fromJson(check.out)
                                       .object()
                                       .value(QStringLiteral("files"))
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(QStringLiteral("budget"))
                                       .toArray()) {
            if (m.toObject().value(QStringLiteral("name")) == QStringLiteral("vertices")) {
                used = m.toObject().value(QStringLiteral("used")).toInt();
            }
        }
        QCOMPARE(used, 5);
    }

    void textNamesTheEngine()
    {
        const auto r = test::runCli({QStringLiteral("info"), m_mdl});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("compiled    source v48"), r.out.constData());
        QVERIFY(r.out.contains("bodyparts"));
        const QByteArray body = QByteArray::number(bodyTriangles(0)) + " in the default body";
        QVERIFY2(r.out.contains(" in every bodygroup choice, " + body), r.out.constData());
    }

    void poseSkinsTheCompiledMesh()
    {
        const auto r = test::runCli({QStringLiteral("pose"), m_mdl, QStringLiteral("--vertices"),
                                     QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(!o.value(QStringLiteral("vertices")).toArray().isEmpty());
    }

    // A compiled model's materials are looked up under the $cdmaterials it stores, as the
    // engine does: body.vmt is there; head.vmt and the second skin's body_red.vmt are not.
    void materialsAreLookedUpUnderItsCdmaterials()
    {
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("materials/models/test")));
        write(root.filePath(QStringLiteral("materials/models/test/body.vmt")),
              "\"UnlitGeneric\"\n{\n}\n");
        const auto r = test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"),
                                     QStringLiteral("--material-root"), root.path(), m_mdl});
        const QJsonArray diags = QJsonDocument::fromJson(r.out)
                                     .object()
                                     .value(QStringLiteral("files"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QStringLiteral("diagnostics"))
                                     .toArray();
        QStringList missing;
        for (const QJsonValue& d : diags) {
            if (d.toObject().value(QStringLiteral("id")).toString() ==
                QStringLiteral("material.missing")) {
                missing << d.toObject().value(QStringLiteral("message")).toString();
            }
        }
        missing.sort();
        QCOMPARE(missing,
                 (QStringList{QStringLiteral("material 'body_red' has no VMT: searched 1 path "
                                             "($cdmaterials x roots)"),
                              QStringLiteral("material 'head' has no VMT: searched 1 path "
                                             "($cdmaterials x roots)")}));
    }

    // Without its .vvd the model has no vertices: a located error, not a crash or a silence.
    void missingCompanionIsAnError()
    {
        QTemporaryDir dir;
        const test::SourceMdlBytes b = test::writeSourceMdl(m_spec);
        const QString mdl = dir.filePath(QStringLiteral("lone.mdl"));
        write(mdl, b.mdl);
        const auto r = test::runCli({QStringLiteral("check"), mdl});
        QVERIFY2(r.out.contains("[compiled.missing-companion]") ||
                     r.err.contains("[compiled.missing-companion]"),
                 r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TstOpenCompiled)
#include "tst_open_compiled.moc"
