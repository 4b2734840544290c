#include "core/diag/severity.h"

#include <algorithm>

#include "core/diag/diagnostic_ids.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {
bool isLimitCheck(std::string_view id) noexcept
{
    return id.ends_with("-limit") || id == ids::kSkeletonNameLength ||
           id == ids::kMeshMaterialNameLength;
}
} // namespace

void applyProfile(std::vector<Diagnostic>& diags, Profile profile, bool guessed)
{
    const int col = profileColumn(profile);
    std::erase_if(diags, [&](Diagnostic& d) {
        if (d.fixedSeverity) {
            return false;
        }
        const CatalogEntry* e = findCatalogEntry(d.id);
        if (!e) {
            return false;
        }
        const CatalogSeverity s = e->severity[col];
        switch (s) {
        case CatalogSeverity::Off:
            return true;
        case CatalogSeverity::Note:
            d.severity = Severity::Note;
            break;
        case CatalogSeverity::Warning:
            d.severity = Severity::Warning;
            break;
        case CatalogSeverity::Error:
            d.severity = Severity::Error;
            break;
        }
        if (guessed && isLimitCheck(d.id) && d.severity == Severity::Error) {
            d.severity = Severity::Warning;
            d.message += " (profile guessed: ";
            d.message += profileName(profile);
            d.message += "; pass --profile to enforce)";
        }
        return false;
    });
}

} // namespace rigscope::core
