#include "services/engine/statements/RevenueTotals.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/charges/Money.h"
#include "services/engine/clock/ResetCharges.h"
#include "services/engine/customers/OpenCharges.h"
#include "services/engine/ledger/RevenueMonths.h"
#include "services/engine/sql/Sql.h"

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
    qint64 total() const { return fixed + usage; }
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

api::RevenueGroup groupOf(const QString &key, const Minor &minor)
{
    api::RevenueGroup group;
    group.key = key;
    group.fixed = Money::amountOf(minor.fixed);
    group.usage = Money::amountOf(minor.usage);
    group.total = Money::amountOf(minor.total());
    return group;
}

QString keyOf(const std::optional<QString> &id)
{
    return id && !id->isEmpty() ? *id : QString(api::RevenueSummary::NoKey);
}

// What the open periods that began in [from, to) owe so far, by the
// grouping's key: customers in batches of their keys.
api::Result<api::Done> addOpen(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                               qint64 from, qint64 to, api::RevenueGroupBy groupBy, qint64 nowMs,
                               std::map<QString, Minor> &groups)
{
    // The open periods in one read of the scope's customers (paging them by
    // key walked the scope's index once a page: 7 s at 200,000), then their
    // lines a thousand customers at a time.
    auto open = runPrepared(db,
                            u"SELECT pk, id, statement_from, statement_due_at FROM customers"
                            " WHERE org_pk = ? AND env = ? AND statement_from >= ?"
                            " AND statement_from < ? AND statement_due_at > ?"_s,
                            {scope.orgPk, scope.envWord(), from, to, nowMs});
    if (!open)
        return open.error();
    QList<OpenPeriod> all;
    QHash<qint64, QString> ids;
    for (QSqlQuery &q = *open.value(); q.next();) {
        all.append({q.value(0).toLongLong(), q.value(2).toLongLong(), q.value(3).toLongLong()});
        ids.insert(all.last().customerPk, q.value(1).toString());
    }
    open.value()->finish();
    constexpr qsizetype Batch = 1000;
    for (qsizetype first = 0; first < all.size(); first += Batch) {
        const QList<OpenPeriod> periods = all.mid(first, Batch);
        auto lines = OpenCharges::lines(db, dialect, periods, nowMs);
        if (!lines)
            return lines.error();
        for (const OpenPeriod &period : std::as_const(periods))
            for (const api::ChargeLine &line : lines.value().value(period.customerPk)) {
                auto minor = Money::minorOf(line.amount);
                if (!minor)
                    return minor.error();
                QString key;
                switch (groupBy) {
                case api::RevenueGroupBy::Month:
                    key = monthKey(
                        api::BillingPeriod::containing(api::ResetInterval::Month, 0, period.start)
                            .first);
                    break;
                case api::RevenueGroupBy::Product:
                    key = keyOf(line.planId);
                    break;
                case api::RevenueGroupBy::Feature:
                    key = keyOf(line.featureId);
                    break;
                case api::RevenueGroupBy::Customer:
                    key = ids.value(period.customerPk);
                    break;
                }
                Minor &sum = groups[key];
                (line.kind == api::ChargeKind::Fixed ? sum.fixed : sum.usage) += minor.value();
            }
    }
    return api::Done{};
}

} // namespace

api::Result<api::RevenueSummary> RevenueTotals::summary(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope,
                                                        const api::RevenueSummaryRequest &request,
                                                        qint64 nowMs)
{
    // The wire's reader says so too; the embedded backend has no reader.
    if (request.to <= request.from)
        return api::ApiError::invalidInputs(
            u"to"_s, u"must be after from (%1), got %2"_s.arg(request.from).arg(request.to));
    const qint64 from = monthFrom(request.from);
    const qint64 to = monthFrom(request.to);
    std::map<QString, Minor> groups;
    std::vector<QString> order; // months in order; others by total
    if (request.groupBy == api::RevenueGroupBy::Month) {
        qint64 months = 0;
        for (qint64 m = from; m < to;
             m = api::BillingPeriod::advance(api::ResetInterval::Month, m)) {
            if (++months > MaxMonths)
                return api::ApiError::invalidInputs(
                    u"to"_s, u"is more than %1 months after from"_s.arg(MaxMonths));
            groups[monthKey(m)];
            order.push_back(monthKey(m));
        }
    }
    if (request.groupBy == api::RevenueGroupBy::Customer) {
        auto rows =
            queryRows(db,
                      u"SELECT c.id, SUM(s.fixed_minor), SUM(s.usage_minor) FROM statements s"
                      " JOIN customers c ON c.pk = s.customer_pk"
                      " WHERE s.org_pk = ? AND s.env = ? AND s.period_start >= ?"
                      " AND s.period_start < ? GROUP BY c.id"_s,
                      {scope.orgPk, scope.envWord(), from, to});
        if (!rows)
            return rows.error();
        for (const QVariantList &row : std::as_const(rows.value()))
            groups[row.at(0).toString()] = {row.at(1).toLongLong(), row.at(2).toLongLong()};
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
            Minor &sum = groups[group];
            (row.at(1).toString() == "fixed"_L1 ? sum.fixed : sum.usage) += row.at(2).toLongLong();
        }
    }
    if (request.includeOpen)
        if (auto open = addOpen(db, dialect, scope, from, to, request.groupBy, nowMs, groups);
            !open)
            return open.error();

    api::RevenueSummary summary;
    summary.currency = QString(Money::Currency);
    qint64 total = 0;
    if (order.empty()) {
        // Largest first; customers past the top ones summed as one group.
        std::vector<std::pair<QString, Minor>> ranked(groups.begin(), groups.end());
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
            return a.second.total() > b.second.total();
        });
        Minor others;
        bool anyOthers = false;
        for (std::size_t i = 0; i < ranked.size(); ++i) {
            total += ranked[i].second.total();
            if (request.groupBy == api::RevenueGroupBy::Customer &&
                qsizetype(i) >= api::RevenueSummaryRequest::TopCustomers) {
                others.fixed += ranked[i].second.fixed;
                others.usage += ranked[i].second.usage;
                anyOthers = true;
                continue;
            }
            summary.groups.append(groupOf(ranked[i].first, ranked[i].second));
        }
        if (anyOthers)
            summary.groups.append(groupOf(QString(api::RevenueSummary::OtherCustomers), others));
    } else {
        for (const QString &key : order) {
            total += groups[key].total();
            summary.groups.append(groupOf(key, groups[key]));
        }
    }
    summary.total = Money::amountOf(total);
    return summary;
}

} // namespace md::engine
