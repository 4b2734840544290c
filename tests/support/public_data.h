#pragma once

// The public projects and compiled models copied out of fetched repositories (never into this
// one): RIGSCOPE_TESTDATA, default /work/data. Tests QSKIP when what they need is not there.
// A header of its own so that the tests which do not read them do not rebuild with it.

#include <QtCore/QString>

namespace rigscope::test {

inline QString publicDataDir()
{
    const QString d = qEnvironmentVariable("RIGSCOPE_TESTDATA");
    return d.isEmpty() ? QStringLiteral("/work/data") : d;
}

} // namespace rigscope::test
