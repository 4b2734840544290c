#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/formats/qc/qc_reader.h"

namespace rigscope::core {

// The disk, through core/io/file_buffer (the only file I/O in core). Folder listings are cached
// for the case-insensitive fallback.
class DiskQcFileSystem final : public QcFileSystem {
public:
    std::string find(const std::string& dir, const std::string& relative,
                     bool& caseMismatch) override;
    bool read(const std::string& path, std::string& bytes, std::string& error) override;

private:
    const std::vector<std::string>* listing(const std::string& dir);
    std::map<std::string, std::vector<std::string>> m_listings;
    std::map<std::string, bool> m_listed;
};

// Finds every file of the project that is not an include (includes are found while reading) as
// studiomdl would: in the $cd / $pushd folder in force, then the QC's folder, then the naming
// script's folder; a name without an extension is tried as `.smd` then `.dmx`; `\` and `/`
// both separate; a case-insensitive match is used with a qc.case-mismatch note. Each file
// found nowhere is a qc.missing-file error at the line naming it (once per line and path).
void resolveQcFiles(QcProject& project, QcFileSystem& fs);

// Reads `path`, pre-processes it, and resolves its files on disk.
struct QcLoadResult {
    bool readable = false;
    std::string ioError;
    QcProject project;
};
QcLoadResult loadQcProject(const std::string& path, Profile profile = Profile::Auto);
// The same through any file system (tests, fuzzing): `path` must be known to `fs`.
QcLoadResult loadQcProject(const std::string& path, Profile profile, QcFileSystem& fs);

// True for `.qc` / `.qci` names (any case).
bool isQcPath(std::string_view path);

} // namespace rigscope::core
