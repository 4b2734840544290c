#include "core/io/file_buffer.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <dirent.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rigscope::core {

namespace {

// Makes the rename durable (best effort: some file systems refuse fsync on a directory).
void syncDirectoryOf(const std::string& path)
{
    const std::string dir = directoryOf(path);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

} // namespace

namespace {

// madvise over the whole pages inside [data, data + bytes).
void advisePages(const void* data, std::size_t bytes, int advice) noexcept
{
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto start = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
    const auto stop = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
    if (data && stop > start) {
        (void)::madvise(reinterpret_cast<void*>(start), stop - start, advice);
    }
}

} // namespace

void adviseHugePages(const void* data, std::size_t bytes) noexcept
{
#ifdef MADV_HUGEPAGE
    if (bytes >= (std::size_t(2) << 20)) {
        advisePages(data, bytes, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RIGSCOPE_OWN_ALLOCATOR 1 // the sanitizer's allocator, not glibc's
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define RIGSCOPE_OWN_ALLOCATOR 1
#endif
#endif

void reserveHeapForArrays(std::size_t bytes) noexcept
{
#if defined(__GLIBC__) && !defined(RIGSCOPE_OWN_ALLOCATOR) && defined(M_MMAP_THRESHOLD)
    constexpr std::size_t kMb = std::size_t(1) << 20;
    if (bytes < 8 * kMb) {
        return;
    }
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    // Arrays up to 32 MB (glibc's largest threshold) from the heap, not a mapping each; what is
    // freed stays for the next arrays unless over twice this read's size is free at the top.
    (void)::mallopt(M_MMAP_THRESHOLD, static_cast<int>(32 * kMb));
    const std::size_t keep = std::min<std::size_t>(2 * bytes, std::size_t(1) << 30);
    (void)::mallopt(M_TRIM_THRESHOLD, static_cast<int>(keep));
    // Only the main thread allocates from the heap glibc grows with sbrk (threads have their
    // own arenas, whose arrays get adviseHugePages from their callers).
    if (::gettid() != ::getpid()) {
        return;
    }
    // The free space at the heap's top: grow it to `bytes` in one step (a request just larger
    // than the top chunk makes malloc extend the heap by the request and M_TOP_PAD).
    const std::size_t top = ::mallinfo2().keepcost;
    if (top < bytes && top + kMb < 32 * kMb) {
        (void)::mallopt(M_TOP_PAD, static_cast<int>(std::min(bytes, std::size_t(1) << 30)));
        // Freed at once, it merges back into the top chunk, which is now large (volatile: the
        // compiler would drop the pair).
        void* volatile grow = ::malloc(top + kMb);
        ::free(grow);
        (void)::mallopt(M_TOP_PAD, static_cast<int>(128 * 1024)); // glibc's default
    }
    // The top chunk, now [break - keepcost, break): huge pages where whole 2 MB pages fit.
    const std::size_t room = ::mallinfo2().keepcost;
    char* const brk = static_cast<char*>(::sbrk(0));
    if (brk != reinterpret_cast<char*>(-1) && room >= 2 * kMb) {
        adviseHugePages(brk - room, room);
    }
#else
    (void)bytes;
#endif
}

// The whole 2 MB pages inside the range (all of a smaller one's 4 KB pages): a huge page given
// back in part is split into 4 KB pages, and its page table stays, so the memory, reused, would
// be faulted in 4 KB at a time; given back whole, it comes back a huge page at a time.
void releasePages(const void* data, std::size_t bytes) noexcept
{
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    if (bytes < 2 * kHuge) {
        advisePages(data, bytes, MADV_DONTNEED);
        return;
    }
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t start = (at + kHuge - 1) / kHuge * kHuge;
    const std::uintptr_t stop = (at + bytes) / kHuge * kHuge;
    (void)::madvise(reinterpret_cast<void*>(start), stop - start, MADV_DONTNEED);
}

namespace {

// read(2), retried when a signal interrupts it: bytes read, 0 at the end, -1 on an error.
ssize_t readSome(int fd, char* into, std::size_t n) noexcept
{
    for (;;) {
        const ssize_t got = ::read(fd, into, n);
        if (got >= 0 || errno != EINTR) {
            return got;
        }
    }
}

// A read error: says which file and why, drops what was read, closes the file.
FileReadResult& readFailed(FileReadResult& r, int fd, const std::string& path)
{
    r.error = "cannot read '" + path + "': " + std::strerror(errno);
    r.bytes.clear();
    ::close(fd);
    return r;
}

} // namespace

namespace {

std::atomic<FileOpenedHook> g_openedHook{nullptr};

std::int64_t nanoseconds(const timespec& t) noexcept
{
    return std::int64_t(t.tv_sec) * 1000000000 + std::int64_t(t.tv_nsec);
}

bool sameStamp(const struct stat& a, const struct stat& b) noexcept
{
    return a.st_size == b.st_size && nanoseconds(a.st_mtim) == nanoseconds(b.st_mtim) &&
           nanoseconds(a.st_ctim) == nanoseconds(b.st_ctim);
}

// The SIGBUS guard of mapped files. Touching a page of a mapping past the end of a file that
// another program truncated raises SIGBUS. The handler maps zero pages over the rest of that
// mapping (the faulting access then reads zeros) and marks it, so the parse ends on garbage that
// is thrown away and MappedFile::unchanged() reports the change. A fault outside every guarded
// mapping goes to the handler installed before (or the default action: the process dies as it
// would have). Slots are claimed and freed with atomics only; the handler reads them.
struct GuardSlot {
    std::atomic<bool> used{false};
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};
constexpr std::size_t kGuardSlots = 64;
GuardSlot g_guards[kGuardSlots];
std::uintptr_t g_pageSize = 4096;
struct sigaction g_previousSigbus {};

void onSigbus(int sig, siginfo_t* info, void* context)
{
    // A sent signal (kill, raise: si_code <= 0) has no fault address.
    const auto at = info->si_code > 0 ? reinterpret_cast<std::uintptr_t>(info->si_addr) : 0;
    for (GuardSlot& g : g_guards) {
        const std::uintptr_t begin = g.begin.load(), end = g.end.load();
        if (begin != 0 && at >= begin && at < end) {
            const std::uintptr_t from = at / g_pageSize * g_pageSize;
            void* zero = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (zero != MAP_FAILED) {
                g.faulted.store(true);
                return; // the access is retried and reads zeros
            }
        }
    }
    if ((g_previousSigbus.sa_flags & SA_SIGINFO) != 0 && g_previousSigbus.sa_sigaction) {
        g_previousSigbus.sa_sigaction(sig, info, context);
        return;
    }
    if (g_previousSigbus.sa_handler != SIG_DFL && g_previousSigbus.sa_handler != SIG_IGN &&
        g_previousSigbus.sa_handler) {
        g_previousSigbus.sa_handler(sig);
        return;
    }
    // Not ours: the default action, when the access is retried.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigemptyset(&dfl.sa_mask);
    ::sigaction(SIGBUS, &dfl, nullptr);
    ::raise(sig); // pending until the handler returns (a sent signal is not retried)
}

// Installs onSigbus unless it is the handler already (checked on every mapping: a handler
// installed later by someone else, or a child process that reset it, gets it back).
void installSigbusGuard()
{
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    struct sigaction current {};
    if (::sigaction(SIGBUS, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) != 0 &&
        current.sa_sigaction == onSigbus) {
        return;
    }
    g_pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction sa {};
    sa.sa_sigaction = onSigbus;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    ::sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previousSigbus);
}

// A free slot, or -1 when every slot is taken (the file is then read instead of mapped).
int claimGuardSlot()
{
    installSigbusGuard();
    for (std::size_t i = 0; i < kGuardSlots; ++i) {
        bool expected = false;
        if (g_guards[i].used.compare_exchange_strong(expected, true)) {
            g_guards[i].faulted.store(false);
            return static_cast<int>(i);
        }
    }
    return -1;
}

void guardRegion(int slot, const void* begin, std::size_t bytes)
{
    GuardSlot& g = g_guards[static_cast<std::size_t>(slot)];
    g.end.store(reinterpret_cast<std::uintptr_t>(begin) + bytes);
    g.begin.store(reinterpret_cast<std::uintptr_t>(begin));
}

void freeGuardSlot(int slot)
{
    GuardSlot& g = g_guards[static_cast<std::size_t>(slot)];
    g.begin.store(0);
    g.end.store(0);
    g.used.store(false);
}

} // namespace

std::string fileChangedError(const std::string& path, std::uint64_t before, std::uint64_t after)
{
    return "'" + path + "' changed while it was read (" + std::to_string(before) +
           " bytes when opened, " + std::to_string(after) +
           " now): another program is writing it; read it again when it has finished";
}

void setFileOpenedHookForTests(FileOpenedHook hook) noexcept
{
    g_openedHook.store(hook);
}

FileReadResult readFile(const std::string& path, std::uint64_t maxBytes)
{
    FileReadResult r;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.error = "cannot open '" + path + "': " + std::strerror(errno);
        return r;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        r.error = "cannot stat '" + path + "': " + std::strerror(errno);
        ::close(fd);
        return r;
    }
    if (S_ISDIR(st.st_mode)) {
        r.error = "'" + path + "' is a directory";
        ::close(fd);
        return r;
    }
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
        r.error = "'" + path + "' is larger than the limit";
        ::close(fd);
        return r;
    }
    if (const FileOpenedHook hook = g_openedHook.load()) {
        hook(path);
    }
    const std::size_t cap = st.st_size > 0 ? static_cast<std::size_t>(st.st_size) : 65536;
    r.bytes.reserve(cap);
    adviseHugePages(r.bytes.data(), cap);
    r.bytes.resize(cap);
    std::size_t got = 0;
    char probe[65536];
    for (;;) {
        // While the buffer has room, read into it. Once full, a file that grew since fstat (or
        // a pipe) is read on through a small probe, so a file of exactly the size fstat gave is
        // not doubled to find its end.
        const bool full = got == r.bytes.size();
        if (full && r.bytes.size() >= maxBytes) {
            break;
        }
        char* const into = full ? probe : r.bytes.data() + got;
        const ssize_t n = readSome(fd, into, full ? sizeof probe : r.bytes.size() - got);
        if (n < 0) {
            return readFailed(r, fd, path);
        }
        if (n == 0) {
            break;
        }
        if (full) {
            r.bytes.append(probe, static_cast<std::size_t>(n));
        }
        got += static_cast<std::size_t>(n);
    }
    r.bytes.resize(got);
    // A regular file must still be the file fstat saw: another program truncating or writing it
    // meanwhile leaves a mix of two versions (or a cut one) that no reader should parse.
    struct stat after {};
    if (S_ISREG(st.st_mode) && (::fstat(fd, &after) != 0 || !sameStamp(st, after) ||
                                got != static_cast<std::size_t>(st.st_size))) {
        r.error = fileChangedError(path, static_cast<std::uint64_t>(st.st_size),
                                   static_cast<std::uint64_t>(after.st_size));
        r.bytes.clear();
    }
    ::close(fd);
    return r;
}

MappedFile::MappedFile(const std::string& path, std::uint64_t maxBytes) : m_path(path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    const int slot = fd >= 0 ? claimGuardSlot() : -1;
    if (slot >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        static_cast<std::uint64_t>(st.st_size) <= maxBytes) {
        const auto size = static_cast<std::size_t>(st.st_size);
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t mapBytes = (size + page - 1) / page * page;
        void* map = ::mmap(nullptr, mapBytes, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            (void)::madvise(map, mapBytes, MADV_SEQUENTIAL);
            m_map = map;
            m_size = size;
            m_mapBytes = mapBytes;
            m_fd = fd;
            m_slot = slot;
            m_mtimeNs = nanoseconds(st.st_mtim);
            m_ctimeNs = nanoseconds(st.st_ctim);
            guardRegion(slot, map, mapBytes);
        }
    }
    if (!m_map) {
        if (slot >= 0) {
            freeGuardSlot(slot);
        }
        if (fd >= 0) {
            ::close(fd);
        }
        m_read = readFile(path, maxBytes);
    } else if (const FileOpenedHook hook = g_openedHook.load()) {
        hook(path);
    }
}

MappedFile::~MappedFile()
{
    release();
}

bool MappedFile::unchanged()
{
    if (!m_map) {
        return m_read.ok(); // readFile compared the stamps itself
    }
    struct stat st {};
    const bool stated = ::fstat(m_fd, &st) == 0;
    if (!stated || g_guards[static_cast<std::size_t>(m_slot)].faulted.load() ||
        static_cast<std::size_t>(st.st_size) != m_size || nanoseconds(st.st_mtim) != m_mtimeNs ||
        nanoseconds(st.st_ctim) != m_ctimeNs) {
        m_read.error = fileChangedError(m_path, m_size, static_cast<std::uint64_t>(st.st_size));
        return false;
    }
    return true;
}

void MappedFile::release() noexcept
{
    if (m_map) {
        freeGuardSlot(m_slot);
        ::munmap(m_map, m_mapBytes);
        ::close(m_fd);
        m_map = nullptr;
        m_size = m_mapBytes = 0;
        m_fd = m_slot = -1;
    }
    std::string().swap(m_read.bytes);
}

std::string writeFileAtomic(const std::string& path, std::string_view bytes, WriteMode mode)
{
    if (mode == WriteMode::RefuseExisting && fileExists(path)) {
        return "'" + path + "' exists; pass --force to overwrite it";
    }
    std::string tmpl = path + ".rigscope-XXXXXX";
    std::string buf = tmpl;
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) {
        return "cannot create a temporary file next to '" + path + "': " + std::strerror(errno);
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            std::string err = "cannot write '" + buf + "': " + std::strerror(errno);
            ::close(fd);
            ::unlink(buf.c_str());
            return err;
        }
        done += static_cast<std::size_t>(n);
    }
    // An overwritten file keeps its permission bits; a new one gets rw-r--r--.
    struct stat old {};
    const mode_t perms =
        mode == WriteMode::Overwrite && ::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)
            ? static_cast<mode_t>(old.st_mode & 07777)
            : mode_t{0644};
    ::fchmod(fd, perms);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::string err = "cannot flush '" + buf + "': " + std::strerror(errno);
        ::unlink(buf.c_str());
        return err;
    }
    if (mode == WriteMode::RefuseExisting) {
        // link() fails if the target appeared meanwhile: never clobber.
        if (::link(buf.c_str(), path.c_str()) != 0) {
            std::string err = errno == EEXIST
                                  ? "'" + path + "' exists; pass --force to overwrite it"
                                  : "cannot create '" + path + "': " + std::strerror(errno);
            ::unlink(buf.c_str());
            return err;
        }
        ::unlink(buf.c_str());
        syncDirectoryOf(path);
        return {};
    }
    if (::rename(buf.c_str(), path.c_str()) != 0) {
        std::string err = "cannot rename onto '" + path + "': " + std::strerror(errno);
        ::unlink(buf.c_str());
        return err;
    }
    syncDirectoryOf(path);
    return {};
}

FileReadResult readFileHead(const std::string& path, std::size_t maxBytes)
{
    FileReadResult r;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.error = "cannot open '" + path + "': " + std::strerror(errno);
        return r;
    }
    r.bytes.resize(maxBytes);
    std::size_t got = 0;
    while (got < maxBytes) {
        const ssize_t n = readSome(fd, r.bytes.data() + got, maxBytes - got);
        if (n < 0) {
            return readFailed(r, fd, path);
        }
        if (n == 0) {
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    r.bytes.resize(got);
    ::close(fd);
    return r;
}

bool fileExists(const std::string& path) noexcept
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

bool isDirectory(const std::string& path) noexcept
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<DirectoryEntry> listDirectory(const std::string& path, std::size_t maxEntries)
{
    std::vector<DirectoryEntry> out;
    DIR* dir = ::opendir(path.c_str());
    if (!dir) {
        return out;
    }
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        if (out.size() >= maxEntries) {
            break;
        }
        bool directory = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
            directory = isDirectory(path + "/" + name);
        }
        out.push_back({name, directory});
    }
    ::closedir(dir);
    std::sort(out.begin(), out.end(),
              [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.name < b.name; });
    return out;
}

bool fileStamp(const std::string& path, std::int64_t& mtimeNs, std::uint64_t& size) noexcept
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        return false;
    }
    mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + std::int64_t(st.st_mtim.tv_nsec);
    size = std::uint64_t(st.st_size);
    return true;
}

bool isRegularFile(const std::string& path) noexcept
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool listDirectory(const std::string& dir, std::vector<std::string>& names)
{
    names.clear();
    DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
    if (!d) {
        return false;
    }
    while (const dirent* e = ::readdir(d)) {
        const std::string_view n = e->d_name;
        if (n != "." && n != "..") {
            names.emplace_back(n);
        }
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return true;
}

bool sameFile(const std::string& a, const std::string& b) noexcept
{
    struct stat sa {
    }, sb{};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) {
        return false;
    }
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::string baseName(std::string_view path)
{
    const auto slash = path.find_last_of('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string stemName(std::string_view path)
{
    std::string b = baseName(path);
    const auto dot = b.find_last_of('.');
    if (dot != std::string::npos && dot > 0) {
        b.resize(dot);
    }
    return b;
}

std::string extensionLower(std::string_view path)
{
    std::string b = baseName(path);
    const auto dot = b.find_last_of('.');
    if (dot == std::string::npos) {
        return {};
    }
    std::string e = b.substr(dot + 1);
    for (char& c : e) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return e;
}

std::string directoryOf(std::string_view path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string_view::npos) {
        return ".";
    }
    if (slash == 0) {
        return "/";
    }
    return std::string(path.substr(0, slash));
}

} // namespace rigscope::core
