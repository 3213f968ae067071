// The balance adjustment form (docs/ledger.md, "Adjustments"): the amount as
// typed and the reason, turned into a balances.adjust request or a problem
// naming the field, the change shown for review before it is sent, and how
// long it lasts: a reset puts a balance back to its grant, so a credit that
// must last goes on one of the customer's balances that do not reset.
#pragma once

#include "models/common/FieldChange.h"
#include "services/api/Balance.h"
#include "services/api/BalanceAdjustment.h"
#include "services/api/BalanceCreation.h"
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
    // Whether the row's next reset puts its remaining back to the grant.
    static bool resets(const api::BalanceRow &row);
    // How long `amount` lasts on `row`, in words: until the reset ("This
    // balance resets on …; the credit lasts until then…"), or until it is
    // used when the row does not reset.
    static QString lasting(const api::BalanceRow &row, const api::Decimal &amount,
                           const QLocale &locale = QLocale());
    // Where a credit lasts instead: the customer's standalone balances of
    // the row's feature (its entity's, for an entity's row) that do not
    // reset; there may be none.
    static backend::Reply<QList<api::BalanceRow>> lastingBalances(backend::BillingBackend *backend,
                                                                  const api::BalanceRow &row);
    // Or a new one (balances.create): a standalone balance of the row's
    // customer, entity and feature holding the amount typed, which must be
    // more than 0; held until used.
    static api::Result<api::BalanceCreation> creation(const api::BalanceRow &row,
                                                      const QString &amountText,
                                                      const QString &reason,
                                                      const QLocale &locale = QLocale());
    static backend::Reply<api::LedgerEntry> create(backend::BillingBackend *backend,
                                                   const api::BalanceCreation &request);
    // The new balance, what it holds and the reason, for review.
    static QList<FieldChange> creationChanges(const api::BalanceCreation &request,
                                              const QLocale &locale = QLocale());
    // How long a new balance's credit lasts, in words.
    static QString lastingNew(const api::BalanceCreation &request,
                              const QLocale &locale = QLocale());

private:
    struct Typed
    {
        api::Decimal amount;
        QString reason;
    };
    // The amount and reason as typed, each checked, or a problem naming the field.
    static api::Result<Typed> typed(const QString &amountText, const QString &reason,
                                    const QLocale &locale);
};

} // namespace md::models
