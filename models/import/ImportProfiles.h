// Named CSV column mappings kept in the settings ("Old billing export"), by
// column name so a profile fits the next export even if its columns move.
#pragma once

#include "models/import/ImportSource.h"

namespace md::models {

class ImportProfiles final
{
public:
    static QStringList names();
    // Nullopt when there is no profile of that name.
    static std::optional<CsvMapping> load(const QString &name, const QStringList &header);
    static void save(const QString &name, const CsvMapping &mapping, const QStringList &header);
    static void remove(const QString &name);
};

} // namespace md::models
