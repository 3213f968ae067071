#include "services/engine/statements/RevenueTotals.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/charges/Money.h"
#include "services/engine/customers/OpenCharges.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/statements/OpenRevenue.h"

#include <QDateTime>

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Minor units (cents) of the four kinds.
struct Minor
{
    qint64 fixed = 0;
    qint64 usage = 0;
    qint64 prepaid = 0;
    qint64 credits = 0;
    qint64 total() const { return fixed + usage + prepaid + credits; }

    qint64 &of(api::ChargeKind kind)
    {
        switch (kind) {
        case api::ChargeKind::Fixed:
            return fixed;
        case api::ChargeKind::Prepaid:
            return prepaid;
        case api::ChargeKind::Credits:
            return credits;
        case api::ChargeKind::Usage:
            break;
        }
        return usage;
    }
    void add(const Minor &other)
    {
        fixed += other.fixed;
        usage += other.usage;
        prepaid += other.prepaid;
        credits += other.credits;
    }
};

// The first month start at or after `ms`.
qint64 monthFrom(qint64 ms)
{
    const auto [start, end] = api::BillingPeriod::containing(api::ResetInterval::Month, 0, ms);
    return start == ms ? start : end;
}

QString monthKey(qint64 monthStart)
{
    return QDateTime::fromMSecsSinceEpoch(monthStart, Qt::UTC).date().toString(Qt::ISODate);
}

api::RevenueGroup groupOf(const QString &key, const Minor &minor, const Money &money)
{
    api::RevenueGroup group;
    group.key = key;
    group.fixed = money.amountOf(minor.fixed);
    group.usage = money.amountOf(minor.usage);
    group.prepaid = money.amountOf(minor.prepaid);
    group.credits = money.amountOf(minor.credits);
    group.total = money.amountOf(minor.total());
    return group;
}

QString keyOf(const std::optional<QString> &id)
{
    return id && !id->isEmpty() ? *id : QString(api::RevenueSummary::NoKey);
}

// What the open periods that began in [from, to) owe so far, by the
// grouping's key: those still open at `nowMs` of the figures. By month, a
// period's month is looked up among the range's month starts (ascending).
void addOpen(const OpenFigures &open, qint64 from, qint64 to, api::RevenueGroupBy groupBy,
             qint64 nowMs, const std::vector<std::pair<qint64, QString>> &months,
             std::map<QString, Minor> &groups, QHash<qint64, Minor> &byCustomer)
{
    for (const OpenFigures::Period &period : open.periods) {
        if (period.start < from || period.start >= to || period.end <= nowMs)
            continue;
        Minor *month = nullptr;
        if (groupBy == api::RevenueGroupBy::Month) {
            const auto after =
                std::upper_bound(months.begin(), months.end(), period.start,
                                 [](qint64 start, const auto &m) { return start < m.first; });
            month = &groups[std::prev(after)->second];
        }
        for (quint32 i = period.first; i < period.first + period.count; ++i) {
            const OpenFigures::Line &line = open.lines[i];
            switch (groupBy) {
            case api::RevenueGroupBy::Customer:
                byCustomer[period.customerPk].of(line.kind) += line.minor;
                break;
            case api::RevenueGroupBy::Month:
                month->of(line.kind) += line.minor;
                break;
            case api::RevenueGroupBy::Product:
                groups[keyOf(open.keys.at(line.plan))].of(line.kind) += line.minor;
                break;
            case api::RevenueGroupBy::Feature:
                groups[keyOf(open.keys.at(line.feature))].of(line.kind) += line.minor;
                break;
            }
        }
    }
}

// The top customers, largest first (by key among equals), named; the rest
// summed as one group; and the total of all.
api::Result<std::pair<QList<api::RevenueGroup>, qint64>>
topCustomers(const QSqlDatabase &db, Dialect dialect, const QHash<qint64, Minor> &byCustomer,
             const Money &money)
{
    std::vector<std::pair<qint64, Minor>> ranked;
    ranked.reserve(std::size_t(byCustomer.size()));
    for (auto it = byCustomer.cbegin(); it != byCustomer.cend(); ++it)
        ranked.emplace_back(it.key(), it.value());
    const auto larger = [](const auto &a, const auto &b) {
        return a.second.total() != b.second.total() ? a.second.total() > b.second.total()
                                                    : a.first < b.first;
    };
    const std::size_t top =
        std::min(ranked.size(), std::size_t(api::RevenueSummaryRequest::TopCustomers));
    std::partial_sort(ranked.begin(), ranked.begin() + qsizetype(top), ranked.end(), larger);
    qint64 total = 0;
    Minor others;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        total += ranked[i].second.total();
        if (i >= top)
            others.add(ranked[i].second);
    }
    QList<qint64> named;
    for (std::size_t i = 0; i < top; ++i)
        named.append(ranked[i].first);
    QHash<qint64, QString> ids;
    if (!named.isEmpty()) {
        QVariantList binds;
        const QString which = inKeys(dialect, u"pk"_s, named, binds);
        auto rows = queryRows(db, u"SELECT pk, id FROM customers WHERE "_s + which, binds);
        if (!rows)
            return rows.error();
        for (const QVariantList &row : std::as_const(rows.value()))
            ids.insert(row.at(0).toLongLong(), row.at(1).toString());
    }
    QList<api::RevenueGroup> groups;
    for (std::size_t i = 0; i < top; ++i)
        groups.append(groupOf(ids.value(ranked[i].first), ranked[i].second, money));
    if (ranked.size() > top)
        groups.append(groupOf(QString(api::RevenueSummary::OtherCustomers), others, money));
    return std::pair(groups, total);
}

} // namespace

api::Result<api::RevenueSummary> RevenueTotals::summary(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope,
                                                        const api::RevenueSummaryRequest &request,
                                                        qint64 nowMs, const OpenFigures *open)
{
    // The wire's reader says so too; the embedded backend has no reader.
    if (request.to <= request.from)
        return api::ApiError::invalidInputs(
            u"to"_s, u"must be after from (%1), got %2"_s.arg(request.from).arg(request.to));
    if (request.openMaxAgeMs < 0 || request.openMaxAgeMs > api::RevenueSummaryRequest::MaxOpenAgeMs)
        return api::ApiError::invalidInputs(
            u"open_max_age_ms"_s,
            u"must be from 0 to %1, got %2"_s.arg(api::RevenueSummaryRequest::MaxOpenAgeMs)
                .arg(request.openMaxAgeMs));
    const qint64 from = monthFrom(request.from);
    const qint64 to = monthFrom(request.to);
    auto money = OpenCharges::moneyOf(db, scope.orgPk);
    if (!money)
        return money.error();
    std::map<QString, Minor> groups;
    std::vector<std::pair<qint64, QString>> order; // months in order; others by total
    if (request.groupBy == api::RevenueGroupBy::Month) {
        qint64 months = 0;
        for (qint64 m = from; m < to;
             m = api::BillingPeriod::advance(api::ResetInterval::Month, m)) {
            if (++months > MaxMonths)
                return api::ApiError::invalidInputs(
                    u"to"_s, u"is more than %1 months after from"_s.arg(MaxMonths));
            groups[monthKey(m)];
            order.emplace_back(m, monthKey(m));
        }
    }
    // By customer key, the ids read for the top ones only.
    QHash<qint64, Minor> byCustomer;
    if (request.groupBy == api::RevenueGroupBy::Customer) {
        // The statements of the range from their covering index alone
        // (migration 21), added up here.
        auto rows = runPrepared(db,
                                u"SELECT customer_pk, fixed_minor, usage_minor, prepaid_minor,"
                                " credits_minor FROM statements WHERE org_pk = ? AND env = ?"
                                " AND period_start >= ? AND period_start < ?"_s,
                                {scope.orgPk, scope.envWord(), from, to});
        if (!rows)
            return rows.error();
        for (QSqlQuery &q = *rows.value(); q.next();)
            byCustomer[q.value(0).toLongLong()].add(
                {q.value(1).toLongLong(), q.value(2).toLongLong(), q.value(3).toLongLong(),
                 q.value(4).toLongLong()});
        rows.value()->finish();
    } else {
        const QString key = request.groupBy == api::RevenueGroupBy::Month     ? u"month"_s
                            : request.groupBy == api::RevenueGroupBy::Product ? u"product_id"_s
                                                                              : u"feature_id"_s;
        auto rows = queryRows(db,
                              u"SELECT %1, kind, SUM(amount_minor) FROM revenue_months"
                              " WHERE org_pk = ? AND env = ? AND month >= ? AND month < ?"
                              " GROUP BY %1, kind"_s.arg(key),
                              {scope.orgPk, scope.envWord(), from, to});
        if (!rows)
            return rows.error();
        for (const QVariantList &row : std::as_const(rows.value())) {
            const QString group = request.groupBy == api::RevenueGroupBy::Month
                                      ? monthKey(row.at(0).toLongLong())
                                      : keyOf(row.at(0).toString());
            auto kind = api::chargeKindFromWire(row.at(1).toString());
            if (!kind)
                return api::ApiError::internal(
                    u"revenue_months holds an unknown kind \"%1\""_s.arg(row.at(1).toString()));
            groups[group].of(*kind) += row.at(2).toLongLong();
        }
    }
    api::RevenueSummary summary;
    summary.currency = money.value().code();
    if (open) {
        if (open->currency != summary.currency)
            return api::ApiError::internal(u"the open periods' figures are in %1, not %2"_s.arg(
                open->currency, summary.currency));
        addOpen(*open, from, to, request.groupBy, nowMs, order, groups, byCustomer);
        summary.openAsOf = open->asOf;
    }
    if (request.groupBy == api::RevenueGroupBy::Customer) {
        auto ranked = topCustomers(db, dialect, byCustomer, money.value());
        if (!ranked)
            return ranked.error();
        summary.groups = ranked.value().first;
        summary.total = money.value().amountOf(ranked.value().second);
        return summary;
    }
    qint64 total = 0;
    if (order.empty()) {
        // Largest first.
        std::vector<std::pair<QString, Minor>> ranked(groups.begin(), groups.end());
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
            return a.second.total() > b.second.total();
        });
        for (const auto &[key, minor] : ranked) {
            total += minor.total();
            summary.groups.append(groupOf(key, minor, money.value()));
        }
    } else {
        for (const auto &[start, key] : order) {
            total += groups[key].total();
            summary.groups.append(groupOf(key, groups[key], money.value()));
        }
    }
    summary.total = money.value().amountOf(total);
    return summary;
}

} // namespace md::engine
