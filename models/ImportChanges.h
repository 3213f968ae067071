// What billing.import does to one customer, as the wizard shows it: the
// outcome word of a dry run or a commit, and a before/after of plans and
// balances. The server's dry run says what happens to each plan; the balances
// after are projected from the customer before, minus the rows of expired
// plans, plus the grants of attached plans less the usage reported for them.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/api/Product.h"

#include <QCoreApplication>
#include <QHash>

namespace md::models {

enum class ImportOutcome { Pending, New, Updated, Skipped, Expired, Mismatch, Error };
constexpr int ImportOutcomeCount = int(ImportOutcome::Error) + 1;

struct PlanChange
{
    QString planId;
    std::optional<api::PlanStatus> before; // nullopt: the customer does not have it
    std::optional<api::PlanStatus> after;  // nullopt: unchanged (skipped)
    QString reason;                        // e.g. "already_active", "usage_exceeds_grant"
};

struct BalanceChange
{
    QString featureId;
    api::Decimal grantedBefore;
    api::Decimal remainingBefore;
    api::Decimal grantedAfter;
    api::Decimal remainingAfter;
};

struct ImportChanges
{
    Q_DECLARE_TR_FUNCTIONS(ImportChanges)

public:
    QList<PlanChange> plans;
    QList<BalanceChange> balances; // by feature id

    // `before` is nullopt for a customer the workspace does not have yet.
    static ImportChanges project(const std::optional<api::Customer> &before,
                                 const api::ImportCustomerRequest &request,
                                 const api::ImportCustomerResponse &response,
                                 const QHash<QString, api::Product> &products);
    static ImportOutcome classify(bool existed, const api::ImportCustomerResponse &response);
    static QString outcomeName(ImportOutcome outcome);
    // One line: "basic expires, + pro (active)".
    QString summary() const;
};

} // namespace md::models
