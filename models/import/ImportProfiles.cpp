#include "models/import/ImportProfiles.h"

#include "models/common/SavedProfiles.h"

namespace md::models {

namespace {

SavedProfiles profiles()
{
    return SavedProfiles(QStringLiteral("import/csvProfiles"));
}

} // namespace

QStringList ImportProfiles::names()
{
    return profiles().names();
}

std::optional<CsvMapping> ImportProfiles::load(const QString &name, const QStringList &header)
{
    const auto profile = profiles().load(name);
    if (!profile)
        return std::nullopt;
    return CsvMapping::fromJson(*profile, header);
}

void ImportProfiles::save(const QString &name, const CsvMapping &mapping, const QStringList &header)
{
    profiles().save(name, mapping.toJson(header));
}

void ImportProfiles::remove(const QString &name)
{
    profiles().remove(name);
}

} // namespace md::models
