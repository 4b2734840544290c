#pragma once

#include <string>

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtGui/QImage>

namespace rigscope::render {

// Loads BMP and PNG through QImage and TGA (uncompressed or RLE; 8/16/24/32-bit true colour,
// 8-bit grey) with our own decoder, since Debian's Qt has no TGA plugin. Null on failure.
QImage loadTextureImage(const QString& path);

// File names to try for a material (FORMATS.md §1.7): the raw name, then its base name with
// .tga/.bmp/.png. For CoD `images` strings, the colour map.
QStringList textureCandidates(const std::string& materialName, const std::string& images);

// Looks for the candidates in each folder, file names compared case-insensitively. Empty when
// nothing is found.
QString findTexture(const std::string& materialName, const std::string& images,
                    const QStringList& folders);

} // namespace rigscope::render
