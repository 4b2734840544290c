#include "render/texture_loader.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QHash>
#include <QtCore/QCache>
#include <QtCore/QDateTime>
#include <QtCore/QMutex>
#include <QtCore/QRegularExpression>
#include <QtCore/QWaitCondition>
#include <QtGui/QImageReader>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <stb_image.h>

#include "core/io/file_buffer.h"
#include "core/materials/dds.h"
#include "core/materials/material_lookup.h"
#include "core/materials/vtf.h"
#include "core/text/ascii.h"
#include "core/ops/check.h"

namespace rigscope::render {

namespace {

constexpr int kMaxImageSide = 16384;

// The decoded pixels become the image's own, not copied: a texture is decoded on a worker
// thread and its memory comes and goes in bursts of hundreds (issue 18, memory).
QImage fromRgba(core::RgbaImage&& rgba)
{
    if (rgba.empty() || rgba.pixels.size() < std::size_t(rgba.width) * rgba.height * 4) {
        return {};
    }
    auto* pixels = new std::vector<std::uint8_t>(std::move(rgba.pixels));
    return QImage(
        pixels->data(), int(rgba.width), int(rgba.height), qsizetype(rgba.width) * 4,
        QImage::Format_RGBA8888, [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); },
        pixels);
}

// What Qt 6.4's TGA plugin accepts (it warns on anything else): uncompressed true colour (type
// 2) with the TGA 2.0 footer.
bool qtReadsTga(const QByteArray& data)
{
    static constexpr char kFooter[] = "TRUEVISION-XFILE.";
    return data.size() > 44 && data[2] == 2 &&
           data.endsWith(QByteArray(kFooter, sizeof kFooter)); // with the final NUL
}

// stb_image fills a cut TGA with black: a truncated file must fail instead. True when the
// pixel data (raw, or run-length packets walked without decoding) fits in the file.
bool tgaComplete(const QByteArray& data)
{
    const auto* b = reinterpret_cast<const unsigned char*>(data.constData());
    const qint64 size = data.size();
    if (size < 18) {
        return false;
    }
    const int type = b[2];
    const qint64 mapEntries = b[5] | (b[6] << 8);
    const qint64 mapBytes = b[1] ? mapEntries * ((b[7] + 7) / 8) : 0;
    const qint64 pixels = qint64(b[12] | (b[13] << 8)) * (b[14] | (b[15] << 8));
    const qint64 pixelBytes = (b[16] + 7) / 8;
    qint64 pos = 18 + b[0] + mapBytes;
    if (type < 9) {
        return pos + pixels * pixelBytes <= size;
    }
    for (qint64 done = 0; done < pixels;) {
        if (pos >= size) {
            return false;
        }
        const int header = b[pos];
        const int count = (header & 0x7f) + 1;
        pos += 1 + ((header & 0x80) ? pixelBytes : count * pixelBytes);
        done += count;
    }
    return pos <= size;
}

// Qt 6.4's TGA plugin reads only uncompressed true-colour files ending with a TGA 2.0 footer;
// the rest (RLE, grey, colour-mapped, no footer: what most exporters write) goes to stb_image
// (Debian libstb), its size checked before anything is decoded.
QImage decodeWithStb(const QByteArray& data)
{
    const auto* bytes = reinterpret_cast<const stbi_uc*>(data.constData());
    const int len = int(std::min<qsizetype>(data.size(), std::numeric_limits<int>::max()));
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(bytes, len, &w, &h, &comp) || w <= 0 || h <= 0 ||
        w > kMaxImageSide || h > kMaxImageSide) {
        return {};
    }
    // A run-length packet of 1 + 1 bytes holds at most 128 pixels: more pixels than that from
    // the file's size is a lie, refused before stb allocates for it.
    const qint64 count = qint64(w) * h;
    if (count > 64 * qint64(len) || count * 4 > (qint64(1) << 28)) {
        return {};
    }
    stbi_uc* pixels = stbi_load_from_memory(bytes, len, &w, &h, &comp, 4);
    if (!pixels) {
        return {};
    }
    QImage img(w, h, QImage::Format_RGBA8888);
    for (int y = 0; y < h; ++y) {
        std::memcpy(img.scanLine(y), pixels + std::size_t(y) * std::size_t(w) * 4,
                    std::size_t(w) * 4);
    }
    stbi_image_free(pixels);
    return img;
}

QString fromUtf8OrLatin1(const std::string& s)
{
    const QString u = QString::fromUtf8(s.data(), qsizetype(s.size()));
    return u.contains(QChar::ReplacementCharacter)
               ? QString::fromLatin1(s.data(), qsizetype(s.size()))
               : u;
}

QImage loadUncached(const QString& path, int maxSide, bool masked)
{
    const bool vtf = path.endsWith(QStringLiteral(".vtf"), Qt::CaseInsensitive);
    const bool dds = path.endsWith(QStringLiteral(".dds"), Qt::CaseInsensitive);
    if (vtf || dds) {
        const core::FileReadResult f = core::readFile(path.toStdString(), 1ull << 30);
        if (!f.ok()) {
            return {};
        }
        const auto bytes = std::as_bytes(std::span(f.bytes));
        const auto side = std::uint32_t(std::max(1, maxSide));
        if (vtf) {
            core::VtfReadResult r = core::readVtf(bytes, side);
            return r.ok() ? fromRgba(std::move(r.image)) : QImage();
        }
        core::DdsReadResult r = core::readDds(bytes, side);
        return r.ok() ? fromRgba(std::move(r.image)) : QImage();
    }
    QImage img;
    if (path.endsWith(QStringLiteral(".tga"), Qt::CaseInsensitive)) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly) || f.size() >= (qint64(1) << 30)) {
            return {};
        }
        const QByteArray data = f.readAll();
        if (qtReadsTga(data)) {
            img = QImage::fromData(data, "TGA");
        }
        if (img.isNull() && tgaComplete(data)) {
            img = decodeWithStb(data);
        }
    } else {
        QImageReader reader(path);
        reader.setDecideFormatFromContent(true);
        img = reader.read();
    }
    if (img.isNull()) {
        return img;
    }
    // GoldSrc $texrendermode masked: the last palette entry (index 255) is transparent.
    if (masked && img.format() == QImage::Format_Indexed8) {
        QList<QRgb> table = img.colorTable();
        if (table.size() < 256) {
            table.resize(256, qRgb(0, 0, 0));
        }
        table[255] = qRgba(0, 0, 0, 0);
        img.setColorTable(table);
        img = img.convertToFormat(QImage::Format_ARGB32);
    }
    if (img.width() > maxSide || img.height() > maxSide) {
        img = img.scaled(QSize(maxSide, maxSide), Qt::KeepAspectRatio, Qt::SmoothTransformation);
    }
    return img;
}

// Recently decoded images, for a model opened again (reload, profile change) and the Texture /
// UV view. Small: the viewport's textures live in Qt3D's OpenGL textures, which do not share
// pixels with these, so every cached texture of the shown model is held twice (issue 18's
// memory figures, docs/materials.md); a cache as large as the model's textures made it so.
struct TextureCache {
    QMutex mutex;
    QCache<QString, QImage> images{64 << 20}; // cost = bytes
};

TextureCache& cache()
{
    static TextureCache c;
    return c;
}

} // namespace

namespace {

struct DecodeGate {
    QMutex mutex;
    QWaitCondition opened;
    bool held = false;
};

DecodeGate& gate()
{
    static DecodeGate g;
    return g;
}

} // namespace

void holdTextureDecoding(bool hold)
{
    QMutexLocker lock(&gate().mutex);
    gate().held = hold;
    if (!hold) {
        gate().opened.wakeAll();
    }
}

void waitWhileTextureDecodingHeld()
{
    QMutexLocker lock(&gate().mutex);
    while (gate().held) {
        gate().opened.wait(&gate().mutex);
    }
}

namespace {

struct EmbeddedRegistry {
    QMutex mutex;
    QHash<QString, QImage> images;
};

EmbeddedRegistry& embeddedRegistry()
{
    static EmbeddedRegistry r;
    return r;
}

const QString kEmbeddedScheme = QStringLiteral("embedded:");

} // namespace

QString registerEmbeddedTexture(const QString& modelPath, const QString& name, const QImage& image)
{
    const QString key = kEmbeddedScheme + modelPath + QLatin1Char('|') + name;
    QMutexLocker lock(&embeddedRegistry().mutex);
    embeddedRegistry().images.insert(key, image);
    return key;
}

bool isEmbeddedTexturePath(const QString& path)
{
    return path.startsWith(kEmbeddedScheme);
}

QImage loadTextureImage(const QString& path, int maxSide, bool masked)
{
    if (isEmbeddedTexturePath(path)) {
        QImage img;
        {
            QMutexLocker lock(&embeddedRegistry().mutex);
            img = embeddedRegistry().images.value(path);
        }
        if (masked && img.format() == QImage::Format_Indexed8 && img.colorCount() == 256) {
            QList<QRgb> colors = img.colorTable();
            colors[255] = qRgba(0, 0, 0, 0); // GoldSrc masked: index 255 is transparent
            img.setColorTable(colors);
        }
        img = img.convertToFormat(QImage::Format_ARGB32);
        if (!img.isNull() && std::max(img.width(), img.height()) > maxSide) {
            img = img.scaled(maxSide, maxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        }
        return img;
    }
    const QFileInfo fi(path);
    if (!fi.isFile()) {
        return {};
    }
    const QString key = path + QLatin1Char('|') +
                        QString::number(fi.lastModified().toMSecsSinceEpoch()) + QLatin1Char('|') +
                        QString::number(fi.size()) + QLatin1Char('|') + QString::number(maxSide) +
                        (masked ? QStringLiteral("|masked") : QString());
    {
        QMutexLocker lock(&cache().mutex);
        if (const QImage* hit = cache().images.object(key)) {
            return *hit;
        }
    }
    QImage img = loadUncached(path, maxSide, masked);
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
            << dir.filePath(QStringLiteral("../maps"))
            << dir.filePath(QStringLiteral("images")) // CoD: images/ beside the model's files
            << dir.filePath(QStringLiteral("../images"));
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
    out.sourceWanted = true;
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
    if (out.query.roots.empty() && !modelPath.isEmpty()) {
        for (const std::string& r : core::nearbyMaterialRoots(modelPath.toStdString())) {
            out.offeredRoots << QDir(QString::fromStdString(r)).absolutePath();
        }
    }
    return out;
}

void addQcTextureSettings(MaterialSources& sources, const core::QcProject& project,
                          const std::vector<core::QcTexture>& textures)
{
    QStringList cd;
    for (const std::string& f : core::qcTextureFolders(project)) {
        cd << QDir::cleanPath(
            QFileInfo(QString::fromStdString(f.empty() ? "." : f)).absoluteFilePath());
    }
    sources.folders = cd + sources.folders;
    sources.folders.removeDuplicates();
    sources.renderModes = project.texRenderModes;
    for (const core::QcTexture& t : textures) {
        sources.qcTextures.emplace_back(t.name, QString::fromStdString(t.resolved));
    }
}

MaterialLook lookUpMaterial(const core::Material& material, const MaterialSources& sources,
                            core::MaterialResolver* resolver)
{
    const QStringList& folders = sources.folders;
    MaterialLook look;
    for (const MaterialSources::Embedded& e : sources.embedded) {
        if (core::asciiIEquals(e.name, material.name)) { // the model file's own texture
            look.texturePath = e.path;
            look.flatShade = (e.flags & 0x1) != 0;
            look.fullbright = (e.flags & 0x4) != 0;
            look.additive = (e.flags & 0x20) != 0;
            look.masked = (e.flags & 0x40) != 0;
            return look;
        }
    }
    if (resolver) {
        const core::MaterialStatus st = resolver->resolve(material.name);
        look.source = true;
        look.found = st.found;
        look.byNameAlone = st.byNameAlone;
        look.fromQc = resolver->query().fromQc;
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
    look.notLookedUp = !resolver && sources.notLookedUp();
    const auto qc =
        std::find_if(sources.qcTextures.begin(), sources.qcTextures.end(),
                     [&](const auto& t) { return core::asciiIEquals(t.first, material.name); });
    look.texturePath = qc != sources.qcTextures.end()
                           ? qc->second
                           : findTexture(material.name, material.images, folders);
    // With Source roots, a material with no VMT is the checkerboard even when an image file of
    // its name lies next to the model (the game never reads those).
    if (look.source) {
        look.checkerboard = true;
        look.texturePath.clear();
        return look;
    }
    // GoldSrc $texrendermode: the texture's file name, compared without case.
    const QString file = QString::fromStdString(material.name)
                             .replace(QLatin1Char('\\'), QLatin1Char('/'))
                             .section(QLatin1Char('/'), -1);
    for (const auto& [texture, mode] : sources.renderModes) {
        const QString t = QString::fromStdString(texture)
                              .replace(QLatin1Char('\\'), QLatin1Char('/'))
                              .section(QLatin1Char('/'), -1);
        if (t.compare(file, Qt::CaseInsensitive) != 0) {
            continue;
        }
        if (mode == "masked") {
            look.masked = true;
            look.alphaTest = true;
            look.alphaReference = 0.5f;
        } else if (mode == "additive") {
            look.additive = true;
        } else if (mode == "fullbright") {
            look.fullbright = true;
        } else if (mode == "flatshade") {
            look.flatShade = true;
        }
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
        for (const auto* ext : {".tga", ".bmp", ".png", ".dds"}) {
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
