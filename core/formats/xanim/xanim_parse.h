#pragma once

#include "core/formats/xmodel/cod_record.h"
#include "core/model/model.h"

namespace rigscope::core::cod {

// Interprets an XANIM record stream (text or binary) into `m`. `indexLimit` bounds part
// indices. Returns false when no ANIMATION keyword was seen.
bool parseXanimRecords(RecordStream& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit);

} // namespace rigscope::core::cod
