// Placeholder until the 'pose' verb lands.
#include "app/cli/commands.h"

#include <cstdio>

namespace rigscope::cli {

int runPose(const QStringList&)
{
    std::fputs("rigscope-cli: 'pose' is not implemented yet\n", stderr);
    return 2;
}

} // namespace rigscope::cli
