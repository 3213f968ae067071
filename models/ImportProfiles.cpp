#include "models/ImportProfiles.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// One JSON object under one key: profile names may hold any character.
const QString Key = u"import/csvProfiles"_s;

QJsonObject all()
{
    return QJsonDocument::fromJson(QSettings().value(Key).toByteArray()).object();
}

void store(const QJsonObject &profiles)
{
    QSettings().setValue(Key, QJsonDocument(profiles).toJson(QJsonDocument::Compact));
}

} // namespace

QStringList ImportProfiles::names()
{
    return all().keys();
}

std::optional<CsvMapping> ImportProfiles::load(const QString &name, const QStringList &header)
{
    const QJsonObject profiles = all();
    if (!profiles.contains(name))
        return std::nullopt;
    return CsvMapping::fromJson(profiles.value(name).toObject(), header);
}

void ImportProfiles::save(const QString &name, const CsvMapping &mapping, const QStringList &header)
{
    QJsonObject profiles = all();
    profiles.insert(name, mapping.toJson(header));
    store(profiles);
}

void ImportProfiles::remove(const QString &name)
{
    QJsonObject profiles = all();
    profiles.remove(name);
    store(profiles);
}

} // namespace md::models
