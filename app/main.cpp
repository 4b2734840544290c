#include <QtWidgets/QApplication>
#include <QtWidgets/QMainWindow>

#include "render/render_setup.h"

int main(int argc, char** argv)
{
    rigscope::render::pinRenderer();
    QApplication app(argc, argv);
    QMainWindow w;
    w.show();
    return app.exec();
}
