// Format detection (core/formats/registry.h): content beats the extension, the extension breaks
// ties between formats that share a grammar, and a file nothing recognises falls back to its
// extension (so its reader reports what is wrong) or to nothing.
#include <QtTest/QtTest>

#include "core/formats/registry.h"

using namespace rigscope::core;

class TstFormatDetection : public QObject {
    Q_OBJECT
private slots:
    void byContent_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("mismatch");
        QTest::newRow("smd") << QByteArray("version 1\nnodes\n") << "a.smd"
                             << "smd" << false;
        QTest::newRow("smd, comment first") << QByteArray("// exported\n\nversion 1\n") << "a.smd"
                                            << "smd" << false;
        QTest::newRow("smd, nodes first, CRLF") << QByteArray("NODES\r\n0 \"a\" -1\r\n") << "a.smd"
                                                << "smd" << false;
        QTest::newRow("vta by extension") << QByteArray("version 1\nnodes\n") << "face.vta"
                                          << "vta" << false;
        QTest::newRow("smd content named .txt") << QByteArray("version 1\n") << "notes.txt"
                                                << "smd" << false;
        QTest::newRow("smdx") << QByteArray("SMDX\x01", 5) << "a.smdx"
                              << "smdx" << false;
        QTest::newRow("smdx named .smd") << QByteArray("SMDX\x01", 5) << "a.smd"
                                         << "smdx" << true;
        QTest::newRow("xmodel") << QByteArray("// export\nMODEL\nVERSION 6\n") << "a.xmodel_export"
                                << "xmodel" << false;
        QTest::newRow("xanim") << QByteArray("ANIMATION\nVERSION 3\n") << "a.xanim_export"
                               << "xanim" << false;
        QTest::newRow("nt") << QByteArray("NUMFRAMES 3\n") << "a.nt_export"
                            << "nt" << false;
        QTest::newRow("xmodel_bin") << QByteArray("*LZ4*\x10\0\0\0", 9) << "a.xmodel_bin"
                                    << "xmodel_bin" << false;
        QTest::newRow("xanim_bin") << QByteArray("*LZ4*\x10\0\0\0", 9) << "a.xanim_bin"
                                   << "xanim_bin" << false;
        QTest::newRow("dmx") << QByteArray("<!-- dmx encoding keyvalues2 1 format model 1 -->\n")
                             << "a.dmx"
                             << "dmx" << false;
        QTest::newRow("xmodel content named .smd") << QByteArray("MODEL\nVERSION 6\n") << "a.smd"
                                                   << "xmodel" << true;
        QTest::newRow("garbage named .smd: the extension") << QByteArray("hello world\n") << "a.smd"
                                                           << "smd" << false;
    }

    void byContent()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QFETCH(bool, mismatch);
        bool mm = !mismatch;
        const FormatInfo* f = detectFormat(
            std::string_view(head.constData(), std::size_t(head.size())), name.toStdString(), &mm);
        QVERIFY(f);
        QCOMPARE(QString::fromUtf8(f->id.data(), qsizetype(f->id.size())), expected);
        QCOMPARE(mm, mismatch);
    }

    void nothingFits()
    {
        QVERIFY(!detectFormat("hello world\n", "notes.txt"));
        QVERIFY(!detectFormat("", "noext"));
        const ReadResult empty = readAny("  \n\n", {"blank.txt"});
        QVERIFY(!empty.hasModel);
        QCOMPARE(empty.diagnostics.size(), std::size_t(1));
        QCOMPARE(empty.diagnostics[0].id, std::string("syntax.empty-file"));
        const ReadResult text = readAny("hello world\n", {"notes.txt"});
        QCOMPARE(text.diagnostics.size(), std::size_t(1));
        QCOMPARE(text.diagnostics[0].message, std::string("unrecognised file format"));
        // Bytes that are no text: one error whatever the name, never the reader's complaints.
        const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20);
        for (const char* name : {"image.png", "image.smd", "image.xmodel_export"}) {
            const ReadResult r = readAny(png, {name});
            QVERIFY2(r.diagnostics.size() == 1, name);
            QCOMPARE(r.diagnostics[0].message, std::string("not a model file: binary data"));
            QCOMPARE(r.diagnostics[0].severity, Severity::Error);
        }
    }

    // Afterburner's models (HLSources/afterburner-game-clone: 563 of its 689 .mdl) carry
    // their own magic: given where a model source is read, one error naming the variant, not
    // "binary data" (opened on its own, the compiled-model reader reads it).
    void afterburnerModelIsNamed()
    {
        std::string head("AFTB\x0a\0\0\0Bench.mdl", 17);
        head.resize(244, '\0');
        const ReadResult r = readAny(head, {"Bench.mdl"});
        QVERIFY(!r.hasModel);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QCOMPARE(r.diagnostics[0].severity, Severity::Error);
        QCOMPARE(r.diagnostics[0].message,
                 std::string("a compiled Afterburner model (.mdl, magic 'AFTB'), not a model "
                             "source: open it on its own to view it; abstudiomdl compiles from "
                             "the QC and SMD files it was built from"));
    }

    // A clone without git-lfs holds pointers where the models should be ("version https://..."
    // looks like an SMD's first line): one error that says so, whatever the name, never the
    // SMD reader's complaints about missing nodes.
    void gitLfsPointer()
    {
        const std::string pointer =
            "version https://git-lfs.github.com/spec/v1\n"
            "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2"
            "ca24d17e2393\nsize 12345\n";
        for (const char* name : {"advisor.mdl", "body.smd", "face.vta", "x.xmodel_export"}) {
            const ReadResult r = readAny(pointer, {name});
            QVERIFY2(r.diagnostics.size() == 1, name);
            QVERIFY(!r.hasModel);
            QCOMPARE(r.diagnostics[0].id, std::string("io.lfs-pointer"));
            QCOMPARE(r.diagnostics[0].severity, Severity::Error);
            QCOMPARE(r.diagnostics[0].where.line, 1u);
            QCOMPARE(r.diagnostics[0].message,
                     std::string("a Git LFS pointer to a file of 12345 bytes, not the file: the "
                                 "repository keeps it in Git LFS; fetch it with `git lfs pull`"));
        }
        // Forced through a reader: the same.
        const FormatInfo* smd = formatById("smd");
        QVERIFY(smd);
        QCOMPARE(readWith(*smd, pointer, {"body.smd"}).diagnostics.at(0).id,
                 std::string("io.lfs-pointer"));
    }

    void byIdAndExtension()
    {
        QCOMPARE(formatById("xanim_bin")->name, std::string_view("Call of Duty XANIM_BIN"));
        QVERIFY(!formatById("XMODEL"));
        QCOMPARE(formatByExtension("A.SMD")->id, std::string_view("smd"));
        QCOMPARE(formatByExtension("dir.v2/model.phys")->id, std::string_view("smd"));
        QCOMPARE(formatByExtension("x.Xmodel_Export")->id, std::string_view("xmodel"));
        QVERIFY(!formatByExtension("model.mdl"));
        QVERIFY(!formatByExtension("noext"));
        for (const FormatInfo& f : formats()) {
            QVERIFY(!f.extensions.empty());
            QCOMPARE(formatById(f.id), &f);
        }
    }
};

QTEST_MAIN(TstFormatDetection)
#include "tst_format_detection.moc"
