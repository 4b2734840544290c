#include "render/startup_timing.h"

#include <cstdio>
#include <ctime>

#include <QtCore/qglobal.h>

namespace rigscope::render {

void timingMark(const char* stage)
{
    static const bool on = qEnvironmentVariableIsSet("RIGSCOPE_TIMING");
    if (!on) {
        return;
    }
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    std::fprintf(stderr, "rigscope-timing %lld.%06ld %s\n", static_cast<long long>(ts.tv_sec),
                 ts.tv_nsec / 1000, stage);
}

} // namespace rigscope::render
