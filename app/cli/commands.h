#pragma once

#include <QtCore/QStringList>

namespace rigscope::cli {

// Each verb gets the arguments after its name and returns the process exit code:
// 0 ok, 1 errors in the input, 2 usage or I/O failure (CHECKS.md §1).
int runInfo(const QStringList& args);
int runCheck(const QStringList& args);
int runConvert(const QStringList& args);
int runPose(const QStringList& args);
int runCompare(const QStringList& args);
int runPhysics(const QStringList& args);

} // namespace rigscope::cli
