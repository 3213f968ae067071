// balances.create (docs/api.md "balances.create", docs/ledger.md): a
// standalone balance made by hand, from no plan, that never resets: where a
// credit finance gives lasts until it is used or the balance's own
// expires_at. Answered with the `grant` ledger entry it wrote, whose
// balance_id names the new balance. Documented in docs/openapi.yaml.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Ledger.h"

#include <QString>

#include <optional>

namespace md::api {

struct BalanceCreation
{
    QString customerId;
    QString featureId;
    std::optional<QString> entityId; // an entity's balance, as its plan rows are
    Decimal amount;                  // granted: more than 0
    std::optional<qint64> expiresAt; // ms, after now; none: held until used
    QString reason; // free text (TextRule.h), as balances.adjust's, in the audit log

    static BalanceCreation read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalanceCreation &, const BalanceCreation &) = default;
};

} // namespace md::api
