#pragma once

// A generated SMD of boxes and quads for the physics tests (tst_physics, tst_drop_test): each
// shape rigid on one bone, or weighted by an SMD links tail. Every triangle uses the material
// "phys".

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "core/model/types.h"

namespace rigscope::test {

inline std::string smdNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

struct BoxSmd {
    struct Bone {
        std::string name;
        int parent = -1;
        // From the parent; a root sits at the origin.
        core::Vec3 offset{10.0f, 0.0f, 0.0f};
    };
    std::vector<Bone> bones;
    std::string triangles;

    // `smooth`: every corner's normal points away from the box's centre, so the faces of a box
    // share their vertices (one smoothing group); else each face has its own normal (hard edges:
    // six flat pieces for studiomdl). `links`: "" = rigid on `bone`, else an SMD links tail
    // such as "2 1 0.5 2 0.5".
    void box(const core::Vec3& lo, const core::Vec3& hi, int bone, bool smooth = true,
             const std::string& links = {})
    {
        const core::Vec3 c = (lo + hi) / 2;
        auto corner = [&](int i) {
            return core::Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(),
                              i & 4 ? hi.z() : lo.z());
        };
        // Faces as corner quads, counter-clockwise seen from outside.
        const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                 {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
        for (const auto& q : quads) {
            const core::Vec3 faceNormal =
                (corner(q[1]) - corner(q[0])).cross(corner(q[2]) - corner(q[0])).normalized();
            for (const int tri : {0, 1}) {
                const int idx[3] = {q[0], q[1 + tri], q[2 + tri]};
                triangles += "phys\n";
                for (int k : idx) {
                    const core::Vec3 p = corner(k);
                    const core::Vec3 n = smooth ? core::Vec3((p - c).normalized()) : faceNormal;
                    corner3(bone, p, n, links);
                }
            }
        }
    }
    // A flat quad (two triangles) at height lo.z(), facing +Z.
    void quad(const core::Vec3& lo, const core::Vec3& hi, int bone)
    {
        const core::Vec3 a(lo.x(), lo.y(), lo.z()), b(hi.x(), lo.y(), lo.z()),
            c(hi.x(), hi.y(), lo.z()), d(lo.x(), hi.y(), lo.z());
        for (const auto& t :
             {std::array<core::Vec3, 3>{a, b, c}, std::array<core::Vec3, 3>{a, c, d}}) {
            triangles += "phys\n";
            for (const core::Vec3& p : t) {
                corner3(bone, p, core::Vec3(0, 0, 1), {});
            }
        }
    }
    std::string text() const
    {
        std::string s = "version 1\nnodes\n";
        for (std::size_t i = 0; i < bones.size(); ++i) {
            s += std::to_string(i) + " \"" + bones[i].name + "\" " +
                 std::to_string(bones[i].parent) + "\n";
        }
        s += "end\nskeleton\ntime 0\n";
        for (std::size_t i = 0; i < bones.size(); ++i) {
            const core::Vec3 o = bones[i].parent < 0 ? core::Vec3(0, 0, 0) : bones[i].offset;
            s += std::to_string(i) + " " + smdNumber(o.x()) + " " + smdNumber(o.y()) + " " +
                 smdNumber(o.z()) + " 0 0 0\n";
        }
        return s + "end\ntriangles\n" + triangles + "end\n";
    }

private:
    void corner3(int bone, const core::Vec3& p, const core::Vec3& n, const std::string& links)
    {
        triangles += std::to_string(bone) + " " + smdNumber(p.x()) + " " + smdNumber(p.y()) + " " +
                     smdNumber(p.z()) + " " + smdNumber(n.x()) + " " + smdNumber(n.y()) + " " +
                     smdNumber(n.z()) + " 0 0" + (links.empty() ? "" : " " + links) + "\n";
    }
};

} // namespace rigscope::test
