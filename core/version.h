#pragma once

#include <string_view>

namespace rigscope::core {

// "0.1.0": the project version (CMakeLists.txt).
std::string_view buildVersion() noexcept;
// The commit the build was configured from (`git describe --always --dirty`, e.g.
// "1b2374c1a2b3" or "1b2374c1a2b3-dirty"), or "unknown" outside a git checkout.
std::string_view buildCommit() noexcept;

} // namespace rigscope::core
