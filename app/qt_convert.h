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

// For text shown to the user that may quote a file's bytes (diagnostic messages, errors):
// control characters, and bytes that are neither UTF-8 nor printable Latin-1, show as \xNN
// escapes, so binary garbage never prints as mojibake.
inline QString toDisplayString(std::string_view s)
{
    const QString u = QString::fromUtf8(s.data(), qsizetype(s.size()));
    const bool utf8 = !u.contains(QChar::ReplacementCharacter);
    QString out;
    out.reserve(qsizetype(s.size()));
    if (utf8) {
        for (const QChar c : u) {
            const char16_t v = c.unicode();
            if ((v < 0x20 && v != u'\t') || (v >= 0x7F && v < 0xA0)) {
                out += QStringLiteral("\\x%1").arg(int(v), 2, 16, QLatin1Char('0'));
            } else {
                out += c;
            }
        }
        return out;
    }
    for (const char ch : s) {
        const auto b = static_cast<unsigned char>(ch);
        if ((b >= 0x20 && b < 0x7F) || b == '\t') {
            out += QLatin1Char(ch);
        } else {
            out += QStringLiteral("\\x%1").arg(int(b), 2, 16, QLatin1Char('0'));
        }
    }
    return out;
}

inline std::string toStd(const QString& s)
{
    return s.toUtf8().toStdString();
}

} // namespace rigscope::app
