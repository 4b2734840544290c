#include "render/texture_loader.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>

namespace rigscope::render {

namespace {

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

} // namespace

QImage loadTextureImage(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray data = f.readAll();
    if (path.endsWith(QStringLiteral(".tga"), Qt::CaseInsensitive)) {
        return decodeTga(data);
    }
    QImage img;
    img.loadFromData(data);
    return img;
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
