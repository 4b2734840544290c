#pragma once

#include <string>
#include <string_view>

#include <QtCore/QString>

// UTF-8 <-> QString (HOUSE_STYLE §3). Names that are not valid UTF-8 display as Latin-1.
namespace rigscope::app {

inline QString toQString(std::string_view s)
{
    const QString u = QString::fromUtf8(s.data(), qsizetype(s.size()));
    return u.contains(QChar::ReplacementCharacter)
               ? QString::fromLatin1(s.data(), qsizetype(s.size()))
               : u;
}

inline std::string toStd(const QString& s)
{
    return s.toUtf8().toStdString();
}

} // namespace rigscope::app
