#include "services/engine/customers/OpenCharges.h"

#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/clock/ResetCharges.h"
#include "services/engine/customers/CustomerPlans.h"
#include "services/engine/customers/OneOffCharges.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using api::ApiError;
using api::Decimal;
using namespace Qt::StringLiterals;

api::Result<Money> OpenCharges::moneyOf(const QSqlDatabase &db, qint64 orgPk)
{
    auto rows = queryRows(db, u"SELECT currency FROM organizations WHERE pk = ?"_s, {orgPk});
    if (!rows)
        return rows.error();
    const QString code =
        rows.value().isEmpty() ? u"usd"_s : rows.value().first().first().toString();
    const auto money = Money::of(code);
    if (!money)
        return ApiError::internal(
            u"organization %1's currency \"%2\" is not an ISO 4217 code"_s.arg(orgPk).arg(code));
    return *money;
}

api::Result<QHash<qint64, QList<api::ChargeLine>>>
OpenCharges::lines(const QSqlDatabase &db, Dialect dialect, const QList<OpenPeriod> &periods,
                   qint64 nowMs, const Money &money)
{
    QHash<qint64, QList<api::ChargeLine>> lines;
    if (periods.isEmpty())
        return lines;
    QList<qint64> pks;
    QHash<qint64, OpenPeriod> byCustomer;
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (const OpenPeriod &period : periods) {
        pks.append(period.customerPk);
        byCustomer.insert(period.customerPk, period);
        earliest = std::min(earliest, period.start);
    }
    auto plans = CustomerPlans::of(db, dialect, pks);
    if (!plans)
        return plans.error();
    for (const OpenPeriod &period : periods) {
        auto fixed = CustomerPlans::fixedLines(plans.value().value(period.customerPk), period.start,
                                               period.end, money.minorDigits());
        if (!fixed)
            return fixed.error();
        lines[period.customerPk] = std::move(fixed).value();
    }
    auto billed = ResetCharges::read(db, dialect, pks, earliest, nowMs);
    if (!billed)
        return billed.error();
    for (ResetCharges::Line &line : billed.value()) {
        const OpenPeriod period = byCustomer.value(line.customerPk);
        if (line.within(period.start, period.end))
            lines[line.customerPk].append(std::move(line.line));
    }

    // Usage since each priced row's last reset, in the listing's order,
    // when that reset closes within the period (the statement it lands on):
    // a usage-based row's past its grant, a prepaid row's past what was bought.
    QVariantList binds;
    const QString which = inKeys(dialect, u"b.customer_pk"_s, pks, binds);
    binds.append(nowMs);
    auto rows = queryRows(
        db,
        u"SELECT b.customer_pk, b.id, b.price, b.included_grant, b.prepaid_grant, b.usage,"
        " b.resets_at, f.id, e.id, p.id FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " LEFT JOIN products p ON p.pk = cp.product_pk WHERE "_s +
            which +
            u" AND b.price IS NOT NULL AND b.unlimited = 0 AND b.expired_at IS NULL"
            " AND (b.expires_at IS NULL OR b.expires_at > ?) ORDER BY b.customer_pk, b.pk"_s,
        binds);
    if (!rows)
        return rows.error();
    QHash<QString, api::Price> prices; // one decoding per distinct price
    for (const QVariantList &row : std::as_const(rows.value())) {
        const qint64 customerPk = row.at(0).toLongLong();
        const QString balanceId = row.at(1).toString();
        const auto resetsAt = optionalInteger(row.at(6));
        if (!resetsAt || *resetsAt > byCustomer.value(customerPk).end)
            continue; // never resets (below), or billed on a later period's statement
        const QString stored = row.at(2).toString();
        auto price = prices.constFind(stored);
        if (price == prices.cend()) {
            auto decoded =
                decodeStored<api::Price>(row.at(2), u"price of balance %1"_s.arg(balanceId));
            if (!decoded)
                return decoded.error();
            price = prices.insert(stored, decoded.value());
        }
        const Decimal usage = decimalOf(row.at(5));
        const auto grant = decimalOf(row.at(3)).plus(decimalOf(row.at(4)));
        if (!grant)
            return ApiError::internal(u"the grant of %1 leaves the range"_s.arg(balanceId));
        auto charge = UsageCharges::charge(*price, usage, *grant, money.minorDigits());
        if (!charge)
            return ApiError::internal(
                u"balance %1's price: %2"_s.arg(balanceId, charge.error().message));
        // A prepaid row within what was bought owes nothing more: no line.
        if (price->billingMethod == api::BillingMethod::Prepaid &&
            charge.value().pastGrant.isZero())
            continue;
        lines[customerPk].append(
            UsageCharges::line({balanceId, row.at(7).toString(), optionalText(row.at(9)),
                                optionalText(row.at(8)), usage, *grant},
                               charge.value()));
    }
    // Rows that never reset: what is used past the grant and not billed yet.
    auto oneOff = OneOffCharges::read(db, dialect, pks);
    if (!oneOff)
        return oneOff.error();
    for (const OneOffCharges::Row &row : std::as_const(oneOff.value())) {
        auto line = OneOffCharges::line(row, money);
        if (!line)
            return line.error();
        if (line.value())
            lines[row.customerPk].append(*line.value());
    }
    return lines;
}

} // namespace md::engine
