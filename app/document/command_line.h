#pragma once

#include <optional>

#include <QtGui/QVector3D>

#include <QtCore/QSize>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QStringList>

namespace rigscope::app {

// The GUI binary's command line (UX.md "Command line"), filled by QCommandLineParser::parse().
struct GuiOptions {
    QStringList files;
    QString screenshot;            // empty = interactive
    QString windowScreenshot;      // hidden: grab the whole window after loading, then exit
    QString compare;               // --compare MDL: the Compare dock against a compiled model
    bool ignoreTimestamps = false; // --ignore-timestamps: the Compare dock leaves file times out
    bool thumbnail = false;        // --thumbnail IN OUT: files = {IN}, screenshot = OUT
    QSize size{1280, 720};         // --size WxH, or N for N×N (thumbnails default to 256×256)
    std::optional<int> frame;      // 0-based index; negative counts from the end
    QString anim;
    QString camera = QStringLiteral("iso"); // front | right | side | top | iso
    bool cameraGiven = false;               // --camera was on the command line
    QString select; // --select BONE: selects the bone and frames the camera on it
    bool noBackground = false;
    QStringList materials;   // --materials DIR (repeatable): game folders holding materials/
    bool noTextures = false; // --no-textures: flat material colours
    bool physics = false;    // --physics: the Physics view on
    bool simulate = false;   // --simulate: Simulate Ragdoll once loaded
    QList<QPair<QString, float>> flex; // --flex=NAME=V
    // --flex-controller=NAME=V or NAME=L,R (a QC face's controllers, issue 32): (name, left,
    // right); right is NaN for one value.
    struct ControllerValue {
        QString name;
        float left = 0.0f;
        float right = 0.0f;
        bool stereo = false;
    };
    QList<ControllerValue> flexControllers;
    std::optional<QVector3D> lookAt;       // --look-at=X,Y,Z: where a QC face's eyes look
    QList<QPair<QString, int>> bodygroups; // --bodygroup=NAME=N (QC projects, issue 17)
    int skin = -1;                         // --skin=N (QC projects; -1 = default)
    int lod = -1;                          // --lod=N (QC projects; -1 = default)
    QString forceReader;                   // --force-reader=FMT: a reader id (empty = by content)
    QString profile; // --profile=P: auto goldsrc source source256 cod (empty = stored)
    bool portable = false;
    bool noConfig = false;
    QString config;
    bool showHelp = false;
    bool showVersion = false;
    QString helpText;
    QString error; // usage error (exit 2)
};

GuiOptions parseGuiCommandLine(const QStringList& arguments);

} // namespace rigscope::app
