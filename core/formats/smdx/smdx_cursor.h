#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rigscope::core::detail {

// Reads the scalar MessagePack values BinarySMD is made of (FORMATS.md §2.1). Every read
// records the offset of the value first, never throws, and on failure leaves an error (offset
// + message) and returns false. Counts are checked against the remaining bytes before the
// caller allocates anything. The msgpack-cxx types stay in smdx_cursor.cpp.
class SmdxCursor {
public:
    struct Error {
        std::uint64_t offset = 0;
        std::string message; // "truncated float", "expected int, got str", ...
    };
    // Everything a rewind has to restore (FORMATS.md §2.4 retry, §2.6 legacy).
    struct State {
        std::size_t pos = 0;
        std::size_t nonMinimal = 0;
        std::uint64_t firstNonMinimalOffset = 0;
        std::string firstNonMinimal;
        bool failed = false;
        Error error;
    };

    explicit SmdxCursor(std::string_view bytes);
    ~SmdxCursor();
    SmdxCursor(const SmdxCursor&) = delete;
    SmdxCursor& operator=(const SmdxCursor&) = delete;

    std::size_t pos() const noexcept { return m_state.pos; }
    std::size_t size() const noexcept { return m_bytes.size(); }
    std::size_t remaining() const noexcept { return m_bytes.size() - m_state.pos; }
    bool atEnd() const noexcept { return m_state.pos >= m_bytes.size(); }
    void skipRaw(std::size_t n) noexcept { m_state.pos += n; }
    // Back to (or on to) an offset read before; clears no error.
    void seek(std::size_t pos) noexcept { m_state.pos = pos; }
    std::string_view bytes() const noexcept { return m_bytes; }

    const State& state() const noexcept { return m_state; }
    void restore(const State& s) { m_state = s; }

    bool failed() const noexcept { return m_state.failed; }
    const Error& error() const noexcept { return m_state.error; }
    // Records a failure found by the caller (bad index, unknown block type, ...).
    void fail(std::uint64_t offset, std::string message);

    std::size_t nonMinimalCount() const noexcept { return m_state.nonMinimal; }
    std::uint64_t firstNonMinimalOffset() const noexcept { return m_state.firstNonMinimalOffset; }
    const std::string& firstNonMinimal() const noexcept { return m_state.firstNonMinimal; }

    // `byte` fields: any msgpack int that fits in int8.
    bool readByte(std::int32_t& out) { return readInteger(out, INT8_MIN, INT8_MAX, "byte"); }
    // `int` fields: any msgpack int that fits in int32.
    bool readInt(std::int32_t& out) { return readInteger(out, INT32_MIN, INT32_MAX, "int"); }
    // An int used as an element count: >= 0 and count * minElementBytes <= remaining bytes.
    bool readCount(std::uint32_t& out, std::size_t minElementBytes);
    // `float` fields: CA (exact bits) or CB (narrowed).
    bool readFloat(float& out);
    // `string` fields: str or bin, raw bytes.
    bool readString(std::string& out);

private:
    struct Impl;
    bool readInteger(std::int32_t& out, std::int64_t lo, std::int64_t hi, const char* what);
    bool checkInteger(std::int64_t v, std::int64_t lo, std::int64_t hi, const char* what,
                      std::size_t start, std::int32_t& out);

    std::string_view m_bytes;
    State m_state;
    std::unique_ptr<Impl> m_impl;
};

} // namespace rigscope::core::detail
