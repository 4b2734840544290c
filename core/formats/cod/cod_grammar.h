#pragma once

// The CoD grammars, shared by the text readers (XMODEL_EXPORT, XANIM_EXPORT) and the *_BIN
// reader: each interprets a record source (cod::TextRecordStream or xbin::BinRecordStream)
// into a Model. Templates over the source, instantiated for both in the readers' .cpp files.
#include "core/formats/cod/cod_record.h"
#include "core/model/model.h"

namespace rigscope::core::cod {

// Interprets an XMODEL record source (text or binary) into `m` (format and line ending are
// left to the caller). `indexLimit` bounds every index (a pool cannot hold more vertices than
// the input has bytes), so hostile counts never drive allocations. Returns false when no
// MODEL keyword was seen.
template <class Source>
bool parseXmodelRecords(Source& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit);

// Interprets an XANIM record source (text or binary) into `m`. `indexLimit` bounds part
// indices. Returns false when no ANIMATION keyword was seen.
template <class Source>
bool parseXanimRecords(Source& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit);

} // namespace rigscope::core::cod
