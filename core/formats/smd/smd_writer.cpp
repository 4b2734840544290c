// Valve SMD / VTA writer (FORMATS.md §6.1-6.3): only what the model keeps, shortest round-trip
// floats, the stored line ending, so write(read(write(m))) == write(m) byte for byte.
#include "core/formats/smd/smd_writer.h"

#include <algorithm>
#include <cmath>

#include "core/diag/diagnostic_ids.h"
#include "core/model/rotation.h"
#include "core/text/numbers.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace {

class Out {
public:
    explicit Out(LineEnding ending)
        : m_eol(ending == LineEnding::CRLF ? "\r\n"
                : ending == LineEnding::CR ? "\r"
                                           : "\n")
    {
    }

    Out& text(std::string_view s)
    {
        bytes.append(s);
        return *this;
    }
    Out& nl()
    {
        bytes.append(m_eol);
        return *this;
    }
    Out& i(std::int64_t v)
    {
        space();
        appendInt(bytes, v);
        return *this;
    }
    Out& f(float v)
    {
        space();
        if (!std::isfinite(v)) {
            ++nonFinite;
        }
        appendFloat(bytes, v);
        return *this;
    }
    Out& v3(const Vec3& v) { return f(v.x()).f(v.y()).f(v.z()); }
    // A name between quotes; '"' and line breaks cannot be written and become '\''.
    Out& quoted(std::string_view name)
    {
        space();
        bytes.push_back('"');
        append(name, "\"\n\r", '\'');
        bytes.push_back('"');
        return *this;
    }
    // Raw text on its own line; line breaks would split it, so they become spaces.
    Out& line(std::string_view s)
    {
        append(s, "\n\r", ' ');
        return nl();
    }

    std::string bytes;
    std::size_t nonFinite = 0;
    std::size_t badNames = 0;

private:
    // `s` with each byte of `bad` (counted in badNames) replaced by `with`.
    void append(std::string_view s, std::string_view bad, char with)
    {
        for (char c : s) {
            if (bad.find(c) != std::string_view::npos) {
                ++badNames;
                c = with;
            }
            bytes.push_back(c);
        }
    }
    void space()
    {
        if (!bytes.empty() && bytes.back() != '\n' && bytes.back() != '\r') {
            bytes.push_back(' ');
        }
    }
    std::string_view m_eol;
};

std::int32_t sourceIdOf(const Skeleton& s, JointIndex j) noexcept
{
    if (j == kNoJoint || j < 0 || static_cast<std::size_t>(j) >= s.size()) {
        return -1;
    }
    return s.sourceIds[static_cast<std::size_t>(j)];
}

// `time` comment for the VTA: the shape name of the vertex frame at the same time.
const VertexFrame* frameAt(const std::vector<VertexFrame>& frames, double t) noexcept
{
    const auto it = std::find_if(frames.begin(), frames.end(),
                                 [t](const VertexFrame& f) { return f.time == t; });
    return it == frames.end() ? nullptr : &*it;
}

void timeLine(Out& o, double t, const VertexFrame* named)
{
    o.text("time ");
    appendNumber(o.bytes, t);
    if (named && named->nameFromComment) {
        o.text(" #");
        if (!named->name.empty()) {
            o.text(" ").text(named->name);
        }
    }
    o.nl();
}

void writeNodes(Out& o, const Skeleton& s)
{
    o.text("nodes").nl();
    for (std::size_t j = 0; j < s.size(); ++j) {
        o.i(s.sourceIds[j]).quoted(s.names[j]).i(sourceIdOf(s, s.parents[j])).nl();
    }
    o.text("end").nl();
}

void writeSkeleton(Out& o, const Model& m, const Animation* anim)
{
    const Skeleton& s = m.skeleton;
    o.text("skeleton").nl();
    if (anim) {
        const std::size_t n = anim->jointCount;
        const bool keysKnown = anim->explicitKey.size() == anim->positions.size();
        for (std::size_t f = 0; f < anim->frameCount(); ++f) {
            timeLine(o, anim->times[f], frameAt(m.vertexFrames, anim->times[f]));
            for (std::size_t j = 0; j < n; ++j) {
                const std::size_t k = anim->key(f, j);
                if (keysKnown && anim->explicitKey[k] == 0) {
                    continue;
                }
                o.i(s.sourceIds[j]).v3(anim->positions[k]).v3(anim->rotations[k]).nl();
            }
        }
    } else {
        // A model from another format with a local Euler bind pose and no animation.
        timeLine(o, 0, nullptr);
        for (std::size_t j = 0; j < s.size(); ++j) {
            o.i(s.sourceIds[j]).v3(s.bindPositions[j]).v3(s.bindRotations[j]).nl();
        }
    }
    o.text("end").nl();
}

void writeTriangles(Out& o, const Model& m)
{
    const Skeleton& s = m.skeleton;
    const Mesh& me = m.mesh;
    const std::uint32_t extra = me.uvSetCount > 1 ? me.uvSetCount - 1 : 0;
    o.text("triangles").nl();
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        o.line(me.materials[me.triangleMaterials[t]].name);
        for (std::size_t c = 3 * t; c < 3 * t + 3; ++c) {
            const std::uint32_t p = me.cornerPoints[c];
            JointIndex parent = me.pointParents[p];
            const std::uint32_t begin = me.influenceOffsets.empty() ? 0 : me.influenceOffsets[p];
            const std::uint32_t count = me.influenceCount(p);
            if (parent == kNoJoint) {
                parent = count > 0 ? me.influenceJoints[begin] : (s.empty() ? kNoJoint : 0);
            }
            const std::int32_t parentId = parent == kNoJoint ? 0 : sourceIdOf(s, parent);
            o.i(parentId).v3(me.pointPositions[p]).v3(me.cornerNormals[c]);
            o.f(me.cornerUvs[c].x()).f(me.cornerUvs[c].y());
            // Links and extra UVs are written when the corner has links or an extra UV that is
            // not +0 (a link count of 0 stands before extra UVs).
            bool tail = me.pointLinkState[p] != LinkState::Absent;
            for (std::uint32_t e = 0; e < extra; ++e) {
                const Vec2& uv = me.cornerExtraUvs[c * extra + e];
                tail = tail || uv.x() != 0.0f || uv.y() != 0.0f || std::signbit(uv.x()) ||
                       std::signbit(uv.y()) || std::isnan(uv.x()) || std::isnan(uv.y());
            }
            if (me.pointLinkState[p] == LinkState::List && count > 0) {
                o.i(count);
                for (std::uint32_t l = begin; l < begin + count; ++l) {
                    o.i(sourceIdOf(s, me.influenceJoints[l])).f(me.influenceWeights[l]);
                }
            } else if (tail) {
                o.i(0);
            }
            if (tail) {
                for (std::uint32_t e = 0; e < extra; ++e) {
                    const Vec2& uv = me.cornerExtraUvs[c * extra + e];
                    o.f(uv.x()).f(uv.y());
                }
            }
            o.nl();
        }
    }
    o.text("end").nl();
}

void writeVertexAnimation(Out& o, const Model& m)
{
    o.text("vertexanimation").nl();
    for (const VertexFrame& f : m.vertexFrames) {
        timeLine(o, f.time, &f);
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            o.i(f.ids[i]).v3(f.positions[i]).v3(f.normals[i]).nl();
        }
    }
    o.text("end").nl();
}

} // namespace

WriteResult writeSmd(const Model& m, const WriteContext& ctx)
{
    if (hasQuaternions(m)) { // DMX rotations: Euler angles in double, gimbal-safe
        Model euler = m;
        quaternionsToEuler(euler);
        return writeSmd(euler, ctx);
    }
    WriteResult r;
    DiagnosticSink sink(ctx.fileName);
    // A model read from the SMD family keeps its version and line ending.
    const bool family = m.format.empty() || formatFamily(m.format) == FormatFamily::Smd;
    const Skeleton& s = m.skeleton;

    const auto found =
        std::find_if(m.animations.begin(), m.animations.end(), [&s](const Animation& a) {
            return a.kind == PoseKind::LocalEulerXYZ && a.jointCount == s.size();
        });
    const Animation* anim = found == m.animations.end() ? nullptr : &*found;
    if (!anim && !s.empty() && s.bindKind == PoseKind::ModelMatrix) {
        sink.error(ids::kWriteBadName, {1, 1, 0},
                   "model holds model-space bone matrices; convert to local Euler first "
                   "('rigscope-cli convert')");
        r.diagnostics = sink.take();
        return r;
    }

    // Extra UV sets exist only in version 3.
    const int version = family ? m.version : m.mesh.uvSetCount > 1 ? 3 : 1;
    Out o(family ? m.lineEnding : LineEnding::LF);
    for (const std::string& c : m.headerComments) {
        const std::string_view body =
            std::string_view(c).substr(std::min(c.find_first_not_of(" \t\f\v"), c.size()));
        if (!(body.starts_with("//") || body.starts_with("#") || body.starts_with(";"))) {
            o.text("// ");
        }
        o.line(c);
    }
    o.text("version").i(version).nl();
    writeNodes(o, s);
    if (anim || (!family && !s.empty())) {
        writeSkeleton(o, m, anim);
    }
    if (m.mesh.triangleCount() > 0 || m.kind == ModelKind::Reference) {
        writeTriangles(o, m);
    }
    if (!m.vertexFrames.empty() || m.kind == ModelKind::Flex) {
        writeVertexAnimation(o, m);
    }

    if (o.nonFinite > 0) {
        sink.warning(ids::kWriteNonFinite, {1, 1, 0},
                     std::to_string(o.nonFinite) +
                         " NaN/Inf values written as nan/inf; some tools reject them");
    }
    if (o.badNames > 0) {
        sink.error(
            ids::kWriteBadName, {1, 1, 0},
            std::to_string(o.badNames) +
                " quote or line-break characters in names cannot be written to SMD; replaced");
    }
    r.bytes = std::move(o.bytes);
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
