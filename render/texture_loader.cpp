#include "render/texture_loader.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QCache>
#include <QtCore/QDateTime>
#include <QtCore/QMutex>
#include <QtCore/QRegularExpression>
#include <QtGui/QImageReader>

#include <algorithm>
#include <cstring>

#include "core/io/file_buffer.h"
#include "core/materials/material_lookup.h"
#include "core/materials/vtf.h"
#include "core/ops/check.h"

namespace rigscope::render {

namespace {

// TGA stays on this decoder: Qt 6.4's TGA plugin reads only uncompressed true-colour files that
// end with a TGA 2.0 footer (no RLE, no grey), and most exporters write neither.
QImage decodeTga(const QByteArray& data)
{
    const auto* b = reinterpret_cast<const unsigned char*>(data.constData());
    const qsizetype n = data.size();
    if (n < 18) {
        return {};
    }
    const int idLength = b[0];
    const int colorMapType = b[1];
    const int type = b[2];
    const int width = b[12] | (b[13] << 8);
    const int height = b[14] | (b[15] << 8);
    const int bpp = b[16];
    const int descriptor = b[17];
    const bool rle = type == 10 || type == 11;
    const bool grey = type == 3 || type == 11;
    if (colorMapType != 0 || !(type == 2 || type == 3 || type == 10 || type == 11) || width <= 0 ||
        height <= 0 || width > 16384 || height > 16384) {
        return {};
    }
    const int bytes = bpp / 8;
    if (grey ? bpp != 8 : (bpp != 16 && bpp != 24 && bpp != 32)) {
        return {};
    }
    qsizetype pos = 18 + idLength;
    QImage img(width, height, QImage::Format_ARGB32);
    const qsizetype pixels = qsizetype(width) * height;
    auto readPixel = [&](QRgb& out) -> bool {
        if (pos + bytes > n) {
            return false;
        }
        const unsigned char* p = b + pos;
        pos += bytes;
        if (grey) {
            out = qRgb(p[0], p[0], p[0]);
        } else if (bytes == 2) {
            const int v = p[0] | (p[1] << 8);
            out =
                qRgb(((v >> 10) & 31) * 255 / 31, ((v >> 5) & 31) * 255 / 31, (v & 31) * 255 / 31);
        } else if (bytes == 3) {
            out = qRgb(p[2], p[1], p[0]);
        } else {
            out = qRgba(p[2], p[1], p[0], p[3]);
        }
        return true;
    };
    auto store = [&](qsizetype i, QRgb c) {
        const int x = int(i % width);
        const int row = int(i / width);
        const int y = (descriptor & 0x20) ? row : height - 1 - row; // bottom-up unless bit 5
        img.setPixel((descriptor & 0x10) ? width - 1 - x : x, y, c);
    };
    qsizetype i = 0;
    while (i < pixels) {
        if (!rle) {
            QRgb c;
            if (!readPixel(c)) {
                return {};
            }
            store(i++, c);
            continue;
        }
        if (pos >= n) {
            return {};
        }
        const int header = b[pos++];
        const int count = (header & 0x7f) + 1;
        if (header & 0x80) {
            QRgb c;
            if (!readPixel(c)) {
                return {};
            }
            for (int k = 0; k < count && i < pixels; ++k) {
                store(i++, c);
            }
        } else {
            for (int k = 0; k < count && i < pixels; ++k) {
                QRgb c;
                if (!readPixel(c)) {
                    return {};
                }
                store(i++, c);
            }
        }
    }
    return img;
}

QString fromUtf8OrLatin1(const std::string& s)
{
    const QString u = QString::fromUtf8(s.data(), qsizetype(s.size()));
    return u.contains(QChar::ReplacementCharacter)
               ? QString::fromLatin1(s.data(), qsizetype(s.size()))
               : u;
}

QImage loadUncached(const QString& path, int maxSide)
{
    if (path.endsWith(QStringLiteral(".vtf"), Qt::CaseInsensitive)) {
        const core::FileReadResult f = core::readFile(path.toStdString(), 1ull << 30);
        if (!f.ok()) {
            return {};
        }
        const core::VtfReadResult r =
            core::readVtf(std::as_bytes(std::span(f.bytes)), std::uint32_t(std::max(1, maxSide)));
        if (!r.ok()) {
            return {};
        }
        QImage img(int(r.image.width), int(r.image.height), QImage::Format_RGBA8888);
        for (int y = 0; y < img.height(); ++y) {
            std::memcpy(img.scanLine(y), r.image.pixels.data() + std::size_t(y) * r.image.width * 4,
                        std::size_t(r.image.width) * 4);
        }
        return img;
    }
    if (path.endsWith(QStringLiteral(".tga"), Qt::CaseInsensitive)) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return {};
        }
        QImage img = decodeTga(f.readAll());
        if (!img.isNull() && (img.width() > maxSide || img.height() > maxSide)) {
            img =
                img.scaled(QSize(maxSide, maxSide), Qt::KeepAspectRatio, Qt::SmoothTransformation);
        }
        return img;
    }
    QImageReader reader(path);
    reader.setDecideFormatFromContent(true);
    const QSize size = reader.size();
    if (size.isValid() && (size.width() > maxSide || size.height() > maxSide)) {
        reader.setScaledSize(size.scaled(maxSide, maxSide, Qt::KeepAspectRatio));
    }
    return reader.read();
}

struct TextureCache {
    QMutex mutex;
    QCache<QString, QImage> images{256 << 20}; // cost = bytes
};

TextureCache& cache()
{
    static TextureCache c;
    return c;
}

} // namespace

QImage loadTextureImage(const QString& path, int maxSide)
{
    const QFileInfo fi(path);
    if (!fi.isFile()) {
        return {};
    }
    const QString key = path + QLatin1Char('|') +
                        QString::number(fi.lastModified().toMSecsSinceEpoch()) + QLatin1Char('|') +
                        QString::number(fi.size()) + QLatin1Char('|') + QString::number(maxSide);
    {
        QMutexLocker lock(&cache().mutex);
        if (const QImage* hit = cache().images.object(key)) {
            return *hit;
        }
    }
    QImage img = loadUncached(path, maxSide);
    if (!img.isNull()) {
        QMutexLocker lock(&cache().mutex);
        cache().images.insert(key, new QImage(img),
                              int(std::min<qsizetype>(img.sizeInBytes(), 1 << 30)));
    }
    return img;
}

QImage checkerboardImage()
{
    QImage img(64, 64, QImage::Format_RGB32);
    for (int y = 0; y < 64; ++y) {
        for (int x = 0; x < 64; ++x) {
            img.setPixel(x, y, ((x / 16) + (y / 16)) % 2 ? qRgb(0, 0, 0) : qRgb(255, 0, 255));
        }
    }
    return img;
}

QStringList modelTextureFolders(const QString& modelPath, const QStringList& materialRoots)
{
    QStringList out;
    if (!modelPath.isEmpty()) {
        const QDir dir = QFileInfo(modelPath).absoluteDir();
        out << dir.absolutePath() << dir.filePath(QStringLiteral("textures"))
            << dir.filePath(QStringLiteral("../textures"))
            << dir.filePath(QStringLiteral("../materials"))
            << dir.filePath(QStringLiteral("../maps"));
    }
    out << materialRoots;
    if (!modelPath.isEmpty()) {
        for (const core::MaterialRoot& r : core::discoverMaterialRoots(modelPath.toStdString())) {
            out << QDir(QString::fromStdString(r.path)).absolutePath();
        }
    }
    out.removeDuplicates();
    return out;
}

QStringList sourceRoots(const QStringList& folders)
{
    QStringList out;
    for (const QString& f : folders) {
        const QDir dir(f);
        if (!dir.exists()) {
            continue;
        }
        for (const QString& e : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (e.compare(QStringLiteral("materials"), Qt::CaseInsensitive) == 0) {
                const QString abs = dir.absolutePath();
                if (!out.contains(abs)) {
                    out << abs;
                }
                break;
            }
        }
    }
    return out;
}

MaterialSources::MaterialSources(const QStringList& imageFolders) : folders(imageFolders)
{
    for (const QString& r : sourceRoots(imageFolders)) {
        query.roots.push_back({r.toStdString(), "texture folders"});
    }
}

MaterialSources materialSourcesFor(const QString& modelPath, const QStringList& materialRoots,
                                   const std::vector<std::string>* cdMaterials, bool sourceProfile)
{
    MaterialSources out;
    out.folders = modelTextureFolders(modelPath, materialRoots);
    if (!sourceProfile) {
        return out;
    }
    core::CheckOptions opt;
    for (const QString& r : materialRoots) {
        opt.materialRoots.push_back(r.toStdString());
    }
    opt.discoverMaterialRoots = !modelPath.isEmpty();
    if (cdMaterials) {
        opt.cdMaterials = *cdMaterials;
        opt.materialsFromQc = true;
    }
    out.query = core::materialQueryFor(modelPath.toStdString(), opt);
    return out;
}

MaterialLook lookUpMaterial(const core::Material& material, const QStringList& folders,
                            core::MaterialResolver* resolver)
{
    MaterialLook look;
    if (resolver) {
        const core::MaterialStatus st = resolver->resolve(material.name);
        look.source = true;
        look.found = st.found;
        look.byNameAlone = st.byNameAlone;
        for (const std::string& s : st.searched) {
            look.searched << QString::fromStdString(s);
        }
        if (st.found) {
            look.vmtPath = QString::fromStdString(st.vmtPath);
            look.shader = QString::fromStdString(st.vmt.shader);
            look.baseTexture = QString::fromStdString(st.look.baseTexture);
            look.texturePath = QString::fromStdString(st.baseTexturePath);
            look.checkerboard = st.baseTextureMissing || !st.vmt.readable;
            look.alphaTest = st.look.alphaTest;
            look.alphaReference = st.look.alphaTestReference;
            look.translucent = st.look.translucent;
            look.additive = st.look.additive;
            look.noCull = st.look.noCull;
            look.fullbright = st.look.selfIllum;
            look.tint = QColor::fromRgbF(std::clamp(st.look.color[0], 0.0f, 1.0f),
                                         std::clamp(st.look.color[1], 0.0f, 1.0f),
                                         std::clamp(st.look.color[2], 0.0f, 1.0f));
            return look;
        }
    }
    look.texturePath = findTexture(material.name, material.images, folders);
    // With Source roots, a material with no VMT is the checkerboard even when an image file of
    // its name lies next to the model (the game never reads those).
    if (look.source) {
        look.checkerboard = true;
        look.texturePath.clear();
    }
    return look;
}

QStringList textureCandidates(const std::string& materialName, const std::string& images)
{
    QStringList out;
    auto addWithStem = [&](const QString& raw) {
        if (raw.isEmpty()) {
            return;
        }
        QString name = raw;
        name.replace(QLatin1Char('\\'), QLatin1Char('/'));
        out << name;
        const QString file = name.section(QLatin1Char('/'), -1);
        if (file != name) {
            out << file;
        }
        const QString stem =
            QFileInfo(file).completeBaseName().isEmpty()
                ? file
                : (file.contains(QLatin1Char('.')) ? file.left(file.lastIndexOf(QLatin1Char('.')))
                                                   : file);
        for (const auto* ext : {".tga", ".bmp", ".png"}) {
            out << stem + QLatin1String(ext);
        }
    };
    if (!images.empty()) {
        const QString img = fromUtf8OrLatin1(images);
        const QStringList items =
            img.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        const QRegularExpression keyed(QStringLiteral("^([A-Za-z0-9_]{2,}):(.+)$"));
        bool allKeyed = !items.isEmpty();
        for (const QString& it : items) {
            allKeyed = allKeyed && keyed.match(it).hasMatch();
        }
        if (allKeyed) {
            for (const QString& it : items) {
                const auto m = keyed.match(it);
                const QString key = m.captured(1).toLower();
                if (key == u"color" || key == u"colour" || key == u"diffuse" || key == u"col") {
                    addWithStem(m.captured(2));
                }
            }
        } else {
            addWithStem(img);
        }
    }
    addWithStem(fromUtf8OrLatin1(materialName));
    out.removeDuplicates();
    return out;
}

QString findTexture(const std::string& materialName, const std::string& images,
                    const QStringList& folders)
{
    const QStringList candidates = textureCandidates(materialName, images);
    for (const QString& folder : folders) {
        QDir dir(folder);
        if (!dir.exists()) {
            continue;
        }
        const QStringList entries = dir.entryList(QDir::Files);
        for (const QString& cand : candidates) {
            if (cand.contains(QLatin1Char('/'))) {
                const QString full = dir.filePath(cand);
                if (QFileInfo::exists(full)) {
                    return full;
                }
                continue;
            }
            for (const QString& e : entries) {
                if (e.compare(cand, Qt::CaseInsensitive) == 0) {
                    return dir.filePath(e);
                }
            }
        }
    }
    return {};
}

} // namespace rigscope::render
