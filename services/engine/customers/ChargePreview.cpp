#include "services/engine/customers/ChargePreview.h"

#include "services/engine/charges/Money.h"
#include "services/engine/customers/CustomerPlans.h"
#include "services/engine/customers/OpenCharges.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using api::ApiError;
using namespace Qt::StringLiterals;

api::Result<api::ChargesPreview> ChargePreview::preview(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope,
                                                        const QString &customerId, qint64 nowMs)
{
    auto customer = queryRows(db,
                              u"SELECT c.pk, c.statement_from, c.statement_due_at, o.currency"
                              " FROM customers c JOIN organizations o ON o.pk = c.org_pk"
                              " WHERE c.org_pk = ? AND c.env = ? AND c.id = ?"_s,
                              {scope.orgPk, scope.envWord(), customerId});
    if (!customer)
        return customer.error();
    if (customer.value().isEmpty())
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                  u"customer \"%1\" does not exist"_s.arg(customerId));
    const qint64 customerPk = customer.value().first().at(0).toLongLong();
    api::ChargesPreview preview;
    preview.customerId = customerId;
    const auto money = Money::of(customer.value().first().at(3).toString());
    if (!money)
        return ApiError::internal(u"the organization's currency is not an ISO 4217 code"_s);
    preview.currency = money->code();
    // The open statement's period once the clock opened it, so the preview
    // is what that statement will say.
    const auto open = optionalInteger(customer.value().first().at(1));
    const auto due = optionalInteger(customer.value().first().at(2));
    if (open && due && *open <= nowMs && nowMs < *due) {
        std::tie(preview.periodStart, preview.periodEnd) = std::pair(*open, *due);
    } else {
        auto plans = CustomerPlans::of(db, dialect, {customerPk});
        if (!plans)
            return plans.error();
        std::tie(preview.periodStart, preview.periodEnd) =
            CustomerPlans::periodAt(plans.value().value(customerPk), nowMs);
    }
    auto lines = OpenCharges::lines(
        db, dialect, {{customerPk, preview.periodStart, preview.periodEnd}}, nowMs, *money);
    if (!lines)
        return lines.error();
    preview.lines = lines.value().value(customerPk);
    auto total = Money::total(preview.lines);
    if (!total)
        return total.error();
    preview.total = total.value();
    return preview;
}

} // namespace md::engine
