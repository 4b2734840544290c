// Placeholder until the 'info' verb lands.
#include "app/cli/commands.h"

namespace rigscope::cli {
int runInfo(const QStringList&) { return 2; }
} // namespace rigscope::cli
