// Placeholder until the 'check' verb lands.
#include "app/cli/commands.h"

#include <cstdio>

namespace rigscope::cli {

int runCheck(const QStringList&)
{
    std::fputs("rigscope-cli: 'check' is not implemented yet\n", stderr);
    return 2;
}

} // namespace rigscope::cli
