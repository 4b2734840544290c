#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rigscope::core {

// Minimal streaming JSON writer (UTF-8 in, escapes control characters and invalid bytes as
// \u00XX Latin-1 so any name round-trips into valid JSON). Pretty-prints with 2 spaces.
class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true) : m_pretty(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(double d); // non-finite -> null
    JsonWriter& value(float f);  // shortest round trip
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(unsigned i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(bool b);
    JsonWriter& null();

    const std::string& str() const noexcept { return m_out; }
    std::string take() noexcept { return std::move(m_out); }

    static void escape(std::string& out, std::string_view s);

private:
    void separator();
    void newline();

    std::string m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
    bool m_pretty = true;
};

} // namespace rigscope::core
