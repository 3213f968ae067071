// The balance adjustment form (docs/ledger.md, "Adjustments"): the amount as
// typed and the reason, turned into a balances.adjust request or a problem
// naming the field, and the change shown for review before it is sent.
#pragma once

#include "models/ProductEdit.h"
#include "services/api/Balance.h"
#include "services/api/BalanceAdjustment.h"
#include "services/api/Result.h"
#include "services/backend/BillingBackend.h"

#include <QCoreApplication>
#include <QLocale>

namespace md::models {

class BalanceAdjustEdit final
{
    Q_DECLARE_TR_FUNCTIONS(BalanceAdjustEdit)

public:
    // A signed amount as typed: digits with the locale's decimal point or
    // ".", a leading "+" or "-"; no thousands separators, which would make
    // "12.500" mean two things. nullopt when it is not such an amount.
    static std::optional<api::Decimal> amountFrom(const QString &text,
                                                  const QLocale &locale = QLocale());
    static api::Result<api::BalanceAdjustment> request(const api::BalanceRow &row,
                                                       const QString &amountText,
                                                       const QString &reason,
                                                       const QLocale &locale = QLocale());
    // Sends the adjustment: the views reach the backend through the models
    // (docs/architecture.md).
    static backend::Reply<api::LedgerEntry> submit(backend::BillingBackend *backend,
                                                   const api::BalanceAdjustment &request);
    // Remaining before and after, the adjustment and its reason.
    static QList<FieldChange> changes(const api::BalanceRow &row,
                                      const api::BalanceAdjustment &request,
                                      const QLocale &locale = QLocale());
};

} // namespace md::models
