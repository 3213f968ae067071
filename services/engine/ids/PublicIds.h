// The public ids of rows the engine numbers itself (docs/storage.md, "Ids
// and cursors"): audit entries, ledger entries, API keys, queued calls,
// usage alerts, usage events, webhook endpoints, events and deliveries,
// statements. Keys count up across all
// tenants, so an id that showed a key would tell one tenant how much the others do. An id is its
// prefix and the key under a keyed permutation of 64-bit numbers (a Feistel network whose rounds
// are HMAC-SHA256 with the workspace's secret), written as 13 characters of lowercase base32:
// unique, reversible by this workspace only, and one spelling per row.
#pragma once

#include "services/engine/ids/WorkspaceSecret.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <QStringList>

#include <array>
#include <optional>

namespace md::engine {

class PublicIds final
{
public:
    enum class Kind {
        AuditEntry,
        LedgerEntry,
        ApiKey,
        QueuedCall,
        UsageAlert,
        UsageEvent,
        WebhookEndpoint,
        WebhookEvent,
        WebhookDelivery,
        Statement
    };

    // The ids of the connection's database.
    static api::Result<PublicIds> of(const QSqlDatabase &db);
    // The id, for code that makes one inside an expression; empty when the
    // secret cannot be read, which only a failed connection causes, and then
    // the transaction around the caller fails as well.
    static QString idOf(const QSqlDatabase &db, Kind kind, qint64 pk);

    static QLatin1StringView prefixOf(Kind kind);
    // The row an id of an API key or a webhook endpoint names, when it is
    // the scope's (its organization and environment); nullopt otherwise, as
    // for no such row, so an id of another scope tells nothing.
    static api::Result<std::optional<qint64>> scopedKey(const QSqlDatabase &db, Kind kind,
                                                        QStringView id, const Scope &scope);

    QString make(Kind kind, qint64 pk) const;

    struct Row
    {
        qint64 pk = 0;
        // Named by an id issued before migration 8 (`tq_34`), which is taken
        // only in that exact spelling and only for a row that existed then.
        bool legacy = false;
    };
    // The row an id names, for the ids this workspace issued, spelled as
    // issued: nullopt for anything else (another prefix, another width,
    // upper case, leading zeros, another workspace's id).
    std::optional<Row> parse(Kind kind, QStringView id) const;

    // Every spelling the row's id may have been stored with: its id, and
    // for a row from before migration 8 its legacy id too.
    QStringList spellings(Kind kind, qint64 pk) const;
    // A stored id as it is issued now: a legacy id becomes its row's id.
    QString current(Kind kind, const QString &stored) const;
    // Rows from before this time (ms) may be named by legacy ids.
    qint64 legacyBefore() const { return m_secret.createdAt(); }

private:
    static constexpr int KindCount = 10;
    PublicIds(WorkspaceSecret secret, const std::array<qint64, KindCount> &legacyLastPk)
        : m_secret(std::move(secret))
        , m_legacyLastPk(legacyLastPk)
    {}

    // The key a legacy id's digits name, if it names one.
    std::optional<qint64> legacyKey(Kind kind, QStringView digits) const;
    quint32 roundOf(Kind kind, int index, quint32 half) const;
    quint64 permute(Kind kind, quint64 value) const;
    quint64 unpermute(Kind kind, quint64 value) const;

    WorkspaceSecret m_secret;
    // The highest key of each kind's table when migration 8 ran.
    std::array<qint64, KindCount> m_legacyLastPk{};
};

} // namespace md::engine
