#pragma once

// What the XMODEL and XANIM grammars share (CRTP base of XmodelParser and XanimParser): reading
// records with a cut last line noted for syntax.truncated, counts, and reading one large block
// of a text file in shares on threads with the same grammar, spliced in file order.
//
// `Derived` provides: dispatch(r), expectedArgs(r), sawHeader(), integrityAtEof(), finish();
// for shares (unless kShares is false): splitsAfter(r) (the record after which the rest of the file
// is offered to threads), shareStart(from, end, kind) (a guessed record start after `from`, its
// kind), ShareStart startState(kind) (what reading in order must have at a share's start; the
// share's parser begins with it through beginShare(state)), shareReads(r) (Read, Stop before it, or
// Fail) and splice(share, lineBase) (appends the share's arrays and takes on its state).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_record.h"
#include "core/formats/registry.h"
#include "core/io/file_buffer.h"
#include "core/model/model.h"

namespace rigscope::core::cod {

struct Count {
    std::optional<std::int64_t> value;
    SourceLoc loc;
};

// A count as a number of items: 0 when not read or negative.
inline std::size_t countOf(const Count& c) noexcept
{
    return static_cast<std::size_t>(std::max<std::int64_t>(0, c.value.value_or(0)));
}

enum class ShareRead : std::uint8_t { Read, Stop, Fail };

// Room for `n` more items; with `hugePages`, large arrays get the huge-page hint (for room that
// will be filled: a hinted page is cleared whole at its first touch).
template <class V> void reserveMore(V& v, std::size_t n, bool hugePages = true)
{
    if (n > 0 && v.capacity() < v.size() + n) {
        v.reserve(v.size() + n);
        if (hugePages) {
            adviseHugePages(v.data(), v.capacity() * sizeof(v[0]));
        }
    }
}

// Appends a share's array to the reader's, each item through `fix`, and frees it at once (so
// splicing never holds two copies of more than one array).
template <class T, class Fix = std::identity>
void appendShare(std::vector<T>& to, std::vector<T>& from, Fix fix = {})
{
    if constexpr (std::is_same_v<Fix, std::identity>) {
        to.insert(to.end(), from.begin(), from.end());
    } else {
        reserveMore(to, from.size());
        for (const T& x : from) {
            to.push_back(fix(x));
        }
    }
    std::vector<T>().swap(from);
}

// A location read by a share (lines counted from its start) counted from the file's start.
inline SourceLoc shifted(SourceLoc l, std::uint32_t lineBase) noexcept
{
    l.line += l.line != 0 ? lineBase : 0;
    return l;
}

template <class Derived> class RecordParser {
public:
    RecordParser(DiagnosticSink& sink, Model& m, std::uint64_t limit)
        : m_sink(sink), m_model(m), m_limit(limit)
    {
    }

    // Large blocks of a text file are read in shares on threads.
    void allowShares(const ReadContext& ctx) noexcept { m_ctx = &ctx; }
    std::uint32_t sharesKept() const noexcept { return m_sharesKept; }

    // False when the file's first keyword never came (not this format).
    template <class Source> bool run(Source& in)
    {
        readRecords(in);
        if (!self().sawHeader()) {
            return false;
        }
        if (const SourceLoc cs = in.cutString(); cs.line != 0) {
            m_cutAt = cs;
            m_cutWhat = "line (quoted string not closed)";
        }
        if (!in.stoppedOnError()) {
            self().integrityAtEof();
        }
        self().finish();
        return true;
    }

protected:
    DiagnosticSink& m_sink;
    Model& m_model;
    std::uint64_t m_limit;
    // syntax.truncated (issue 15): the last record read, the cut last line
    SourceLoc m_lastAt, m_cutAt;
    std::string m_cutWhat;
    const Count* m_truncatedCount = nullptr; // its cod.count-mismatch is the truncation
    // Derived classes without shares (NT_EXPORT) set this false.
    static constexpr bool kShares = true;

    void readCount(const Record& r, Count& c, std::string_view field)
    {
        std::int32_t v = 0;
        if (needArgs(r, 1, m_sink, field) && argInt(r, 0, v, m_sink, field)) {
            c.value = v;
            c.loc = r.loc;
        }
    }

    // cod.count-mismatch when the count was read and the file has `have` items.
    void countMismatch(const Count& c, std::string_view name, std::size_t have)
    {
        if (&c == m_truncatedCount) {
            return; // reported as syntax.truncated
        }
        if (c.value && *c.value != static_cast<std::int64_t>(have)) {
            m_sink.error(ids::kCodCountMismatch, c.loc,
                         std::string(name) + " says " + std::to_string(*c.value) + ", file has " +
                             std::to_string(have));
        }
    }

    // The slots of `items` in index order; of duplicates the last one wins (cod.duplicate-index,
    // at `locAt(slot)`).
    template <typename T, typename Index, typename LocAt>
    std::vector<std::size_t> lastWins(const std::vector<T>& items, Index indexOf,
                                      std::string_view kind, LocAt locAt)
    {
        std::vector<std::size_t> slots;
        bool increasing = true; // as exporters write them: no duplicates, already in order
        for (std::size_t s = 1; increasing && s < items.size(); ++s) {
            increasing = indexOf(items[s - 1]) < indexOf(items[s]);
        }
        if (increasing) {
            slots.resize(items.size());
            std::iota(slots.begin(), slots.end(), std::size_t{0});
            return slots;
        }
        std::unordered_map<std::int32_t, std::size_t> seen;
        for (std::size_t s = 0; s < items.size(); ++s) {
            auto [it, inserted] = seen.try_emplace(indexOf(items[s]), slots.size());
            if (inserted) {
                slots.push_back(s);
            } else {
                m_sink.warning(ids::kCodDuplicateIndex, locAt(s),
                               std::string(kind) + " index " + std::to_string(indexOf(items[s])) +
                                   " given twice; the last one wins");
                slots[it->second] = s;
            }
        }
        std::sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) {
            return indexOf(items[a]) < indexOf(items[b]);
        });
        return slots;
    }

    // syntax.truncated at the cut last line (else at the last record): "file ends in the
    // middle of a <cut line>, <what>"; nothing when the file is whole.
    void reportTruncated(const std::string& what)
    {
        if (what.empty() && m_cutAt.line == 0) {
            return;
        }
        std::string msg = "file ends ";
        if (m_cutAt.line != 0) {
            msg += "in the middle of a " + m_cutWhat;
            msg += what.empty() ? "" : ", ";
        }
        msg += what;
        m_sink.error(ids::kSyntaxTruncated, m_cutAt.line != 0 ? m_cutAt : m_lastAt, std::move(msg));
    }

private:
    const ReadContext* m_ctx = nullptr;
    bool m_splitTried = false;
    bool m_shareFailed = false;
    std::uint32_t m_sharesKept = 0;

    Derived& self() noexcept { return static_cast<Derived&>(*this); }

    template <class Source> void readRecords(Source& in)
    {
        Record r;
        while (in.next(r)) {
            record(r);
            if constexpr (std::is_same_v<Source, TextRecordStream> && Derived::kShares) {
                if (m_ctx && !m_splitTried && self().splitsAfter(r)) {
                    m_splitTried = true;
                    readInShares(in);
                }
            }
        }
    }

    void record(const Record& r)
    {
        if (r.cut && r.argc < self().expectedArgs(r)) {
            // The last line, cut short ("BONE 5" of "BONE 5 4 \"hand\""): not read as another
            // record; syntax.truncated says where the file ends.
            m_cutAt = r.loc;
            m_cutWhat = "'" + shownToken(r.keyword) + "' line (" + std::to_string(r.argc) + " of " +
                        std::to_string(self().expectedArgs(r)) + " fields)";
            return;
        }
        m_lastAt = r.loc;
        self().dispatch(r);
    }

    // A share: the records of [begin, stop), read on a thread by a parser of its own.
    struct Share {
        const char* begin = nullptr;
        const char* stop = nullptr;
        int kind = 0;
        typename Derived::ShareStart start;
        std::unique_ptr<DiagnosticSink> sink;
        Model model;
        std::unique_ptr<Derived> parser;
        std::unique_ptr<TextRecordStream> in;
        bool failed = false;
    };

    // Reads share records up to the stop or before the first record the share cannot read as
    // reading in order would (which goes on there); fails on a cut line.
    void readShare(TextRecordStream& in)
    {
        Record r;
        for (;;) {
            const LineScanner before = in.lines();
            const std::size_t reports = m_sink.diagnostics().size();
            if (!in.next(r)) {
                m_shareFailed = in.cutString().line != 0;
                return;
            }
            const ShareRead what = r.cut ? ShareRead::Fail : self().shareReads(r);
            if (what == ShareRead::Fail) {
                m_shareFailed = true;
                return;
            }
            if (what == ShareRead::Stop) {
                in.setLines(before);
                auto& ds = m_sink.diagnostics();
                ds.erase(ds.begin() + static_cast<std::ptrdiff_t>(reports), ds.end());
                return;
            }
            m_lastAt = r.loc;
            self().dispatch(r);
        }
    }

    // The rest of the file is cut into shares at guessed record starts; share 0 is read here,
    // the others on threads, and they are spliced in file order while each began where the
    // text read so far ends, in the state it was read in; the rest is read in order. So the
    // model, its locations and the diagnostics are those of one thread.
    void readInShares(TextRecordStream& in)
    {
        const char* const start = in.position();
        const char* const end = in.limit();
        const auto rest = static_cast<std::size_t>(end - start);
        const std::size_t count = core::shareCount(m_ctx->threads, m_ctx->parallelMinBytes, rest);
        std::vector<Share> shares;
        for (std::size_t k = 1; k < count; ++k) {
            int kind = 0;
            const char* begin = self().shareStart(start + k * (rest / count), end, kind);
            if (begin && begin > (shares.empty() ? start : shares.back().begin)) {
                Share& sh = shares.emplace_back();
                sh.begin = begin;
                sh.kind = kind;
            }
        }
        if (shares.empty()) {
            return;
        }
        for (std::size_t k = 0; k < shares.size(); ++k) {
            Share& sh = shares[k];
            sh.stop = k + 1 < shares.size() ? shares[k + 1].begin : end;
            sh.start = self().startState(sh.kind);
            sh.sink = std::make_unique<DiagnosticSink>(m_sink.file());
            sh.parser = std::make_unique<Derived>(*sh.sink, sh.model, m_limit);
            sh.parser->beginShare(sh.start, static_cast<std::size_t>(sh.stop - sh.begin));
            sh.in =
                std::make_unique<TextRecordStream>(in.lines().base(), sh.begin, sh.stop, *sh.sink);
        }
        const int kept = core::readInShares(
            shares, [](Share& sh) { sh.parser->readShare(*sh.in); },
            [&] {
                in.setLimit(shares[0].begin);
                readRecords(in);
                in.setLimit(end);
                return true;
            },
            [&](Share& sh) {
                Derived& p = *sh.parser;
                if (p.m_shareFailed || in.position() != sh.begin || m_cutAt.line != 0 ||
                    !(self().startState(sh.kind) == sh.start)) {
                    return false;
                }
                const std::uint32_t lineBase = in.lineNumber();
                self().splice(p, lineBase);
                for (Diagnostic& d : sh.sink->diagnostics()) {
                    d.where = shifted(d.where, lineBase);
                    m_sink.diagnostics().push_back(std::move(d));
                }
                if (p.m_lastAt.line != 0) {
                    m_lastAt = shifted(p.m_lastAt, lineBase);
                }
                in.advancePast(*sh.in);
                sh.parser.reset();
                sh.in.reset();
                return true;
            });
        m_sharesKept = static_cast<std::uint32_t>(std::max(kept, 0));
    }
};

// A text reader: the model with its format and line ending; when the parser did not find its
// first keyword, no model: syntax.empty-file, or syntax.bad-version saying `notThis`.
template <class Parser>
ReadResult readText(std::string_view bytes, const ReadContext& ctx, const char* format,
                    const char* notThis)
{
    // The model's arrays and what follows the read (the checks' tables) from one region of the
    // heap, sized from the file, that the kernel may back with huge pages (issue 27 item 10;
    // the SMD reader does the same).
    reserveHeapForArrays(2 * bytes.size());
    DiagnosticSink sink(ctx.fileName);
    Model m;
    TextRecordStream in(bytes, sink, &m.headerComments);
    Parser p(sink, m, bytes.size() + 1);
    p.allowShares(ctx);
    ReadResult r;
    if (!p.run(in)) {
        const bool empty = bytes.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
        sink.error(empty ? ids::kSyntaxEmptyFile : ids::kSyntaxBadVersion, {1, 1, 0},
                   empty ? "file is empty" : notThis);
    } else {
        m.format = format;
        m.lineEnding = in.lineEnding();
        r.stats.parallelShares = p.sharesKept();
        r.model = std::move(m);
        r.hasModel = true;
    }
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core::cod
