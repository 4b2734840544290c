#include "render/render_setup.h"

#include <QtCore/QByteArray>
#include <QtCore/qglobal.h>

namespace rigscope::render {

void pinRenderer()
{
    if (qEnvironmentVariableIsEmpty("QT3D_RENDERER")) {
        qputenv("QT3D_RENDERER", QByteArrayLiteral("opengl"));
    }
}

} // namespace rigscope::render
