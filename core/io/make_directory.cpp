#include "core/io/make_directory.h"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace rigscope::core {

std::string makeDirectories(const std::string& path)
{
    if (path.empty()) {
        return {};
    }
    for (std::size_t i = 1; i <= path.size(); ++i) {
        if (i < path.size() && path[i] != '/') {
            continue;
        }
        const std::string part = path.substr(0, i);
        struct stat st {};
        if (::stat(part.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                return "cannot create '" + path + "': '" + part + "' is not a folder";
            }
            continue;
        }
        if (::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) {
            return "cannot create '" + part + "': " + std::strerror(errno);
        }
    }
    return {};
}

} // namespace rigscope::core
