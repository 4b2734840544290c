#pragma once

#include <QtGui/QFontDatabase>
#include <QtWidgets/QLabel>

namespace rigscope::app {

// The one-line source view under the Problems table and the Files tree: the file, line and the
// text of that line, in the fixed font, selectable, eliding rather than widening the dock.
inline void styleSourceLine(QLabel* label, const QString& objectName)
{
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    label->setContentsMargins(6, 2, 6, 2);
    label->setMinimumWidth(50);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

} // namespace rigscope::app
