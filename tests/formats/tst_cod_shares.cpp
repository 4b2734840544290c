// rigscope-test: TIMEOUT 600
// XMODEL_EXPORT / XANIM_EXPORT read in shares on threads (ReadContext::threads and
// parallelMinBytes): on every input (canonical and irregular files, the fixtures, hostile counts
// and thousands of one-line mutations) the readers must return exactly what one thread returns:
// the model bit for bit, every location, and the same diagnostics in the same order; and regular
// generated files must really be read in shares.
#include <QtCore/QDir>
#include <QtTest/QtTest>

#include <cstring>

#include "core/formats/xanim/xanim.h"
#include "core/formats/xmodel/xmodel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

template <typename T> bool sameBytes(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Empty when a and b are the same in every respect, else what differs.
std::string difference(const core::ReadResult& a, const core::ReadResult& b)
{
    std::string d;
    auto check = [&d](bool same, const char* what) {
        if (!same) {
            d += d.empty() ? "" : ", ";
            d += what;
        }
    };
    check(a.hasModel == b.hasModel, "hasModel");
    const core::Model& x = a.model;
    const core::Model& y = b.model;
    check(x == y, "model");
    check(x.format == y.format && x.version == y.version && x.kind == y.kind,
          "format/version/kind");
    check(x.lineEnding == y.lineEnding, "lineEnding");
    check(x.headerComments == y.headerComments, "headerComments");
    check(x.skeleton.where == y.skeleton.where && x.skeleton.bindWhere == y.skeleton.bindWhere,
          "skeleton locations");
    check(sameBytes(x.skeleton.bindPositions, y.skeleton.bindPositions) &&
              sameBytes(x.skeleton.bindAxes, y.skeleton.bindAxes),
          "bind pose bits");
    check(x.mesh.pointWhere == y.mesh.pointWhere && x.mesh.cornerWhere == y.mesh.cornerWhere &&
              x.mesh.triangleWhere == y.mesh.triangleWhere,
          "mesh locations");
    bool materials = x.mesh.materials.size() == y.mesh.materials.size();
    for (std::size_t i = 0; materials && i < x.mesh.materials.size(); ++i) {
        materials = x.mesh.materials[i].where == y.mesh.materials[i].where;
    }
    check(materials, "material locations");
    bool anims = x.animations.size() == y.animations.size();
    for (std::size_t i = 0; anims && i < x.animations.size(); ++i) {
        const core::Animation& p = x.animations[i];
        const core::Animation& q = y.animations[i];
        anims = p.frameWhere == q.frameWhere && sameBytes(p.times, q.times) &&
                p.notes.size() == q.notes.size();
        for (std::size_t k = 0; anims && k < p.notes.size(); ++k) {
            anims = p.notes[k].where == q.notes[k].where &&
                    sameBytes(std::vector<double>{p.notes[k].frame},
                              std::vector<double>{q.notes[k].frame});
        }
    }
    check(anims, "animation locations / frame bits");
    bool diags = a.diagnostics.size() == b.diagnostics.size();
    for (std::size_t i = 0; diags && i < a.diagnostics.size(); ++i) {
        const core::Diagnostic& p = a.diagnostics[i];
        const core::Diagnostic& q = b.diagnostics[i];
        diags = p.severity == q.severity && p.id == q.id && p.message == q.message &&
                p.file == q.file && p.where == q.where && p.binary == q.binary &&
                p.element == q.element && p.fixedSeverity == q.fixedSeverity &&
                p.related.size() == q.related.size();
    }
    check(diags, "diagnostics");
    return d;
}

bool isAnim(const std::string& name)
{
    return name.find("xanim") != std::string::npos;
}

core::ReadResult readDefault(const std::string& bytes, const std::string& name)
{
    core::ReadContext ctx;
    ctx.fileName = name;
    return isAnim(name) ? core::readXanim(bytes, ctx) : core::readXmodel(bytes, ctx);
}

core::ReadResult readThreads(const std::string& bytes, const std::string& name, unsigned threads,
                             std::size_t minBytes = std::size_t(4) << 20)
{
    core::ReadContext ctx;
    ctx.fileName = name;
    ctx.threads = threads;
    ctx.parallelMinBytes = minBytes;
    return isAnim(name) ? core::readXanim(bytes, ctx) : core::readXmodel(bytes, ctx);
}

// Empty when reading in shares on 3 and 7 threads (shares of at least 1 and 64 bytes) gives
// exactly the one-thread read, else what differs.
std::string threadedDifference(const std::string& bytes, const std::string& name)
{
    const core::ReadResult one = readThreads(bytes, name, 1);
    if (one.stats.parallelShares != 0) {
        return "shares on one thread";
    }
    for (const unsigned threads : {3u, 7u}) {
        for (const std::size_t minBytes : {std::size_t(1), std::size_t(64)}) {
            const core::ReadResult r = readThreads(bytes, name, threads, minBytes);
            const std::string d = difference(r, one);
            if (!d.empty()) {
                return std::to_string(threads) + " threads, shares of " + std::to_string(minBytes) +
                       " bytes: " + d;
            }
        }
    }
    return {};
}

// A canonical XMODEL with the number spellings real exporters and our writer use, comma-space
// separators, CRLF, header comments, weights on several bones and both colour cases.
std::string canonicalXmodel(const char* nl)
{
    const char* lines[] = {
        "// Export filename: 'c:\\models\\crate.xmodel_export'",
        "// Export time: Mon Jan 01 00:00:00 2024",
        "",
        "MODEL",
        "VERSION 6",
        "",
        "NUMBONES 3",
        "BONE 0 -1 \"tag_origin\"",
        "BONE 1 0 \"j_lid\"",
        "BONE 2 1 \"j lid # 2\"",
        "",
        "BONE 0",
        "OFFSET 0.000000, 0.000000, 0.000000",
        "SCALE 1.000000, 1.000000, 1.000000",
        "X 1.000000, 0.000000, 0.000000",
        "Y 0.000000, 1.000000, 0.000000",
        "Z 0.000000, 0.000000, 1.000000",
        "",
        "BONE 1",
        "OFFSET 0 0.000000017229468 12.5",
        "X 0 1 0",
        "Y -1 0 0",
        "Z 0 0 1",
        "",
        "BONE 2",
        "OFFSET 1e-3 -0 1E+2",
        "X 1 0 0",
        "Y 0 1 0",
        "Z 0 0 1",
        "",
        "NUMVERTS 4",
        "VERT 0",
        "OFFSET -1 -1 0",
        "BONES 1",
        "BONE 0 1.000000",
        "",
        "VERT 1",
        "OFFSET 1 -1 0",
        "BONES 2",
        "BONE 1 0.25",
        "BONE 2 0.75",
        "",
        "VERT 2",
        "OFFSET 1\t1 0",
        "BONES 0",
        "",
        "VERT 3",
        "OFFSET -1 1 0.12345678901234567",
        "BONES 1",
        "BONE 2 1",
        "",
        "NUMFACES 2",
        "TRI 0 0 0 0",
        "VERT 0",
        "NORMAL 0 0 1",
        "COLOR 1 1 1 1",
        "UV 1 0 1",
        "VERT 2",
        "NORMAL 0 0 1",
        "COLOR 1.5 0.5 0.5 1",
        "UV 1 1 0 ",
        "VERT 1",
        "NORMAL 0 0 1",
        "COLOR 1 1 1 1",
        "UV 1 1 1",
        "",
        "TRI 0 1 0 0",
        "VERT 0",
        "NORMAL 0 0 1",
        "COLOR -1 -1 -1 -1",
        "UV 1 0 1",
        "VERT 3",
        "NORMAL 0 0 1",
        "COLOR 1 1 1 1",
        "UV 1 0 0",
        "VERT 2",
        "NORMAL 0 0 1",
        "COLOR 1 1 1 1",
        "UV 1 1 0",
        "",
        "NUMOBJECTS 1",
        "OBJECT 0 \"crate\"",
        "",
        "NUMMATERIALS 2",
        "MATERIAL 0 \"wood\" \"Lambert\" \"c:/textures/wood#2.tga\"",
        "COLOR 0 0 0 1",
        "TRANSPARENCY 0 0 0 1",
        "AMBIENTCOLOR 0 0 0 1",
        "INCANDESCENCE 0 0 0 1",
        "COEFFS 0.8 0",
        "GLOW 0 0",
        "REFRACTIVE 6 1",
        "SPECULARCOLOR -1 -1 -1 1",
        "REFLECTIVECOLOR -1 -1 -1 1",
        "REFLECTIVE -1 -1",
        "BLINN -1 -1",
        "PHONG -1",
        "",
        "MATERIAL 1 \"metal\" \"Phong\" \"\"",
        "COLOR 0 0 0 1",
        "PHONG 0.5",
    };
    std::string s;
    for (const char* l : lines) {
        s += l;
        s += nl;
    }
    return s;
}

// The same as version 7 with the long spellings.
std::string canonicalXmodelV7()
{
    std::string s = canonicalXmodel("\n");
    for (auto [from, to] :
         {std::pair{"VERSION 6", "VERSION 7"}, std::pair{"NUMVERTS 4", "NUMVERTS32 4"},
          std::pair{"TRI 0 1 0 0", "TRI16 0 1 0 0"},
          std::pair{"VERT 2\nNORMAL", "VERT32 2\nNORMAL"},
          std::pair{"VERT 3\nOFFSET", "VERT32 3\nOFFSET"}}) {
        s.replace(s.find(from), std::strlen(from), to);
    }
    return s;
}

std::string canonicalXanim(const char* nl, bool flat)
{
    std::string s = std::string("// Export filename: `c:\\anims\\walk.xanim_export`") + nl + nl +
                    "ANIMATION" + nl + "VERSION 3" + nl + nl + "NUMPARTS 2" + nl +
                    "PART 0 \"tag_origin\"" + nl + "PART 1 \"j spine\"" + nl + nl + "FRAMERATE 30" +
                    nl + "NUMFRAMES 3" + nl;
    for (int f = 0; f < 3; ++f) {
        s += "FRAME " + std::to_string(98 + f) + nl;
        for (int p = 0; p < 2; ++p) {
            s += "PART " + std::to_string(p) + nl;
            s += "OFFSET " + std::to_string(p) + ", 0.000000017229468, " + std::to_string(f) +
                 ".5" + nl;
            if (p == 1) {
                s += std::string("SCALE 1 1 1") + nl;
            }
            s += std::string("X 1 0 0") + nl + "Y 0 0.8 0.6" + nl + "Z 0 -0.6 0.8" + nl + nl;
        }
    }
    s += std::string("NOTETRACKS") + nl + nl;
    if (flat) {
        s += std::string("NUMKEYS 3") + nl + "FRAME 98 \"start\"" + nl +
             "FRAME 100 \"foot // step, 1\"" + nl + "FRAME 130 \"late\"" + nl;
    } else {
        s += std::string("PART 0") + nl + "NUMTRACKS 1" + nl + "NOTETRACK 0" + nl + "NUMKEYS 2" +
             nl + "FRAME 98 \"start\"" + nl + "FRAME -4 \"early\"" + nl + nl + "PART 1" + nl +
             "NUMTRACKS 0" + nl;
    }
    return s;
}

// A regular XMODEL of `verts` pool vertices (0 to 4 weights each) and `faces` faces, with what
// shares must carry over in every part of the file: commas without a space (syntax.cod-comma
// notes), corner colours outside 0..1 (kept as they are), in version 7 the long spellings here
// and there with two UV sets, in version 5 one-line corners without colour and one-string
// materials.
std::string generatedXmodel(int verts, int faces, const std::string& nl, int version = 6)
{
    std::string s = "// generated" + nl + "MODEL" + nl + "VERSION " + std::to_string(version) + nl +
                    nl + "NUMBONES 3" + nl +
                    (version == 7 ? "NUMCOSMETICBONES 0" + nl : std::string()) +
                    "BONE 0 -1 \"root\"" + nl + "BONE 1 0 \"a\"" + nl + "BONE 2 1 \"b\"" + nl + nl;
    for (int b = 0; b < 3; ++b) {
        s += "BONE " + std::to_string(b) + nl + "OFFSET 0 0 " + std::to_string(b) + nl + "X 1 0 0" +
             nl + "Y 0 1 0" + nl + "Z 0 0 1" + nl + nl;
    }
    auto num = [](int i, int k) {
        return std::to_string(((i * 37 + k * 11) % 2001 - 1000) / 97.0);
    };
    const bool v7 = version == 7;
    s += (v7 ? "NUMVERTS32 " : "NUMVERTS ") + std::to_string(verts) + nl;
    for (int v = 0; v < verts; ++v) {
        s += (v7 && v % 3 == 0 ? "VERT32 " : "VERT ") + std::to_string(v) + nl;
        if (v % 17 == 5) {
            s += "OFFSET " + num(v, 0) + "," + num(v, 1) + "," + num(v, 2) + nl;
        } else {
            s += "OFFSET " + num(v, 0) + ", " + num(v, 1) + ", " + num(v, 2) + nl;
        }
        const int k = v % 5;
        s += "BONES " + std::to_string(k) + nl;
        for (int w = 0; w < k; ++w) {
            s += "BONE " + std::to_string((v + w) % 3) + " " + std::to_string(1.0 / k) + nl;
        }
        s += nl;
    }
    s += "NUMFACES " + std::to_string(faces) + nl;
    for (int t = 0; t < faces; ++t) {
        s += (v7 && t % 4 == 1 ? "TRI16 0 " : "TRI 0 ") + std::to_string(t % 2) + " 0 0" + nl;
        for (int c = 0; c < 3; ++c) {
            const int i = (t * 7 + c * 3) % verts;
            if (version == 5) { // one-line corners, no colour
                s += "VERT " + std::to_string(i) + " " + num(t, c) + " 0 1 " + num(t, c + 1) + " " +
                     num(t, c + 2) + nl;
                continue;
            }
            s += (v7 && t % 5 == 2 ? "VERT32 " : "VERT ") + std::to_string(i) + nl;
            s += "NORMAL " + num(t, c) + " 0 1" + nl;
            s += std::string(t % 23 == 9 && c == 1 ? "COLOR 1.5 1 1 1" : "COLOR 1 1 1 1") + nl;
            s += (v7 ? "UV 2 " : "UV 1 ") + num(t, c + 1) + " " + num(t, c + 2) +
                 (v7 ? " " + num(t, c + 3) + " 0.5" : std::string()) + nl;
        }
        s += nl;
    }
    if (version == 5) {
        return s + "NUMOBJECTS 1" + nl + "OBJECT 0 \"body\"" + nl + nl + "NUMMATERIALS 2" + nl +
               "MATERIAL 0 \"skin.tga\"" + nl + "MATERIAL 1 \"cloth.tga\"" + nl;
    }
    s += "NUMOBJECTS 1" + nl + "OBJECT 0 \"body\"" + nl + nl + "NUMMATERIALS 2" + nl +
         "MATERIAL 0 \"skin\" \"Lambert\" \"skin.tga\"" + nl + "COLOR 0 0 0 1" + nl + "PHONG -1" +
         nl + "MATERIAL 1 \"cloth\" \"Phong\" \"\"" + nl + "COEFFS 0.8 0" + nl;
    return s;
}

// A regular XANIM of `frames` frames of `parts` parts from frame 100, with SCALE lines (some
// not 1 1 1) only from the middle on, commas without a space in every part of the file and a note
// out of range.
std::string generatedXanim(int frames, int parts, const std::string& nl)
{
    std::string s =
        "ANIMATION" + nl + "VERSION 3" + nl + nl + "NUMPARTS " + std::to_string(parts) + nl;
    for (int p = 0; p < parts; ++p) {
        s += "PART " + std::to_string(p) + " \"j_" + std::to_string(p) + "\"" + nl;
    }
    s += nl + "FRAMERATE 30" + nl + "NUMFRAMES " + std::to_string(frames) + nl;
    auto num = [](int i, int k) { return std::to_string(((i * 53 + k * 7) % 1001 - 500) / 51.0); };
    for (int f = 0; f < frames; ++f) {
        s += "FRAME " + std::to_string(100 + f) + nl;
        for (int p = 0; p < parts; ++p) {
            const int i = f * parts + p;
            s += "PART " + std::to_string(p) + nl;
            s += "OFFSET " + num(i, 0) + (i % 13 == 4 ? "," : " ") + num(i, 1) + " " + num(i, 2) +
                 nl;
            if (f >= frames / 2 && p == 1) {
                s += (f % 3 == 0 ? "SCALE 1 2 1" : "SCALE 1 1 1") + nl; // non-unit scales are kept
            }
            s += "X 1 0 0" + nl + "Y 0 " + num(i, 3) + " 0" + nl + "Z 0 0 1" + nl + nl;
        }
    }
    s += "NOTETRACKS" + nl + nl + "PART 0" + nl + "NUMTRACKS 1" + nl + "NOTETRACK 0" + nl +
         "NUMKEYS 2" + nl + "FRAME 100 \"start\"" + nl + "FRAME 9999 \"late\"" + nl;
    return s;
}

// Irregular files (issue 16): the same text with tabs, `//` comments after the last field of
// some lines, comment lines here and there and at the end.
std::string irregular(const std::string& text, const std::string& nl)
{
    std::string s;
    int n = 0;
    for (std::size_t a = 0; a < text.size();) {
        std::size_t e = text.find(nl, a);
        if (e == std::string::npos) {
            e = text.size();
        }
        std::string line = text.substr(a, e - a);
        a = e + nl.size();
        ++n;
        if (n % 3 == 0 && !line.empty()) {
            line = "\t" + line;
        }
        if (n % 5 == 0 && !line.empty()) {
            line += n % 2 ? "\t// note" : "//note, 1";
        }
        s += line + nl;
        if (n % 7 == 0) {
            s += (n % 2 ? "  // comment line" : "; comment line") + nl;
        }
    }
    return s + "// the end" + nl + nl;
}

std::vector<std::string> splitLines(const std::string& s)
{
    std::vector<std::string> out;
    std::size_t a = 0;
    while (a < s.size()) {
        std::size_t e = s.find('\n', a);
        if (e == std::string::npos) {
            e = s.size();
        }
        out.push_back(s.substr(a, e - a));
        a = e + 1;
    }
    return out;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string s;
    for (const std::string& l : lines) {
        s += l;
        s += '\n';
    }
    return s;
}

// One-line changes: each makes a share stop early or be refused, or changes what the file says
// (a share must read the change exactly as one thread).
std::vector<std::string> mutations(const std::string& line)
{
    std::vector<std::string> out;
    if (line.empty()) {
        out.push_back("x");
        out.push_back("  \t");
        out.push_back("; comment");
        out.push_back("\"");
        return out;
    }
    std::string lower = line;
    lower[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[0])));
    out.push_back(lower);
    out.push_back(line + " 7");
    out.push_back(line + " \"s\"");
    out.push_back(line + " // c");
    out.push_back(line + ",");
    out.push_back(line + ",x");
    out.push_back(line + "\"");
    out.push_back(line + "\r");
    out.push_back("  " + line);
    out.push_back("\t" + line + "\t");
    out.push_back(line + "\rVERT 0");
    const std::size_t sp = line.find(' ');
    if (sp != std::string::npos) {
        for (const char* s : {",", ", ", "\t", "  ", " , ", "\f", "//"}) {
            std::string m = line;
            m.replace(sp, 1, s);
            out.push_back(m);
        }
        out.push_back(line.substr(0, sp)); // keyword alone
    }
    const std::size_t last = line.rfind(' ');
    if (last != std::string::npos && last + 1 < line.size()) {
        for (const char* t : {"+1", "nan", "-inf", "1e30", "1e-30", "0000000001", "-0",    "1.5",
                              "-1", "0",   "3",    "255",  "99999", "2147483648", "1.2.3", "\"x\"",
                              "x",  "-",   ".",    "1e5",  "0.5e1", "1,"}) {
            out.push_back(line.substr(0, last + 1) + t);
        }
        if (sp != last) {
            out.push_back(line.substr(0, last)); // one token fewer
        }
    }
    // Every integer one up and one down.
    for (int delta : {1, -1}) {
        std::string m;
        for (std::size_t i = 0; i < line.size();) {
            if (std::isdigit(static_cast<unsigned char>(line[i])) &&
                (i == 0 || line[i - 1] == ' ' || line[i - 1] == '-')) {
                std::size_t e = i;
                while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) {
                    ++e;
                }
                if (e == line.size() || line[e] == ' ') {
                    const bool neg = i > 0 && line[i - 1] == '-';
                    const long v = std::stol(line.substr(i, e - i)) + (neg ? -delta : delta);
                    m += std::to_string(v < 0 && neg ? -v : v);
                    i = e;
                    continue;
                }
            }
            m += line[i++];
        }
        out.push_back(m);
    }
    return out;
}

} // namespace

class TstCodShares : public QObject {
    Q_OBJECT

private slots:
    void canonicalFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::newRow("xmodel LF")
            << QByteArray::fromStdString(canonicalXmodel("\n")) << u"c.xmodel_export"_qs;
        QTest::newRow("xmodel CRLF")
            << QByteArray::fromStdString(canonicalXmodel("\r\n")) << u"c.xmodel_export"_qs;
        QTest::newRow("xmodel CR")
            << QByteArray::fromStdString(canonicalXmodel("\r")) << u"c.xmodel_export"_qs;
        QTest::newRow("xmodel v7")
            << QByteArray::fromStdString(canonicalXmodelV7()) << u"c.xmodel_export"_qs;
        QTest::newRow("xanim per-part")
            << QByteArray::fromStdString(canonicalXanim("\r\n", false)) << u"c.xanim_export"_qs;
        QTest::newRow("xanim flat")
            << QByteArray::fromStdString(canonicalXanim("\n", true)) << u"c.xanim_export"_qs;
        QTest::newRow("xmodel irregular")
            << QByteArray::fromStdString(irregular(canonicalXmodel("\r\n"), "\r\n"))
            << u"c.xmodel_export"_qs;
        QTest::newRow("xanim irregular")
            << QByteArray::fromStdString(irregular(canonicalXanim("\n", false), "\n"))
            << u"c.xanim_export"_qs;
        QTest::newRow("xanim flat irregular")
            << QByteArray::fromStdString(irregular(canonicalXanim("\r\n", true), "\r\n"))
            << u"c.xanim_export"_qs;
        QTest::newRow("generated xmodel irregular")
            << QByteArray::fromStdString(irregular(generatedXmodel(300, 400, "\n"), "\n"))
            << u"g.xmodel_export"_qs;
        QTest::newRow("generated xanim irregular")
            << QByteArray::fromStdString(irregular(generatedXanim(40, 7, "\r\n"), "\r\n"))
            << u"g.xanim_export"_qs;
        {
            std::string a = canonicalXanim("\n", false);
            a.replace(a.find("FRAMERATE 30"), 12, "FRAMERATE 30.000000");
            QTest::newRow("xanim float framerate")
                << QByteArray::fromStdString(a) << u"c.xanim_export"_qs;
        }
        const QString fx = test::fixturesDir();
        for (const QString& rel :
             {u"xmodel/valid/cube_v6.xmodel_export"_qs, u"xmodel/valid/cube_v6_lf.xmodel_export"_qs,
              u"xmodel/valid/bone_matrix.xmodel_export"_qs,
              u"xmodel/valid/comma_nospace.xmodel_export"_qs,
              u"xmodel/valid/color_range.xmodel_export"_qs,
              u"xmodel/valid/cube_v5.xmodel_export"_qs, u"xmodel/valid/cube_v7.xmodel_export"_qs,
              u"xmodel/valid/non_unit_scale.xmodel_export"_qs,
              u"xanim/valid/walk_scale.xanim_export"_qs,
              u"xanim/valid/walk_perpart.xanim_export"_qs, u"xanim/valid/walk_flat.xanim_export"_qs,
              u"xanim/valid/walk_nonotes.xanim_export"_qs,
              u"xanim/valid/single_frame.xanim_export"_qs}) {
            QTest::newRow(qPrintable(rel))
                << QByteArray::fromStdString(test::readBytes(fx + u'/' + rel)) << rel;
        }
    }
    void canonicalFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        const std::string b = bytes.toStdString();
        const std::string n = name.toStdString();
        const core::ReadResult r = readDefault(b, n);
        QVERIFY(r.hasModel);
        QVERIFY(!r.hasErrors());
        QCOMPARE(QString::fromStdString(core::verifyInvariants(r.model)), QString());
        QCOMPARE(QString::fromStdString(threadedDifference(b, n)), QString());
    }

    void canonicalModelContent()
    {
        const core::ReadResult r = readDefault(canonicalXmodel("\r\n"), "c.xmodel_export");
        const core::Model& m = r.model;
        QCOMPARE(m.headerComments.size(), std::size_t(2));
        QCOMPARE(m.lineEnding, core::LineEnding::CRLF);
        QCOMPARE(m.skeleton.names[2], std::string("j lid # 2"));
        QCOMPARE(m.skeleton.bindHasScale[0], std::uint8_t(1));
        QCOMPARE(m.mesh.pointCount(), std::size_t(4));
        QCOMPARE(m.mesh.influenceOffsets, (std::vector<std::uint32_t>{0, 1, 3, 3, 4}));
        QCOMPARE(m.mesh.triangleMaterials, (std::vector<std::uint32_t>{0, 1}));
        QCOMPARE(m.mesh.materials[0].images, std::string("c:/textures/wood#2.tga"));
        QCOMPARE(m.mesh.materials[1].params.size(), std::size_t(2));
        // The 1.5 and -1 corner colours are kept; cod.color-range is the checks' (tst_xmodel).
        QCOMPARE(test::formatted(r.diagnostics), QStringList());

        const core::ReadResult a = readDefault(canonicalXanim("\n", false), "c.xanim_export");
        QCOMPARE(a.model.animations.size(), std::size_t(1));
        QCOMPARE(a.model.animations[0].scales.size(), std::size_t(6));
        QCOMPARE(a.model.animations[0].notes.size(), std::size_t(2));
        QCOMPARE(a.diagnostics.size(), std::size_t(1)); // the note at -4: cod.notetrack-range
    }

    // Every fixture reads the same in shares as on one thread.
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QString fx = test::fixturesDir();
        for (const QString& f : test::filesUnder(fx + u"/xmodel"_qs, {u"xmodel_export"_qs}) +
                                    test::filesUnder(fx + u"/xanim"_qs, {u"xanim_export"_qs})) {
            QTest::newRow(qPrintable(QDir(fx).relativeFilePath(f))) << f;
        }
    }
    void fixtures()
    {
        QFETCH(QString, path);
        const std::string b = test::readBytes(path);
        const std::string n = QFileInfo(path).fileName().toStdString();
        QCOMPARE(QString::fromStdString(threadedDifference(b, n)), QString());
    }

    // One-line mutations of canonical files: shares and one thread must agree on every one.
    void mutationsAgree_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::newRow("xmodel") << QByteArray::fromStdString(canonicalXmodel("\n"))
                                << u"m.xmodel_export"_qs;
        QTest::newRow("xmodel v7")
            << QByteArray::fromStdString(canonicalXmodelV7()) << u"m.xmodel_export"_qs;
        QTest::newRow("xanim per-part")
            << QByteArray::fromStdString(canonicalXanim("\n", false)) << u"m.xanim_export"_qs;
        QTest::newRow("xanim flat")
            << QByteArray::fromStdString(canonicalXanim("\n", true)) << u"m.xanim_export"_qs;
    }
    void mutationsAgree()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const std::vector<std::string> lines = splitLines(bytes.toStdString());
        std::size_t tried = 0;
        auto agree = [&](const std::string& text, const std::string& what) {
            ++tried;
            const std::string d = threadedDifference(text, n);
            if (!d.empty()) {
                QFAIL(qPrintable(QString::fromStdString(what + ": " + d)));
            }
        };
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string where = "line " + std::to_string(i + 1) + " '" + lines[i] + "'";
            {
                std::vector<std::string> m = lines;
                m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));
                agree(joinLines(m), where + " deleted");
            }
            {
                std::vector<std::string> m = lines;
                m.insert(m.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
                agree(joinLines(m), where + " doubled");
            }
            if (i + 1 < lines.size()) {
                std::vector<std::string> m = lines;
                std::swap(m[i], m[i + 1]);
                agree(joinLines(m), where + " swapped with the next");
            }
            for (const std::string& variant : mutations(lines[i])) {
                std::vector<std::string> m = lines;
                m[i] = variant;
                agree(joinLines(m), where + " -> '" + variant + "'");
            }
        }
        {
            std::string cut = bytes.toStdString();
            for (std::size_t len = 0; len < cut.size(); len += 7) {
                agree(cut.substr(0, len), "cut at " + std::to_string(len));
            }
        }
        QVERIFY(tried > 1000);
    }

    // The same with the hostile counts of tst_hostile: counts far beyond the bytes reserve nothing
    // large, and shares agree with one thread.
    void hostileCounts()
    {
        std::string m = canonicalXmodel("\n");
        for (const char* key : {"NUMVERTS 4", "NUMFACES 2", "NUMBONES 3"}) {
            std::string h = m;
            h.replace(h.find(key), std::strlen(key),
                      std::string(key).substr(0, std::strlen(key) - 1) + "2147483647");
            QCOMPARE(QString::fromStdString(threadedDifference(h, "h.xmodel_export")), QString());
        }
        std::string a = canonicalXanim("\n", false);
        for (const char* key : {"NUMFRAMES 3", "NUMPARTS 2"}) {
            std::string h = a;
            h.replace(h.find(key), std::strlen(key),
                      std::string(key).substr(0, std::strlen(key) - 1) + "2147483647");
            QCOMPARE(QString::fromStdString(threadedDifference(h, "h.xanim_export")), QString());
        }
    }

    // Regular generated files are read in shares (so a split that silently never happens fails
    // here), and on any number of threads exactly as on one.
    void sharesOnGeneratedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::newRow("xmodel LF")
            << QByteArray::fromStdString(generatedXmodel(90, 70, "\n")) << u"g.xmodel_export"_qs;
        QTest::newRow("xmodel CRLF")
            << QByteArray::fromStdString(generatedXmodel(90, 70, "\r\n")) << u"g.xmodel_export"_qs;
        QTest::newRow("xmodel v7")
            << QByteArray::fromStdString(generatedXmodel(90, 70, "\n", 7)) << u"g.xmodel_export"_qs;
        QTest::newRow("xmodel v5")
            << QByteArray::fromStdString(generatedXmodel(90, 70, "\n", 5)) << u"g.xmodel_export"_qs;
        QTest::newRow("xmodel big pool")
            << QByteArray::fromStdString(generatedXmodel(300, 20, "\n")) << u"g.xmodel_export"_qs;
        QTest::newRow("xmodel big faces")
            << QByteArray::fromStdString(generatedXmodel(12, 200, "\n")) << u"g.xmodel_export"_qs;
        QTest::newRow("xanim LF") << QByteArray::fromStdString(generatedXanim(40, 5, "\n"))
                                  << u"g.xanim_export"_qs;
        QTest::newRow("xanim CRLF")
            << QByteArray::fromStdString(generatedXanim(40, 5, "\r\n")) << u"g.xanim_export"_qs;
        QTest::newRow("xanim one part")
            << QByteArray::fromStdString(generatedXanim(120, 1, "\n")) << u"g.xanim_export"_qs;
    }
    void sharesOnGeneratedFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        const std::string b = bytes.toStdString();
        const std::string n = name.toStdString();
        const core::ReadResult one = readThreads(b, n, 1, 1);
        QCOMPARE(one.stats.parallelShares, 0u);
        QVERIFY(!one.diagnostics.empty()); // the notes and warnings shares must carry over
        const core::ReadResult three = readThreads(b, n, 3, 1);
        QCOMPARE(three.stats.parallelShares, 3u);
        QCOMPARE(QString::fromStdString(difference(three, one)), QString());
        for (unsigned threads = 2; threads <= 12; ++threads) {
            for (const std::size_t minBytes : {std::size_t(1), std::size_t(700), b.size() / 2}) {
                const core::ReadResult r = readThreads(b, n, threads, minBytes);
                QVERIFY2(difference(r, one).empty(),
                         qPrintable(QString::fromStdString(std::to_string(threads) + " threads, " +
                                                           std::to_string(minBytes) + ": " +
                                                           difference(r, one))));
                QVERIFY(r.stats.parallelShares == 0 || r.stats.parallelShares >= 2);
                QVERIFY(r.stats.parallelShares <= threads);
            }
        }
        QCOMPARE(readThreads(b, n, 2, 1).stats.parallelShares, 2u);
    }

    // One-line changes all over a generated file (where shares begin and end): read on several
    // threads, each reads exactly as on one thread.
    void sharesAgreeOnMutations_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::newRow("xmodel") << QByteArray::fromStdString(generatedXmodel(24, 16, "\n"))
                                << u"m.xmodel_export"_qs;
        QTest::newRow("xmodel v7")
            << QByteArray::fromStdString(generatedXmodel(24, 16, "\n", 7)) << u"m.xmodel_export"_qs;
        QTest::newRow("xanim") << QByteArray::fromStdString(generatedXanim(12, 3, "\n"))
                               << u"m.xanim_export"_qs;
    }
    void sharesAgreeOnMutations()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const std::vector<std::string> lines = splitLines(bytes.toStdString());
        std::size_t tried = 0, split = 0;
        auto agree = [&](const std::string& text, const std::string& what) {
            ++tried;
            const core::ReadResult one = readThreads(text, n, 1, 1);
            for (const unsigned threads : {2u, 3u, 7u}) {
                const core::ReadResult r = readThreads(text, n, threads, 1);
                split += r.stats.parallelShares > 0 ? 1u : 0u;
                const std::string d = difference(r, one);
                if (!d.empty()) {
                    QFAIL(qPrintable(QString::fromStdString(what + ", " + std::to_string(threads) +
                                                            " threads: " + d)));
                }
            }
        };
        for (std::size_t i = 0; i < lines.size(); i += 4) {
            const std::string where = "line " + std::to_string(i + 1) + " '" + lines[i] + "'";
            {
                std::vector<std::string> m = lines;
                m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));
                agree(joinLines(m), where + " deleted");
            }
            {
                std::vector<std::string> m = lines;
                m.insert(m.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
                agree(joinLines(m), where + " doubled");
            }
            if (i + 1 < lines.size()) {
                std::vector<std::string> m = lines;
                std::swap(m[i], m[i + 1]);
                agree(joinLines(m), where + " swapped with the next");
            }
            for (const std::string& variant : mutations(lines[i])) {
                std::vector<std::string> m = lines;
                m[i] = variant;
                agree(joinLines(m), where + " -> '" + variant + "'");
            }
        }
        QVERIFY2(split > tried,
                 qPrintable(QString::number(split) + u" split of "_qs + QString::number(tried)));
    }
};

QTEST_APPLESS_MAIN(TstCodShares)
#include "tst_cod_shares.moc"
