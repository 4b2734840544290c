#pragma once

#include <string>

namespace rigscope::core {

// Creates the folder `path` and any missing parents (mode 0777 less the umask). Returns an error
// message, empty on success or when the folder exists.
std::string makeDirectories(const std::string& path);

} // namespace rigscope::core
