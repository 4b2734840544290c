#pragma once

#include "core/formats/xmodel/cod_record.h"
#include "core/model/model.h"

namespace rigscope::core::cod {

// Interprets an XMODEL record stream (text or binary) into `m` (format and line ending are
// left to the caller). `indexLimit` bounds every index (a pool cannot hold more vertices than
// the input has bytes), so hostile counts never drive allocations. Returns false when no
// MODEL keyword was seen.
bool parseXmodelRecords(RecordStream& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit);

// Face normal of a clockwise (CoD) triangle.
Vec3 clockwiseFaceNormal(const Vec3& a, const Vec3& b, const Vec3& c) noexcept;

} // namespace rigscope::core::cod
