#include "services/engine/customers/UsageTotaller.h"

#include "services/engine/sql/Sql.h"
#include "services/engine/sql/SqliteStatement.h"

#include <QHash>
#include <QMap>

#include <algorithm>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;
using api::UsageFigures;
using api::UsageGroupBy;

namespace {

// One group's sums, per day (days counted from the epoch, UTC).
struct GroupSums
{
    UsageFigures figures;
    QMap<qint64, UsageFigures> days;
};

// The sums by group key: a feature's or customer's pk, or for models the
// index of the model's id in `models`.
struct Sums
{
    QHash<qint64, GroupSums> groups;
    UsageFigures total;
    QHash<QByteArray, qint64> modelIndex;
    QList<std::optional<QString>> models;

    qint64 modelKey(bool isNull, QByteArrayView id)
    {
        const QByteArray key = isNull ? QByteArray() : id.toByteArray();
        const auto known = modelIndex.constFind(key);
        if (known != modelIndex.cend())
            return *known;
        models.append(isNull ? std::nullopt : std::optional(QString::fromUtf8(id)));
        return modelIndex.insert(key, models.size() - 1).value();
    }

    void add(qint64 key, qint64 day, const UsageFigures &figures)
    {
        GroupSums &group = groups[key];
        group.figures += figures;
        group.days[day] += figures;
        total += figures;
    }

    // Rows the database grouped: day, key, priced, events, value and tokens.
    api::Result<api::Done> addGrouped(QSqlQuery &row, bool byModel);
};

UsageFigures figuresOf(qint64 events, bool priced, Decimal value, qint64 tokens)
{
    // A model call's value is its cost in credits; any other event's counts
    // its feature's own unit, which no cost may absorb.
    return {events, priced ? value : Decimal(), priced ? Decimal() : value, tokens};
}

api::Result<api::Done> Sums::addGrouped(QSqlQuery &row, bool byModel)
{
    while (row.next()) {
        const QVariant k = row.value(1);
        const qint64 key = byModel ? modelKey(k.isNull(), k.toString().toUtf8()) : k.toLongLong();
        const auto value = Decimal::parseSum(row.value(4).toString().toUtf8());
        if (!value)
            return ApiError::internal(u"the usage totals leave the range of sums"_s);
        add(key, row.value(0).toLongLong(),
            figuresOf(row.value(3).toLongLong(), row.value(2).toBool(), *value,
                      row.value(5).toString().toLongLong()));
    }
    return api::Done{};
}

QString keyColumn(UsageGroupBy groupBy)
{
    switch (groupBy) {
    case UsageGroupBy::Feature:
        return u"x.feature_pk"_s;
    case UsageGroupBy::Customer:
        return u"x.customer_pk"_s;
    case UsageGroupBy::Model:
        return u"x.model_id"_s;
    }
    return {};
}

// The pk an id names in the scope's `table`, or a 404 saying which.
api::Result<qint64> pkOf(const QSqlDatabase &db, const Scope &scope, const QString &table,
                         const QString &id, api::ErrorCode code, const QString &what)
{
    auto query =
        runSql(db, u"SELECT pk FROM %1 WHERE org_pk = ? AND env = ? AND id = ?"_s.arg(table),
               {scope.orgPk, scope.envWord(), id});
    if (!query)
        return query.error();
    if (!query.value().next())
        return ApiError::notFound(code, u"%1 \"%2\" does not exist"_s.arg(what, id));
    return query.value().value(0).toLongLong();
}

// The ids of `pks` in `table`.
api::Result<QHash<qint64, QString>> idsOf(const QSqlDatabase &db, const QString &table,
                                          const QList<qint64> &pks)
{
    constexpr qsizetype Chunk = 500;
    QHash<qint64, QString> ids;
    for (qsizetype at = 0; at < pks.size(); at += Chunk) {
        const QList<qint64> chunk = pks.mid(at, Chunk);
        QVariantList binds;
        for (const qint64 pk : chunk)
            binds << pk;
        QStringList marks(chunk.size(), u"?"_s);
        auto query = runSql(
            db, u"SELECT pk, id FROM %1 WHERE pk IN (%2)"_s.arg(table, marks.join(u',')), binds);
        if (!query)
            return query.error();
        while (query.value().next())
            ids.insert(query.value().value(0).toLongLong(), query.value().value(1).toString());
    }
    return ids;
}

api::UsageGroup groupOf(std::optional<QString> key, const GroupSums &sums)
{
    api::UsageGroup group{std::move(key), sums.figures, {}};
    for (auto day = sums.days.cbegin(); day != sums.days.cend(); ++day)
        group.days.append({QDate(1970, 1, 1).addDays(day.key()), day.value()});
    return group;
}

} // namespace

QList<QDate> UsageTotaller::partialDays(std::optional<qint64> from, std::optional<qint64> to,
                                        qint64 nowMs)
{
    const qint64 end = to ? std::min(*to, nowMs) : nowMs;
    const auto dayOf = [](qint64 ms) { return QDate(1970, 1, 1).addDays(ms / DayMs); };
    QList<QDate> days;
    if (from && *from < end && *from % DayMs != 0)
        days.append(dayOf(*from));
    if ((!from || *from < end) && end % DayMs != 0 &&
        (days.isEmpty() || days.first() != dayOf(end)))
        days.append(dayOf(end));
    return days;
}

namespace {

// The filters but time, on `x`: usage_events or usage_days (which has no customer).
struct Filter
{
    QString where;
    QVariantList binds;

    // " FROM `table` x WHERE …" with `column` in [from, end), into `binds`.
    QString over(const QString &table, const QString &column, std::optional<qint64> from,
                 std::optional<qint64> end, QVariantList &all) const
    {
        QString sql = u" FROM %1 x WHERE "_s.arg(table) + where;
        all = binds;
        for (const auto &[bound, word] : {std::pair{from, u">="_s}, std::pair{end, u"<"_s}})
            if (bound) {
                sql += u" AND x.%1 %2 ?"_s.arg(column, word);
                all << *bound;
            }
        return sql;
    }
};

// The events of [from, to) added to `sums`, each read (SQLite) or grouped
// by the database (PostgreSQL).
api::Result<api::Done> addEvents(const QSqlDatabase &db, Dialect dialect, const Filter &filter,
                                 UsageGroupBy groupBy, std::optional<qint64> from,
                                 std::optional<qint64> to, Sums &sums, const StopCheck &stop)
{
    QVariantList binds;
    const QString where = filter.over(u"usage_events"_s, u"timestamp"_s, from, to, binds);
    const bool byModel = groupBy == UsageGroupBy::Model;
    if (dialect == Dialect::Sqlite) {
        auto rows = SqliteStatement::run(
            db,
            u"SELECT x.timestamp, %1, x.model_id IS NOT NULL, x.value,"
            " (SELECT coalesce(sum(t.value), 0) FROM json_each(x.tokens) t)"_s.arg(
                keyColumn(groupBy)) +
                where,
            binds);
        if (!rows)
            return rows.error();
        SqliteStatement &row = *rows.value();
        for (qint64 read = 0;; ++read) {
            if (stop && (read & 0xFFF) == 0 && stop()) {
                row.finish();
                return stoppedError();
            }
            auto more = row.next();
            if (!more)
                return more.error();
            if (!more.value())
                return api::Done{};
            const qint64 key =
                byModel ? sums.modelKey(row.isNull(1), row.bytes(1)) : row.integer(1);
            sums.add(key, row.integer(0) / UsageTotaller::DayMs,
                     figuresOf(1, row.integer(2) != 0, row.amount(3), row.integer(4)));
        }
    }
    auto rows =
        runSql(db,
               u"SELECT e.day, e.k, e.priced, count(*), sum(e.value)::text, sum(e.tokens)::text"
               " FROM (SELECT x.timestamp / %1 AS day, %2 AS k, x.model_id IS NOT NULL AS priced,"
               " x.value::numeric AS value, (SELECT coalesce(sum(t.value::bigint), 0)"
               " FROM json_each_text(x.tokens::json) t) AS tokens%3) e GROUP BY 1, 2, 3"_s
                   .arg(UsageTotaller::DayMs)
                   .arg(keyColumn(groupBy), where),
               binds);
    if (!rows)
        return rows.error();
    return sums.addGrouped(rows.value(), byModel);
}

// The whole days [first, end) added to `sums` from the usage_days rollup:
// its rows, not the events.
api::Result<api::Done> addDays(const QSqlDatabase &db, Dialect dialect, const Filter &filter,
                               UsageGroupBy groupBy, std::optional<qint64> first,
                               std::optional<qint64> end, Sums &sums)
{
    QVariantList binds;
    const QString where = filter.over(u"usage_days"_s, u"day"_s, first, end, binds);
    const bool byModel = groupBy == UsageGroupBy::Model;
    auto rows = runSql(
        db,
        u"SELECT x.day, %1, x.model_id <> '', sum(x.events), %2, sum(x.tokens)%3"
        " GROUP BY 1, 2, 3"_s.arg(byModel ? u"NULLIF(x.model_id, '')"_s : keyColumn(groupBy),
                                  dialect == Dialect::Sqlite ? u"md_decimal_sum(x.value)"_s
                                                             : u"sum(x.value::numeric)::text"_s,
                                  where),
        binds);
    if (!rows)
        return rows.error();
    return sums.addGrouped(rows.value(), byModel);
}

} // namespace

api::Result<api::UsageTotals> UsageTotaller::totals(const QSqlDatabase &db, Dialect dialect,
                                                    const Scope &scope,
                                                    const api::UsageTotalsRequest &request,
                                                    qint64 nowMs, const StopCheck &stop)
{
    Filter filter{u"x.org_pk = ? AND x.env = ?"_s, {scope.orgPk, scope.envWord()}};
    if (request.customerId) {
        auto pk = pkOf(db, scope, u"customers"_s, *request.customerId,
                       api::ErrorCode::CustomerNotFound, u"customer"_s);
        if (!pk)
            return pk.error();
        filter.where += u" AND x.customer_pk = ?"_s;
        filter.binds << pk.value();
    }
    if (request.featureId) {
        auto pk = pkOf(db, scope, u"features"_s, *request.featureId,
                       api::ErrorCode::FeatureNotFound, u"feature"_s);
        if (!pk)
            return pk.error();
        filter.where += u" AND x.feature_pk = ?"_s;
        filter.binds << pk.value();
    }
    if (request.modelId) {
        filter.where += u" AND x.model_id = ?"_s;
        filter.binds << *request.modelId;
    }

    // Whole days come from the rollup, which has no customers; a range's
    // partial first and last days, one customer's events and a grouping by
    // customer from the events. All on one snapshot.
    const std::optional<qint64> from = request.from;
    const std::optional<qint64> to = request.to;
    const std::optional<qint64> firstDay =
        from ? std::optional((*from + DayMs - 1) / DayMs) : std::nullopt;
    const std::optional<qint64> endDay = to ? std::optional(*to / DayMs) : std::nullopt;
    const bool rolledUp = !request.customerId && request.groupBy != UsageGroupBy::Customer &&
                          !(firstDay && endDay && *firstDay >= *endDay);
    auto summed = onOneSnapshot(db, dialect, [&]() -> api::Result<Sums> {
        Sums sums;
        const auto events = [&](std::optional<qint64> since, std::optional<qint64> until) {
            return addEvents(db, dialect, filter, request.groupBy, since, until, sums, stop);
        };
        if (!rolledUp) {
            if (auto added = events(from, to); !added)
                return added.error();
            return sums;
        }
        if (from && *from % DayMs != 0)
            if (auto added = events(from, *firstDay * DayMs); !added)
                return added.error();
        if (auto added = addDays(db, dialect, filter, request.groupBy, firstDay, endDay, sums);
            !added)
            return added.error();
        if (to && *to % DayMs != 0)
            if (auto added = events(*endDay * DayMs, to); !added)
                return added.error();
        return sums;
    });
    if (!summed)
        return summed.error();
    Sums &sums = summed.value();
    const bool byModel = request.groupBy == UsageGroupBy::Model;

    // The largest groups first: by cost, then units, then key. Names are read
    // for the groups that may be named (a customer's only then: there may be
    // 200,000), which are those at least as large as the last one named.
    using Entry = std::pair<qint64, const GroupSums *>;
    QList<Entry> order;
    order.reserve(sums.groups.size());
    for (auto it = sums.groups.cbegin(); it != sums.groups.cend(); ++it)
        order.append({it.key(), &it.value()});
    const auto size = [](const Entry &e) {
        return std::pair(e.second->figures.cost, e.second->figures.units);
    };
    std::sort(order.begin(), order.end(),
              [&](const Entry &a, const Entry &b) { return size(b) < size(a); });
    qsizetype candidates = std::min<qsizetype>(request.top, order.size());
    while (candidates > 0 && candidates < order.size() &&
           size(order.at(candidates)) == size(order.at(candidates - 1)))
        ++candidates;
    QHash<qint64, std::optional<QString>> names;
    if (byModel) {
        for (qint64 i = 0; i < sums.models.size(); ++i)
            names.insert(i, sums.models.at(i));
    } else {
        QList<qint64> pks;
        for (qsizetype i = 0; i < candidates; ++i)
            pks.append(order.at(i).first);
        auto ids = idsOf(
            db, request.groupBy == UsageGroupBy::Feature ? u"features"_s : u"customers"_s, pks);
        if (!ids)
            return ids.error();
        for (auto it = ids.value().cbegin(); it != ids.value().cend(); ++it)
            names.insert(it.key(), it.value());
    }
    std::sort(order.begin(), order.begin() + candidates, [&](const Entry &a, const Entry &b) {
        return size(b) < size(a) ||
               (size(a) == size(b) && names.value(a.first) < names.value(b.first));
    });

    api::UsageTotals totals;
    totals.total = sums.total;
    totals.partialDays = partialDays(request.from, request.to, nowMs);
    const qsizetype named = std::min<qsizetype>(request.top, order.size());
    for (qsizetype i = 0; i < named; ++i)
        totals.groups.append(groupOf(names.value(order.at(i).first), *order.at(i).second));
    if (named < order.size()) {
        GroupSums rest;
        for (qsizetype i = named; i < order.size(); ++i) {
            rest.figures += order.at(i).second->figures;
            for (auto day = order.at(i).second->days.cbegin();
                 day != order.at(i).second->days.cend(); ++day)
                rest.days[day.key()] += day.value();
        }
        totals.other = groupOf(std::nullopt, rest);
        totals.otherGroups = order.size() - named;
    }
    return totals;
}

} // namespace md::engine
