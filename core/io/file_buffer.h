#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rigscope::core {

// The only file I/O in core. Reads a whole file into memory (one allocation, sized from the
// file), and writes files atomically: a temporary file in the target folder, fsync, rename.
struct FileReadResult {
    std::string bytes;
    std::string error; // empty on success ("cannot open 'x': No such file or directory")
    bool ok() const noexcept { return error.empty(); }
};
FileReadResult readFile(const std::string& path, std::uint64_t maxBytes = (1ull << 34));

// A whole file for one read-only pass (rigscope-cli info): a regular file is mapped, so its
// bytes are the page cache's pages (no copy, no fresh memory to fault in); anything else, or a
// file that cannot be mapped, is read as readFile does. bytes() lives as long as the object.
// Another program may truncate or rewrite the file while it is mapped (an exporter saving): a
// page past the new end then reads as zeros instead of killing the process (SIGBUS), and
// unchanged() tells it, so the caller drops what it parsed and reports the change.
class MappedFile {
public:
    explicit MappedFile(const std::string& path, std::uint64_t maxBytes = (1ull << 34));
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    bool ok() const noexcept { return m_read.ok(); }
    const std::string& error() const noexcept { return m_read.error; }
    std::string_view bytes() const noexcept
    {
        return m_map ? std::string_view(static_cast<const char*>(m_map), m_size)
                     : std::string_view(m_read.bytes);
    }
    // Asked after the bytes were used: false when the file changed since it was opened (a
    // page was cut off, or its size or times differ); error() then says so (fileChangedError).
    bool unchanged();
    void release() noexcept; // gives the bytes back early

private:
    void* m_map = nullptr;
    std::size_t m_size = 0;
    std::size_t m_mapBytes = 0; // m_size rounded up to whole pages
    int m_fd = -1;              // kept open to compare its stamp after the read
    int m_slot = -1;            // the SIGBUS guard's slot of this mapping
    std::int64_t m_mtimeNs = 0;
    std::int64_t m_ctimeNs = 0;
    std::string m_path;
    FileReadResult m_read; // when not mapped
};
// "'PATH' changed while it was read (N bytes when opened, M now): ..." — the error of readFile
// and MappedFile::unchanged when another program wrote the file meanwhile.
std::string fileChangedError(const std::string& path, std::uint64_t before, std::uint64_t after);
// Tests only: called with the path after a file is opened (and mapped) and before its bytes are
// read, so a test can change the file at that moment. nullptr (the default) for none.
using FileOpenedHook = void (*)(const std::string& path);
void setFileOpenedHookForTests(FileOpenedHook hook) noexcept;
// The first `maxBytes` of a file (all of it when smaller), for reading headers.
FileReadResult readFileHead(const std::string& path, std::size_t maxBytes);

// Asks the kernel to back [data, data + bytes) with transparent huge pages when it is large
// (>= 2 MB) and not yet touched: fewer page faults for big buffers and model arrays (the 2 MB
// pages wholly inside the range; its unaligned ends stay 4 KB pages). A hint only.
void adviseHugePages(const void* data, std::size_t bytes) noexcept;
// Makes room for about `bytes` of large arrays about to be allocated on this thread in one
// region of the heap that the kernel may back with transparent huge pages (issue 27 item 10):
// arrays up to 32 MB then come from that region, side by side, instead of from a mapping each
// (whose unaligned ends are 4 KB pages: ~500 faults an array), and what is freed later stays in
// the heap for the next arrays (the checks' tables) instead of being unmapped and faulted in
// afresh. A hint: glibc only, nothing under a sanitizer or below 8 MB. Address space is
// reserved, not memory: pages never written cost nothing.
void reserveHeapForArrays(std::size_t bytes) noexcept;
// Gives the whole pages inside [data, data + bytes) back to the system (their contents are
// lost; the allocation stays valid). For arrays about to be freed that the allocator may keep.
void releasePages(const void* data, std::size_t bytes) noexcept;

enum class WriteMode { RefuseExisting, Overwrite };
// Writes `bytes` to `path` through `path.rigscope-XXXXXX` + rename. Refuses to overwrite an
// existing file unless mode is Overwrite. Returns an error message, empty on success. A failed
// write leaves any existing file untouched.
std::string writeFileAtomic(const std::string& path, std::string_view bytes, WriteMode mode);

bool fileExists(const std::string& path) noexcept;
bool isDirectory(const std::string& path) noexcept;
// Names (not paths) of the entries of a folder, sorted, "." and ".." left out; at most
// `maxEntries`. Empty when it cannot be listed.
struct DirectoryEntry {
    std::string name;
    bool directory = false;
};
std::vector<DirectoryEntry> listDirectory(const std::string& path, std::size_t maxEntries = 100000);
// Modification time in nanoseconds since the epoch and size; false when the file is absent.
bool fileStamp(const std::string& path, std::int64_t& mtimeNs, std::uint64_t& size) noexcept;
bool isRegularFile(const std::string& path) noexcept;
// Names of the entries of a folder ("." and ".." left out), sorted. False when it cannot be
// listed. Used for case-insensitive lookups (QC projects written on Windows).
bool listDirectory(const std::string& dir, std::vector<std::string>& names);
// True when both paths name the same existing file (same device and inode).
bool sameFile(const std::string& a, const std::string& b) noexcept;
std::string baseName(std::string_view path);       // "dir/idle.smd" -> "idle.smd"
std::string stemName(std::string_view path);       // "dir/idle.smd" -> "idle"
std::string extensionLower(std::string_view path); // "dir/idle.SMD" -> "smd"
std::string directoryOf(std::string_view path);    // "dir/idle.smd" -> "dir" ("." if none)

} // namespace rigscope::core
