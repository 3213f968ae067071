#include "services/api/BalanceCreation.h"

#include "services/api/BalanceAdjustment.h"
#include "services/api/TextRule.h"

namespace md::api {

using namespace Qt::StringLiterals;

BalanceCreation BalanceCreation::read(const JsonReader &reader)
{
    reader.object();
    BalanceCreation creation;
    creation.customerId = reader.field("customer_id"_L1).identifier();
    creation.featureId = reader.field("feature_id"_L1).identifier();
    creation.entityId = reader.field("entity_id"_L1).optIdentifier();
    const JsonReader amount = reader.field("amount"_L1);
    creation.amount = amount.decimal();
    if (reader.ok() && (creation.amount.isZero() || creation.amount.isNegative()))
        amount.fail(u"must be more than 0: a new balance holds what it is granted"_s);
    if (const JsonReader expires = reader.field("expires_at"_L1); !expires.isMissingOrNull())
        creation.expiresAt = expires.integer();
    // The adjustment's rule: trimmed, then held to the free-text rule.
    const JsonReader reason = reader.field("reason"_L1);
    creation.reason = reason.string().trimmed();
    if (reader.ok())
        if (const auto problem =
                freeTextProblem(creation.reason, BalanceAdjustment::MaxReasonLength))
            reason.fail(*problem);
    return creation;
}

void BalanceCreation::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).field("feature_id"_L1, featureId);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    writer.field("amount"_L1, amount);
    if (expiresAt)
        writer.field("expires_at"_L1, *expiresAt);
    writer.field("reason"_L1, reason).endObject();
}

} // namespace md::api
