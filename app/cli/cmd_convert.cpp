// Placeholder until the 'convert' verb lands.
#include "app/cli/commands.h"

#include <cstdio>

namespace rigscope::cli {

int runConvert(const QStringList&)
{
    std::fputs("rigscope-cli: 'convert' is not implemented yet\n", stderr);
    return 2;
}

} // namespace rigscope::cli
