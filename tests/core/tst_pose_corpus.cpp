// rigscope-test: LABELS slow TIMEOUT 600
// `rigscope-cli pose --json` on every corpus animation SMD against an independent computation:
// a small parser written here (nodes, skeleton, carry-forward of omitted bones) and double
// precision matrices built from the textbook formulas R = Rz*Ry*Rx, World = Parent * T * R.
// Shares no code with core (not its reader, not its pose jobs, not Eigen).
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

using M4 = std::array<double, 16>; // row-major 4x4

M4 mul(const M4& a, const M4& b)
{
    M4 r{};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            double s = 0;
            for (int k = 0; k < 4; ++k) {
                s += a[i * 4 + k] * b[k * 4 + j];
            }
            r[i * 4 + j] = s;
        }
    }
    return r;
}

// T(p) * Rz(z) * Ry(y) * Rx(x), written out.
M4 local(const std::array<double, 6>& v)
{
    const double cx = std::cos(v[3]), sx = std::sin(v[3]);
    const double cy = std::cos(v[4]), sy = std::sin(v[4]);
    const double cz = std::cos(v[5]), sz = std::sin(v[5]);
    return {cz * cy,
            cz * sy * sx - sz * cx,
            cz * sy * cx + sz * sx,
            v[0],
            sz * cy,
            sz * sy * sx + cz * cx,
            sz * sy * cx - cz * sx,
            v[1],
            -sy,
            cy * sx,
            cy * cx,
            v[2],
            0,
            0,
            0,
            1};
}

struct Anim {
    std::vector<int> ids;                                     // in file order
    std::map<int, int> parent;                                // id -> parent id
    std::map<int, std::string> name;                          // id -> name
    std::vector<int> times;                                   // as written
    std::vector<std::map<int, std::array<double, 6>>> frames; // explicit keys per frame
};

bool parseAnim(const std::string& text, Anim& a)
{
    std::istringstream in(text);
    std::string line;
    enum { None, Nodes, Skeleton } block = None;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        std::istringstream ls(line);
        ls.imbue(std::locale::classic());
        std::string first;
        if (!(ls >> first)) {
            continue;
        }
        if (first == "nodes") {
            block = Nodes;
        } else if (first == "skeleton") {
            block = Skeleton;
        } else if (first == "end") {
            block = None;
        } else if (block == Nodes) {
            const int id = std::stoi(first);
            const auto q1 = line.find('"'), q2 = line.rfind('"');
            if (q1 == std::string::npos || q2 <= q1) {
                return false;
            }
            std::istringstream rest(line.substr(q2 + 1));
            int parent = -1;
            rest >> parent;
            if (!a.parent.count(id)) { // a redefined id keeps its place; the last line wins
                a.ids.push_back(id);
            }
            a.parent[id] = parent;
            a.name[id] = line.substr(q1 + 1, q2 - q1 - 1);
        } else if (block == Skeleton && first == "time") {
            int t = 0;
            ls >> t;
            a.times.push_back(t);
            a.frames.emplace_back();
        } else if (block == Skeleton && !a.frames.empty()) {
            std::array<double, 6> v{};
            for (double& x : v) {
                if (!(ls >> x)) {
                    return false;
                }
            }
            a.frames.back()[std::stoi(first)] = v;
        }
    }
    return !a.frames.empty();
}

} // namespace

class TstPoseCorpus : public QObject {
    Q_OBJECT
private slots:
    void poseMatchesIndependentComputation()
    {
        const QString corpus = test::corpusDir();
        if (corpus.isEmpty()) {
            QSKIP("shared corpus not present");
        }
        int files = 0, bones = 0;
        for (const QString& path : test::filesUnder(corpus, {QStringLiteral("smd")})) {
            Anim a;
            if (!parseAnim(test::readBytes(path), a) || a.frames.size() < 2) {
                continue; // references and single-frame files: the bind pose is covered elsewhere
            }
            bool contiguous = true;
            for (std::size_t f = 1; f < a.times.size(); ++f) {
                contiguous = contiguous && a.times[f] == a.times[f - 1] + 1;
            }
            if (!contiguous) {
                continue;
            }
            ++files;
            // Carry omitted bones forward; a bone missing from frame 0 is zero.
            std::map<int, std::array<double, 6>> state;
            for (int id : a.ids) {
                state[id] = {};
            }
            std::vector<std::map<int, std::array<double, 6>>> dense;
            for (const auto& keys : a.frames) {
                for (const auto& [id, v] : keys) {
                    state[id] = v;
                }
                dense.push_back(state);
            }
            const int last = int(dense.size()) - 1;
            for (const int frame : {0, last / 2, last}) {
                std::map<int, M4> world;
                // Parents may come after children in the file: resolve recursively.
                std::function<M4(int)> worldOf = [&](int id) -> M4 {
                    if (auto it = world.find(id); it != world.end()) {
                        return it->second;
                    }
                    const int p = a.parent[id];
                    const M4 w = (p >= 0 && a.parent.count(p))
                                     ? mul(worldOf(p), local(dense[std::size_t(frame)][id]))
                                     : local(dense[std::size_t(frame)][id]);
                    world[id] = w;
                    return w;
                };
                const auto r =
                    test::runCli({QStringLiteral("pose"), path, QStringLiteral("--frame"),
                                  QString::number(frame), QStringLiteral("--json")});
                QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(path));
                const QJsonArray out = QJsonDocument::fromJson(r.out).array();
                QCOMPARE(out.size(), qsizetype(a.ids.size()));
                for (const QJsonValue& v : out) {
                    const QJsonObject o = v.toObject();
                    const std::string name =
                        o.value(QStringLiteral("name")).toString().toStdString();
                    int id = -1;
                    for (const auto& [k, n] : a.name) {
                        if (n == name) {
                            id = k;
                            break;
                        }
                    }
                    QVERIFY2(id >= 0, name.c_str());
                    const M4 w = worldOf(id);
                    const QJsonArray pos = o.value(QStringLiteral("position")).toArray();
                    const QJsonArray rot = o.value(QStringLiteral("rotation")).toArray();
                    for (int i = 0; i < 3; ++i) {
                        const double want = w[std::size_t(i * 4 + 3)];
                        const double tol = 1e-4 * std::max(1.0, std::abs(want));
                        QVERIFY2(
                            std::abs(pos.at(i).toDouble() - want) <= tol,
                            qPrintable(QStringLiteral("%1 frame %2 bone %3 position[%4]: %5 vs %6")
                                           .arg(path)
                                           .arg(frame)
                                           .arg(QString::fromStdString(name))
                                           .arg(i)
                                           .arg(pos.at(i).toDouble())
                                           .arg(want)));
                        for (int j = 0; j < 3; ++j) {
                            QVERIFY2(std::abs(rot.at(i * 3 + j).toDouble() -
                                              w[std::size_t(i * 4 + j)]) <= 1e-4,
                                     qPrintable(QStringLiteral("%1 frame %2 bone %3 rotation")
                                                    .arg(path)
                                                    .arg(frame)
                                                    .arg(QString::fromStdString(name))));
                        }
                    }
                    ++bones;
                }
            }
        }
        qInfo("checked %d animation files, %d bone poses", files, bones);
        QVERIFY(files >= 10);
    }
};

QTEST_APPLESS_MAIN(TstPoseCorpus)
#include "tst_pose_corpus.moc"
