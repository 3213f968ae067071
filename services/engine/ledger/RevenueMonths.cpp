#include "services/engine/ledger/RevenueMonths.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/charges/Money.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;

void RevenueMonths::add(const Scope &scope, qint64 month, const api::ChargeLine &line, qint64 minor)
{
    // '' rather than a null string, which would be bound as NULL.
    const QString none = u""_s;
    m_sums[{scope.orgPk, scope.envWord(), month, line.planId.value_or(none),
            line.featureId.value_or(none), QString(api::toWire(line.kind))}] += minor;
}

api::Result<api::Done> RevenueMonths::write(const QSqlDatabase &db) const
{
    constexpr qsizetype RowsPerInsert = 100;
    QVariantList binds;
    QStringList values;
    const auto flush = [&]() -> api::Result<api::Done> {
        if (values.isEmpty())
            return api::Done{};
        auto written = execute(
            db,
            u"INSERT INTO revenue_months AS r (org_pk, env, month, product_id, feature_id, kind,"
            " amount_minor) VALUES "_s +
                values.join(u", "_s) +
                u" ON CONFLICT (org_pk, env, month, product_id, feature_id, kind) DO UPDATE"
                " SET amount_minor = r.amount_minor + excluded.amount_minor"_s,
            binds);
        binds.clear();
        values.clear();
        return written;
    };
    for (const auto &[key, minor] : m_sums) {
        const auto &[org, env, month, product, feature, kind] = key;
        binds << org << env << month << product << feature << kind << minor;
        values.append(u"(?, ?, ?, ?, ?, ?, ?)"_s);
        if (values.size() == RowsPerInsert)
            if (auto written = flush(); !written)
                return written;
    }
    return flush();
}

api::Result<RevenueMonths> RevenueMonths::recount(const QSqlDatabase &db)
{
    RevenueMonths months;
    qint64 after = std::numeric_limits<qint64>::min();
    for (;;) {
        auto rows =
            queryRows(db,
                      u"SELECT pk, org_pk, env, period_start, lines, currency FROM statements"
                      " WHERE pk > ? ORDER BY pk LIMIT 1000"_s,
                      {after});
        if (!rows)
            return rows.error();
        if (rows.value().isEmpty())
            return months;
        for (const QVariantList &row : std::as_const(rows.value())) {
            after = row.at(0).toLongLong();
            auto lines = decodeStored(row.at(4), u"lines of statement %1"_s.arg(after),
                                      &api::readList<api::ChargeLine>);
            if (!lines)
                return lines.error();
            const Scope scope{
                row.at(1).toLongLong(),
                environmentFromWord(row.at(2).toString()).value_or(Environment::Sandbox)};
            const qint64 month =
                api::BillingPeriod::containing(api::ResetInterval::Month, 0, row.at(3).toLongLong())
                    .first;
            const auto money = Money::of(row.at(5).toString());
            if (!money)
                return api::ApiError::internal(
                    u"statement %1's currency is not an ISO 4217 code"_s.arg(after));
            for (const api::ChargeLine &line : std::as_const(lines.value())) {
                auto minor = money->minorOf(line.amount);
                if (!minor)
                    return minor.error();
                months.add(scope, month, line, minor.value());
            }
        }
    }
}

api::Result<RevenueMonths> RevenueMonths::kept(const QSqlDatabase &db)
{
    auto rows = queryRows(db,
                          u"SELECT org_pk, env, month, product_id, feature_id, kind, amount_minor"
                          " FROM revenue_months"_s,
                          {});
    if (!rows)
        return rows.error();
    RevenueMonths months;
    for (const QVariantList &row : std::as_const(rows.value()))
        months.m_sums[{row.at(0).toLongLong(), row.at(1).toString(), row.at(2).toLongLong(),
                       row.at(3).toString(), row.at(4).toString(), row.at(5).toString()}] =
            row.at(6).toLongLong();
    return months;
}

api::Result<QStringList> RevenueMonths::differences(const QSqlDatabase &db)
{
    auto kept = RevenueMonths::kept(db);
    if (!kept)
        return kept.error();
    auto counted = recount(db);
    if (!counted)
        return counted.error();
    QStringList differences;
    std::map<Key, std::pair<qint64, qint64>> both; // kept, counted
    for (const auto &[key, minor] : kept.value().sums())
        both[key].first = minor;
    for (const auto &[key, minor] : counted.value().sums())
        both[key].second = minor;
    for (const auto &[key, sums] : both)
        if (sums.first != sums.second)
            differences.append(
                u"revenue of organization %1 (%2) in the month from %3, product \"%4\", feature"
                " \"%5\", %6: kept %7 minor units, its statements add up to %8"_s.arg(
                    QString::number(std::get<0>(key)), std::get<1>(key),
                    QString::number(std::get<2>(key)), std::get<3>(key), std::get<4>(key),
                    std::get<5>(key), QString::number(sums.first), QString::number(sums.second)));
    return differences;
}

} // namespace md::engine
