// The Keys page's API keys (docs/api.md, "API keys"): the environment's
// keys with their first characters, scopes, last use and state; made,
// revoked and rolled through the backend. A secret is only ever in the
// answer of create or roll, which the page shows once.
#pragma once

#include "models/common/ListTableModel.h"
#include "services/api/ApiKey.h"
#include "services/backend/BillingBackend.h"

#include <QDateTime>

namespace md::models {

// What the new-key form holds.
struct ApiKeyForm
{
    QString name;
    QStringList scopes;
    std::optional<QDateTime> expires;

    // What is wrong with it, in words (nullopt when it may be sent).
    std::optional<QString> problem(const QDateTime &now) const;
};

class ApiKeyModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiKeyModel)

public:
    enum Column {
        NameColumn,
        KeyColumn,
        ScopesColumn,
        LastUsedColumn,
        ExpiresColumn,
        StateColumn,
        ColumnCount
    };

    explicit ApiKeyModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload();
    const api::ApiKey &key(int row) const { return m_rows.at(row); }
    int rowOf(const QString &id) const;
    // Revoked or expired: nothing more can be done with it.
    static bool isOver(const api::ApiKey &key, qint64 nowMs);
    static QString stateText(const api::ApiKey &key, qint64 nowMs);

    // Each reloads the list once the server answered.
    backend::Reply<api::ApiKey> create(const ApiKeyForm &form);
    backend::Reply<api::ApiKey> revoke(const QString &id);
    backend::Reply<api::ApiKey> roll(const QString &id, qint64 overlapMs);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    backend::Reply<api::ApiKey> reloading(backend::Reply<api::ApiKey> reply);

    backend::BillingBackend *m_backend;
    QList<api::ApiKey> m_rows;
};

} // namespace md::models
