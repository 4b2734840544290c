#include "app/document/command_line.h"

#include "core/diag/profile.h"
#include "core/ops/read_input.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QRegularExpression>

namespace rigscope::app {

GuiOptions parseGuiCommandLine(const QStringList& arguments)
{
    GuiOptions o;
    QCommandLineParser p;
    p.setApplicationDescription(QCoreApplication::translate(
        "main", "Viewer for SMD, VTA, SMDX and Call of Duty model sources"));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QCoreApplication::translate("main", "Show this help."));
    const QCommandLineOption version(QStringLiteral("version"),
                                     QCoreApplication::translate("main", "Show the version."));
    const QCommandLineOption shot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render one frame to OUT.png and exit."),
        QStringLiteral("OUT"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QCoreApplication::translate(
            "main", "Screenshot size WxH, or N for NxN (default 1280x720; thumbnails 256)."),
        QStringLiteral("WxH"));
    const QCommandLineOption frame(
        QStringLiteral("frame"),
        QCoreApplication::translate("main", "Frame index (negative counts from the end)."),
        QStringLiteral("N"));
    const QCommandLineOption anim(
        QStringLiteral("anim"), QCoreApplication::translate("main", "Animation (file base name)."),
        QStringLiteral("NAME"));
    const QCommandLineOption camera(
        QStringLiteral("camera"),
        QCoreApplication::translate("main", "front, right (side), top or iso."),
        QStringLiteral("VIEW"));
    const QCommandLineOption select(
        QStringLiteral("select"),
        QCoreApplication::translate("main", "Select a bone and frame the camera on it (a face, "
                                            "a hand)."),
        QStringLiteral("BONE"));
    const QCommandLineOption flex(
        QStringLiteral("flex"),
        QCoreApplication::translate("main", "Flex shape weight (repeatable)."),
        QStringLiteral("NAME=V"));
    const QCommandLineOption flexController(
        QStringLiteral("flex-controller"),
        QCoreApplication::translate("main", "A QC flexcontroller's value, run through the QC's % "
                                            "rules; NAME=L,R sets left_NAME and right_NAME "
                                            "(repeatable)."),
        QStringLiteral("NAME=V"));
    const QCommandLineOption lookAt(
        QStringLiteral("look-at"),
        QCoreApplication::translate("main", "Where a QC face's eyes look (model space)."),
        QStringLiteral("X,Y,Z"));
    const QCommandLineOption bodygroup(
        QStringLiteral("bodygroup"),
        QCoreApplication::translate("main", "QC project or compiled model: the choice N "
                                            "(0-based) of a bodygroup or bodypart (repeatable)."),
        QStringLiteral("NAME=N"));
    const QCommandLineOption skin(
        QStringLiteral("skin"),
        QCoreApplication::translate("main", "QC project or compiled model: the skin N."),
        QStringLiteral("N"));
    const QCommandLineOption lod(
        QStringLiteral("lod"),
        QCoreApplication::translate("main", "QC project: the Nth $lod (0: the models as written); "
                                            "compiled model: the .vtx LOD N."),
        QStringLiteral("N"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QCoreApplication::translate("main", "Checks profile: %1.")
                                         .arg(QString::fromStdString(core::profileChoices())
                                                  .replace(QLatin1Char('|'), QStringLiteral(", "))),
                                     QStringLiteral("P"));
    const QCommandLineOption noBg(QStringLiteral("no-background"),
                                  QCoreApplication::translate("main", "Transparent background."));
    const QCommandLineOption portable(
        QStringLiteral("portable"),
        QCoreApplication::translate("main", "Store settings beside the binary."));
    const QCommandLineOption noConfig(
        QStringLiteral("no-config"),
        QCoreApplication::translate("main", "Ignore stored settings."));
    const QCommandLineOption config(QStringLiteral("config"),
                                    QCoreApplication::translate("main", "Settings file."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption thumbnail(
        QStringLiteral("thumbnail"),
        QCoreApplication::translate(
            "main", "Thumbnailer: render IN framed, transparent, to OUT.png (rigscope "
                    "--thumbnail IN OUT.png --size N) and exit."));
    const QCommandLineOption windowShot(
        QStringLiteral("window-screenshot"),
        QCoreApplication::translate("main", "Open the window, wait for the load and its checks, "
                                            "grab the whole window to OUT.png and exit."),
        QStringLiteral("OUT"));
    // --material-root, as the CLI verbs name it; --materials is the older spelling.
    const QCommandLineOption materials(
        QStringList{QStringLiteral("material-root"), QStringLiteral("materials")},
        QCoreApplication::translate("main", "Game folder holding materials/ (repeatable; "
                                            "--materials is an alias)."),
        QStringLiteral("DIR"));
    const QCommandLineOption noTextures(
        QStringLiteral("no-textures"),
        QCoreApplication::translate("main", "Draw flat material colours, no textures."));
    const QCommandLineOption physics(
        QStringLiteral("physics"),
        QCoreApplication::translate("main", "Start with the Physics view on (the collision "
                                            "model's hulls over the model)."));
    const QCommandLineOption simulate(
        QStringLiteral("simulate"),
        QCoreApplication::translate("main", "After the load, run Simulate Ragdoll (the drop "
                                            "test) and show the model at rest."));
    const QCommandLineOption forceReader(
        QStringLiteral("force-reader"),
        QCoreApplication::translate("main", "Read every file with reader FMT (a reader id or "
                                            "extension), whatever its content."),
        QStringLiteral("FMT"));
    p.addOptions({help, version, shot, thumbnail, size, frame, anim, camera, select, flex, profile,
                  noBg, portable, noConfig, config, windowShot, materials, noTextures,
                  forceReader});
    p.addOptions({bodygroup, skin, lod, flexController, lookAt, physics, simulate});
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QCoreApplication::translate("main", "With a QC project: the Compare dock against this "
                                            "compiled model, drawn over the source."),
        QStringLiteral("MDL"));
    const QCommandLineOption ignoreTimestamps(
        QStringLiteral("ignore-timestamps"),
        QCoreApplication::translate("main", "The Compare dock leaves the files' modification "
                                            "times out (as rigscope-cli compare does)."));
    p.addOptions({compare, ignoreTimestamps});
    p.addPositionalArgument(QStringLiteral("files"),
                            QCoreApplication::translate("main", "Files to open."),
                            QStringLiteral("[FILE…]"));
    o.helpText =
        p.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("rigscope"));
    if (!p.parse(arguments)) {
        o.error = p.errorText();
        return o;
    }
    o.showHelp = p.isSet(help);
    o.showVersion = p.isSet(version);
    o.files = p.positionalArguments();
    o.screenshot = p.value(shot);
    o.windowScreenshot = p.value(windowShot);
    o.compare = p.value(compare);
    o.ignoreTimestamps = p.isSet(ignoreTimestamps);
    o.thumbnail = p.isSet(thumbnail);
    o.anim = p.value(anim);
    o.noBackground = p.isSet(noBg);
    o.materials = p.values(materials);
    o.noTextures = p.isSet(noTextures);
    o.physics = p.isSet(physics);
    o.simulate = p.isSet(simulate);
    o.portable = p.isSet(portable);
    o.noConfig = p.isSet(noConfig);
    o.config = p.value(config);
    if (p.isSet(size)) {
        const auto m = QRegularExpression(QStringLiteral("^(\\d{1,5})(?:[xX](\\d{1,5}))?$"))
                           .match(p.value(size));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
        const int h = m.hasMatch() && !m.captured(2).isEmpty() ? m.captured(2).toInt() : w;
        if (w < 16 || h < 16 || w > 8192 || h > 8192) {
            o.error =
                QCoreApplication::translate("main", "invalid --size '%1' (expected WxH or N, 16 to "
                                                    "8192)")
                    .arg(p.value(size));
            return o;
        }
        o.size = QSize(w, h);
    } else if (o.thumbnail) {
        o.size = QSize(256, 256);
    }
    if (p.isSet(frame)) {
        bool ok = false;
        const int f = p.value(frame).toInt(&ok);
        if (!ok) {
            o.error =
                QCoreApplication::translate("main", "invalid --frame '%1'").arg(p.value(frame));
            return o;
        }
        o.frame = f;
    }
    for (const QString& f : p.values(flex)) {
        const qsizetype eq = f.lastIndexOf(QLatin1Char('='));
        bool ok = false;
        const float v = eq > 0 ? f.mid(eq + 1).toFloat(&ok) : 0.0f;
        if (!ok) {
            o.error =
                QCoreApplication::translate("main", "invalid --flex '%1' (expected NAME=V)").arg(f);
            return o;
        }
        o.flex.append({f.left(eq), v});
    }
    for (const QString& f : p.values(flexController)) {
        const qsizetype eq = f.lastIndexOf(QLatin1Char('='));
        const QStringList parts = eq > 0 ? f.mid(eq + 1).split(QLatin1Char(',')) : QStringList();
        bool ok = !parts.isEmpty() && parts.size() <= 2;
        GuiOptions::ControllerValue c;
        c.name = f.left(eq);
        if (ok) {
            c.left = parts[0].toFloat(&ok);
        }
        if (ok && parts.size() == 2) {
            c.right = parts[1].toFloat(&ok);
            c.stereo = true;
        }
        if (!ok) {
            o.error = QCoreApplication::translate(
                          "main", "invalid --flex-controller '%1' (expected NAME=V or NAME=L,R)")
                          .arg(f);
            return o;
        }
        o.flexControllers.append(c);
    }
    if (p.isSet(lookAt)) {
        const QStringList xyz = p.value(lookAt).split(QLatin1Char(','));
        bool ok = xyz.size() == 3;
        QVector3D v;
        for (int i = 0; ok && i < 3; ++i) {
            v[i] = xyz[i].toFloat(&ok);
        }
        if (!ok) {
            o.error = QCoreApplication::translate("main", "invalid --look-at '%1' (expected X,Y,Z)")
                          .arg(p.value(lookAt));
            return o;
        }
        o.lookAt = v;
    }
    for (const QString& b : p.values(bodygroup)) {
        const qsizetype eq = b.lastIndexOf(QLatin1Char('='));
        bool ok = false;
        const int n = eq > 0 ? b.mid(eq + 1).toInt(&ok) : 0;
        if (!ok || n < 0) {
            o.error =
                QCoreApplication::translate("main", "invalid --bodygroup '%1' (expected NAME=N)")
                    .arg(b);
            return o;
        }
        o.bodygroups.append({b.left(eq), n});
    }
    // --skin N and --lod N: a count from 0; false with the error when it is not one.
    const auto index = [&p, &o](const QCommandLineOption& option, int& out) {
        if (!p.isSet(option)) {
            return true;
        }
        bool ok = false;
        out = p.value(option).toInt(&ok);
        if (!ok || out < 0) {
            o.error = QCoreApplication::translate("main", "invalid --%1 '%2'")
                          .arg(option.names().constFirst(), p.value(option));
            return false;
        }
        return true;
    };
    if (!index(skin, o.skin) || !index(lod, o.lod)) {
        return o;
    }
    if (p.isSet(profile)) {
        o.profile = p.value(profile).toLower();
        if (!core::parseProfile(o.profile.toStdString())) {
            o.error = QCoreApplication::translate("main", "invalid --profile '%1' (%2)")
                          .arg(o.profile, QString::fromStdString(core::profileChoices()));
            return o;
        }
    }
    if (p.isSet(forceReader)) {
        const core::FormatInfo* f = core::readerByName(p.value(forceReader).toStdString());
        if (f == nullptr) {
            o.error = QCoreApplication::translate("main", "unknown reader '%1' (readers: %2)")
                          .arg(p.value(forceReader), QString::fromStdString(core::readerNames()));
            return o;
        }
        o.forceReader = QString::fromUtf8(f->id.data(), qsizetype(f->id.size()));
    }
    o.select = p.value(select);
    if (p.isSet(camera)) {
        o.camera = p.value(camera).toLower();
        o.cameraGiven = true;
        const QStringList ok{QStringLiteral("front"), QStringLiteral("right"),
                             QStringLiteral("side"), QStringLiteral("top"), QStringLiteral("iso")};
        if (!ok.contains(o.camera)) {
            o.error = QCoreApplication::translate(
                          "main", "invalid --camera '%1' (front, right, side, top or iso)")
                          .arg(o.camera);
            return o;
        }
    }
    if (o.thumbnail) {
        if (!o.screenshot.isEmpty() || !o.windowScreenshot.isEmpty()) {
            o.error = QCoreApplication::translate(
                "main", "--thumbnail cannot be combined with --screenshot");
        } else if (o.files.size() != 2) {
            o.error = QCoreApplication::translate(
                "main", "--thumbnail needs an input file and an output PNG (IN OUT.png)");
        } else {
            o.screenshot = o.files.takeLast();
            o.noBackground = true;
        }
        return o;
    }
    if (!o.screenshot.isEmpty() && o.files.isEmpty()) {
        o.error = QCoreApplication::translate("main", "--screenshot needs at least one file");
    }
    return o;
}

} // namespace rigscope::app
