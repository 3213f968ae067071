// The usage_days rollup (migration 17; docs/performance.md,
// "usage_events.totals"): each UTC day's events added up per feature and
// model, in stripes by customer, written in the transaction that records the
// events, so whole days of a chart are read here instead of from every
// event. Built from the events by migration 17 and after a workspace load;
// `workspace verify` compares every row with the events (differences()).
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>
#include <QStringList>
#include <QVariantList>

#include <map>
#include <optional>
#include <tuple>

namespace md::engine {

class UsageDays final
{
public:
    static constexpr qint64 DayMs = 24 * 60 * 60 * 1000;
    static constexpr int Stripes = 8;

    // One row: organization, environment word, day, feature, model ('' for
    // none) and stripe.
    using Key = std::tuple<qint64, QString, qint64, qint64, QString, int>;
    struct Sums
    {
        qint64 events = 0;
        api::Decimal value;
        qint64 tokens = 0;
    };
    static Key keyOf(const Scope &scope, qint64 timestamp, qint64 featurePk,
                     const std::optional<QString> &modelId, qint64 customerPk);

    // SQLite: a batch's sums added, one upsert per row.
    static api::Result<api::Done> add(const QSqlDatabase &db, const std::map<Key, Sums> &sums);
    // PostgreSQL: a data-modifying WITH item named `name` adding a batch's
    // sums, bound as postgresBinds() gives them (nine arrays), in key order
    // so that two batches lock the rows they share in one order.
    static QString postgresAdd(const QString &name);
    static QVariantList postgresBinds(const std::map<Key, Sums> &sums);
    // Made again from the events, of one scope or of every one.
    static api::Result<api::Done> rebuild(const QSqlDatabase &db, Dialect dialect,
                                          const std::optional<Scope> &scope = std::nullopt);
    // Rows that differ from the events, one sentence each.
    static api::Result<QStringList> differences(const QSqlDatabase &db, Dialect dialect);
};

} // namespace md::engine
