#include <cstdio>
#include <string>

#include <memory>

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtWidgets/QApplication>

#include "app/document/command_line.h"
#include "app/document/qc_document.h"
#include "app/widgets/main_window.h"
#include "app/widgets/physics_view.h"
#include "app/widgets/viewport_widget.h"
#include "core/diag/profile.h"
#include "app/widgets/screenshot.h"
#include "app/widgets/window_grab.h"
#include "render/render_setup.h"
#include "render/startup_timing.h"
#include "core/version.h"

namespace {

// The command line's view options on the window's first load: a bad name is reported in the
// status bar and the Log (the window stays open), as the screenshot path reports it on stderr.
void applyStartOptionsToWindow(rigscope::app::MainWindow& window, rigscope::app::Document& doc,
                               const rigscope::app::GuiOptions& options)
{
    if (const QString e = rigscope::app::applyStartOptions(doc, options); !e.isEmpty()) {
        window.log(QStringLiteral("command line: %1").arg(e));
        window.showMessage(e, 8000);
    }
    auto* vp = window.viewportWidget()->viewport();
    if (options.cameraGiven) {
        vp->setPreset(rigscope::app::cameraPresetNamed(options.camera));
        vp->frameAll();
    }
    if (!options.select.isEmpty() &&
        doc.selection().kind == rigscope::app::Selection::Kind::Joint) {
        vp->frameSelection(); // --select BONE: the camera on it
    }
}

} // namespace

int main(int argc, char** argv)
{
    rigscope::render::timingMark("main");
    std::atexit([] { rigscope::render::timingMark("exit handlers"); });
    rigscope::render::pinRenderer();
    // Parse before QApplication exists, so --help, --version and usage errors need no display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    const rigscope::app::GuiOptions options = rigscope::app::parseGuiCommandLine(arguments);
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "rigscope: %s\n", qPrintable(options.error));
        return 2;
    }
    if (options.showHelp) {
        std::fputs(qPrintable(options.helpText), stdout);
        return 0;
    }
    if (options.showVersion) {
        const std::string commit(rigscope::core::buildCommit());
        std::printf("rigscope %s (git %s)\n", RIGSCOPE_VERSION, commit.c_str());
        return 0;
    }
    if (options.thumbnail) {
        // Software rendering: no display, no window, no OpenGL (file managers may sandbox it).
        QCoreApplication app(argc, argv);
        QString error;
        const int rc = rigscope::app::runThumbnail(options, &error);
        if (rc != 0) {
            std::fprintf(stderr, "rigscope: %s\n", qPrintable(error));
        }
        return rc;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        std::fprintf(stderr, "rigscope: no display; Qt3D needs OpenGL (on a server use: xvfb-run "
                             "-a rigscope ...)\n");
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rigscope"));
    QApplication::setOrganizationName(QStringLiteral("RigScope"));
    QApplication::setApplicationVersion(QStringLiteral(RIGSCOPE_VERSION));
    rigscope::render::timingMark("QApplication");
    if (!options.screenshot.isEmpty()) {
        QString error;
        const int rc = rigscope::app::runScreenshot(options, &error);
        if (rc != 0) {
            std::fprintf(stderr, "rigscope: %s\n", qPrintable(error));
        }
        rigscope::render::timingMark("main returns");
        return rc;
    }

    QTemporaryDir scratch;
    QString configPath = options.config;
    if (options.noConfig) {
        configPath = scratch.filePath(QStringLiteral("rigscope.ini"));
    } else if (options.portable) {
        configPath =
            QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("rigscope.ini"));
    }
    std::unique_ptr<QSettings> settings =
        configPath.isEmpty()
            ? std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope,
                                          QStringLiteral("RigScope"), QStringLiteral("rigscope"))
            : std::make_unique<QSettings>(configPath, QSettings::IniFormat);

    rigscope::app::MainWindow window(*settings);
    if (!options.profile.isEmpty()) {
        window.setProfile(*rigscope::core::parseProfile(options.profile.toStdString()));
    }
    window.setMaterialRoots(options.materials);
    window.setTexturesShown(!options.noTextures);
    if (options.physics || options.simulate) {
        window.physicsView()->setShown(true);
    }
    window.show();
    if (!options.files.isEmpty()) {
        // The files named here are read with --force-reader (when given); then --anim, --frame,
        // --flex, --bodygroup, --skin and --camera apply once, to the first load, as they do
        // for --screenshot.
        auto* doc = window.document();
        doc->setForceReader(options.forceReader.toStdString());
        auto applied = std::make_shared<QMetaObject::Connection>();
        *applied = QObject::connect(doc, &rigscope::app::Document::loaded, &window,
                                    [&window, doc, options, applied] {
                                        QObject::disconnect(*applied);
                                        applyStartOptionsToWindow(window, *doc, options);
                                    });
        window.openFiles(options.files);
    }
    if (options.ignoreTimestamps) {
        window.setCompareIgnoresTimestamps(true);
    }
    if (!options.compare.isEmpty()) {
        window.document()->waitForLoaded(600000);
        QApplication::processEvents();
        window.compareWithCompiled(options.compare);
    }
    if (!options.windowScreenshot.isEmpty()) {
        window.resize(options.size);
        window.document()->waitForLoaded(600000);
        QApplication::processEvents();
        if (options.simulate) {
            window.physicsView()->simulate();
            window.viewportWidget()->viewport()->frameAll();
            QApplication::processEvents();
        }
        const QImage image = rigscope::app::grabWindow(window);
        return image.save(options.windowScreenshot) ? 0 : 2;
    }
    return app.exec();
}
