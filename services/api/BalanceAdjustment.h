// balances.adjust (docs/api.md "balances.adjust", docs/ledger.md): a manual
// correction of one balance by a signed amount, with the reason finance
// gives for it. Answered with the ledger entry it wrote. Documented in
// docs/openapi.yaml under /v1/meterdesk.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Ledger.h"

#include <QString>

namespace md::api {

struct BalanceAdjustment
{
    static constexpr qsizetype MaxReasonLength = 500;

    QString balanceId;
    Decimal amount; // added to the balance's remaining: negative takes away; never 0
    QString reason; // free text (TextRule.h), 1 to 500 characters, kept in the audit log

    static BalanceAdjustment read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalanceAdjustment &, const BalanceAdjustment &) = default;
};

} // namespace md::api
