// Named column mappings kept in the settings under one key, each as a JSON
// object ("Old billing export"): the import wizards' saved profiles.
#pragma once

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace md::models {

class SavedProfiles final
{
public:
    explicit SavedProfiles(QString settingsKey)
        : m_key(std::move(settingsKey))
    {}

    QStringList names() const;
    std::optional<QJsonObject> load(const QString &name) const;
    void save(const QString &name, const QJsonObject &profile) const;
    void remove(const QString &name) const;

private:
    QJsonObject all() const;
    void store(const QJsonObject &profiles) const;

    QString m_key;
};

} // namespace md::models
