#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/model/model.h"

// The generic DMX element graph both encodings read into (docs/dmx.md). Model semantics live
// in dmx_model.cpp; this layer knows only elements, attributes and their types.
namespace rigscope::core::dmx {

enum class AttrType : std::uint8_t {
    Unknown,
    Element,
    Int,
    Float,
    Bool,
    String,
    Binary,
    Time,
    Color,
    Vector2,
    Vector3,
    Vector4,
    QAngle,
    Quaternion,
    Matrix,
    UInt64,
    UInt8,
    ObjectId, // binary 1-2 only: an element id (16 bytes)
};

std::string_view typeName(AttrType t) noexcept; // keyvalues2 spelling: "vector3", "element", ...
AttrType typeFromName(std::string_view name) noexcept; // without "_array"; Unknown if none
// Floats per item for the float-stored types (Float, Time, vectors, quaternion, matrix), else 0.
std::size_t floatWidth(AttrType t) noexcept;

inline constexpr std::int32_t kNullElement = -1;

// One attribute. Values sit in the vector of their kind, `count` items of `width` each:
// ints: Element (element index, -1 null), Int, Bool, UInt8, Color (4 per item: r g b a);
// floats: Float, Time (seconds), Vector2/3/4, QAngle, Quaternion (x y z w), Matrix (16);
// strings: String, Binary (raw bytes), ObjectId (text); u64: UInt64.
struct Attribute {
    std::string name;
    AttrType type = AttrType::Unknown;
    bool array = false;
    std::size_t count = 0;
    std::vector<std::int32_t> ints;
    std::vector<float> floats;
    std::vector<std::string> strings;
    std::vector<std::uint64_t> u64;
    SourceLoc where;
    // Binary arrays of fixed-size items: the byte offset of item 0 and the item size, so a
    // diagnostic about one item points at its bytes (`file.dmx:@0x1A2B`). 0 otherwise.
    std::uint64_t itemsAt = 0;
    std::uint32_t itemSize = 0;
    // Where item `i` is: its bytes in a binary array, else the attribute.
    SourceLoc at(std::size_t i) const noexcept
    {
        return itemSize == 0 ? where : SourceLoc{0, 0, itemsAt + i * itemSize};
    }
};

struct Element {
    std::string type; // "DmeModel"
    std::string name;
    std::string id; // keyvalues2: as written; binary: 32 hex digits of the 16 id bytes
    std::vector<Attribute> attrs;
    SourceLoc where;
    const Attribute* find(std::string_view name) const noexcept;
};

struct Document {
    DmxHeader header;
    bool binary = false;
    std::vector<Element> elements; // elements[0] is the root
};

// Parses `<!-- dmx encoding ENC V format FMT W -->`. Returns the offset just past `-->`, or 0
// when the bytes do not start with a DMX header.
std::size_t parseHeader(std::string_view bytes, DmxHeader& out) noexcept;

// Both return false only when nothing usable was read; problems go to the sink (dmx.syntax
// located at line:col for keyvalues2, @0x offset for binary). `start` = parseHeader's result.
bool parseKeyValues2(std::string_view bytes, std::size_t start, Document& doc,
                     DiagnosticSink& sink);
bool parseBinary(std::string_view bytes, std::size_t start, Document& doc, DiagnosticSink& sink);

} // namespace rigscope::core::dmx
