// What billing.import does to one customer, as the wizard shows it: the
// outcome word of a dry run or a commit, and a before/after of the identity
// fields, plans and balances. The server's dry run says what happens to each
// plan; the identity fields are the file's against the customer as read
// before; the balances after are projected from the customer before, minus
// the rows of expired plans, plus the grants of attached plans less the usage
// reported for them.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/api/Product.h"

#include <QCoreApplication>
#include <QHash>

namespace md::models {

// Unchanged: the customer is there already and the import would change
// nothing (its plans answered skipped, already in force or already ended).
enum class ImportOutcome { Pending, New, Updated, Unchanged, Expired, Mismatch, Error };
constexpr int ImportOutcomeCount = int(ImportOutcome::Error) + 1;

struct PlanChange
{
    QString planId;
    std::optional<api::PlanStatus> before; // nullopt: the customer does not have it
    std::optional<api::PlanStatus> after;  // nullopt: unchanged (skipped)
    QString reason;                        // e.g. "already_active", "usage_exceeds_grant"
};

// An identity field the import writes (customer_data, or a processor id the
// customer has none of yet), as text for the preview.
struct IdentityChange
{
    enum Field { Name, Email, Fingerprint, CreatedAt, StripeId, RevenueCatId };
    Field field = Name;
    QString before; // empty: the customer is new, or has none
    QString after;
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
    bool newCustomer = false;
    QList<IdentityChange> identity; // only the fields whose value changes
    QList<PlanChange> plans;
    QList<BalanceChange> balances; // by feature id

    // `before` is nullopt for a customer the workspace does not have yet.
    static ImportChanges project(const std::optional<api::Customer> &before,
                                 const api::ImportCustomerRequest &request,
                                 const api::ImportCustomerResponse &response,
                                 const QHash<QString, api::Product> &products);
    // `changes` as projected for the same request (its identity fields).
    // Why a dry run is a mismatch, in words: where Stripe says otherwise
    // than the source (and that Stripe's is imported), else usage past the
    // plan's grant.
    static QString mismatchInWords(const api::ImportCustomerResponse &response);
    static ImportOutcome classify(bool existed, const api::ImportCustomerResponse &response,
                                  const ImportChanges &changes);
    static QString outcomeName(ImportOutcome outcome);
    static QString fieldName(IdentityChange::Field field);
    // A plan the import leaves as it is, with the server's reason.
    static QString unchangedWords(const QString &reason);
    // One line: "name changes, basic expires, + pro (active)", or that nothing changes.
    QString summary() const;
};

} // namespace md::models
