#include "services/api/BalanceAdjustment.h"

#include "services/api/TextRule.h"

namespace md::api {

using namespace Qt::StringLiterals;

BalanceAdjustment BalanceAdjustment::read(const JsonReader &reader)
{
    reader.object();
    BalanceAdjustment adjustment;
    adjustment.balanceId = reader.field("balance_id"_L1).identifier();
    const JsonReader amount = reader.field("amount"_L1);
    adjustment.amount = amount.decimal();
    if (reader.ok() && adjustment.amount.isZero())
        amount.fail(u"must not be 0: an adjustment changes the balance"_s);
    // Trimmed, then held to the free-text rule, as the console's form does.
    const JsonReader reason = reader.field("reason"_L1);
    adjustment.reason = reason.string().trimmed();
    if (reader.ok())
        if (const auto problem = freeTextProblem(adjustment.reason, MaxReasonLength))
            reason.fail(*problem);
    return adjustment;
}

void BalanceAdjustment::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("balance_id"_L1, balanceId)
        .field("amount"_L1, amount)
        .field("reason"_L1, reason)
        .endObject();
}

} // namespace md::api
