// Placeholder: replaced by the real writer.
#include "core/formats/smd/smd_writer.h"

namespace rigscope::core {

WriteResult writeSmd(const Model&, const WriteContext&) { return {}; }

} // namespace rigscope::core
