// Replays fuzz inputs without libFuzzer (GCC builds): every file named on the command line,
// or every file under the named directories, goes through LLVMFuzzerTestOneInput once.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int replayFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    // Also every prefix boundary at 1/8 steps: truncated files are normal input.
    for (std::size_t k = 1; k < 8; ++k) {
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                               bytes.size() * k / 8);
    }
    return 1;
}

} // namespace

int main(int argc, char** argv)
{
    int n = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path p(argv[i]);
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(p, ec)) {
                if (e.is_regular_file()) {
                    n += replayFile(e.path());
                }
            }
        } else if (std::filesystem::is_regular_file(p, ec)) {
            n += replayFile(p);
        }
    }
    std::printf("replayed %d inputs\n", n);
    return 0;
}
