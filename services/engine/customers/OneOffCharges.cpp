#include "services/engine/customers/OneOffCharges.h"

#include "services/engine/charges/UsageCharge.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using api::ApiError;
using api::Decimal;
using namespace Qt::StringLiterals;

api::Result<QList<OneOffCharges::Row>> OneOffCharges::read(const QSqlDatabase &db, Dialect dialect,
                                                           const QList<qint64> &customerPks)
{
    QList<Row> rows;
    if (customerPks.isEmpty())
        return rows;
    QVariantList binds;
    const QString which = inKeys(dialect, u"b.customer_pk"_s, customerPks, binds);
    auto found = queryRows(
        db,
        u"SELECT b.customer_pk, b.id, b.price, b.included_grant, b.prepaid_grant, b.usage, f.id,"
        " e.id, p.id FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " LEFT JOIN products p ON p.pk = cp.product_pk WHERE "_s +
            which +
            u" AND b.price IS NOT NULL AND b.unlimited = 0 AND b.resets_at IS NULL"
            " ORDER BY b.customer_pk, b.pk"_s,
        binds);
    if (!found)
        return found.error();
    if (found.value().isEmpty())
        return rows; // the usual case: one statement, nothing more
    QHash<QString, qsizetype> byId;
    QVariantList ids;
    for (const QVariantList &r : std::as_const(found.value())) {
        auto price =
            decodeStored<api::Price>(r.at(2), u"price of balance %1"_s.arg(r.at(1).toString()));
        if (!price)
            return price.error();
        const auto grant = decimalOf(r.at(3)).plus(decimalOf(r.at(4)));
        if (!grant)
            return ApiError::internal(
                u"the grant of %1 leaves the range"_s.arg(r.at(1).toString()));
        byId.insert(r.at(1).toString(), rows.size());
        ids.append(r.at(1));
        rows.append({r.at(0).toLongLong(), r.at(1).toString(), r.at(6).toString(),
                     optionalText(r.at(8)), optionalText(r.at(7)), price.value(),
                     decimalOf(r.at(5)), *grant, Decimal()});
    }
    // What their earlier statements billed: the lines' quantities past the
    // grant (these rows' only, not the customers' whole history).
    QVariantList lineBinds;
    const QString customers = inKeys(dialect, u"customer_pk"_s, customerPks, lineBinds);
    QStringList marks;
    for (const QVariant &id : std::as_const(ids)) {
        marks.append(u"?"_s);
        lineBinds.append(id);
    }
    auto billed =
        queryRows(db,
                  u"SELECT balance_id, line FROM charge_lines WHERE "_s + customers +
                      u" AND advance = 0 AND balance_id IN ("_s + marks.join(u", "_s) + u")"_s,
                  lineBinds);
    if (!billed)
        return billed.error();
    for (const QVariantList &r : std::as_const(billed.value())) {
        const auto row = byId.constFind(r.at(0).toString());
        if (row == byId.cend())
            continue;
        auto line = decodeStored<api::ChargeLine>(r.at(1), u"a charge line"_s);
        if (!line)
            return line.error();
        Row &owner = rows[*row];
        owner.billedPast = owner.billedPast.runningSum(line.value().quantity);
    }
    return rows;
}

api::Result<std::optional<api::ChargeLine>> OneOffCharges::line(const Row &row, const Money &money)
{
    const int digits = money.minorDigits();
    auto now = UsageCharges::charge(row.price, row.usage, row.grant, digits);
    auto before =
        UsageCharges::charge(row.price, row.grant.runningSum(row.billedPast), row.grant, digits);
    if (!now || !before)
        return ApiError::internal(
            u"balance %1's price: %2"_s.arg(row.balanceId, (!now ? now : before).error().message));
    const Decimal more = now.value().pastGrant.runningSum(row.billedPast.negated());
    if (more.isZero())
        return std::optional<api::ChargeLine>();
    api::ChargeLine line = UsageCharges::line(
        {row.balanceId, row.featureId, row.planId, row.entityId, row.usage, row.grant},
        now.value());
    line.quantity = more;
    line.billableUnits =
        now.value().billableUnits.runningSum(before.value().billableUnits.negated());
    line.amount = now.value().amount.runningSum(before.value().amount.negated());
    line.description =
        u"%1 %2 used in all, %3 included, %4 past it billed before: %5 more,"
        " billed as %6 = %7"_s.arg(row.usage.toString(), row.featureId, row.grant.toString(),
                                   row.billedPast.toString(), more.toString(),
                                   line.billableUnits->toString(), line.amount.toString());
    return std::optional(line);
}

} // namespace md::engine
