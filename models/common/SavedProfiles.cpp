#include "models/common/SavedProfiles.h"

#include <QJsonDocument>
#include <QSettings>

namespace md::models {

// One JSON object under one key: profile names may hold any character.
QJsonObject SavedProfiles::all() const
{
    return QJsonDocument::fromJson(QSettings().value(m_key).toByteArray()).object();
}

void SavedProfiles::store(const QJsonObject &profiles) const
{
    QSettings().setValue(m_key, QJsonDocument(profiles).toJson(QJsonDocument::Compact));
}

QStringList SavedProfiles::names() const
{
    return all().keys();
}

std::optional<QJsonObject> SavedProfiles::load(const QString &name) const
{
    const QJsonObject profiles = all();
    if (!profiles.contains(name))
        return std::nullopt;
    return profiles.value(name).toObject();
}

void SavedProfiles::save(const QString &name, const QJsonObject &profile) const
{
    QJsonObject profiles = all();
    profiles.insert(name, profile);
    store(profiles);
}

void SavedProfiles::remove(const QString &name) const
{
    QJsonObject profiles = all();
    profiles.remove(name);
    store(profiles);
}

} // namespace md::models
