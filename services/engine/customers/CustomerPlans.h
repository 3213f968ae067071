// Customers' plans as billing needs them (docs/billing.md): each
// subscription with its product's items, the billing period that holds a
// moment, and the fixed prices a period owes. charges.preview and the
// statements read them alike, so a preview and the statement it becomes
// agree line for line.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/charges/FixedCharge.h"
#include "services/engine/sql/Dialect.h"

#include <QHash>
#include <QSqlDatabase>

namespace md::engine {

struct CustomerPlan
{
    QString id; // the product's
    bool addOn = false;
    Subscription subscription;
    api::ResetInterval renewal = api::ResetInterval::OneOff;
    qint64 anchor = 0; // the periods' origin
    QList<api::ProductItem> items;
};

class CustomerPlans final
{
public:
    // The plans of each customer, in the order they were attached.
    static api::Result<QHash<qint64, QList<CustomerPlan>>>
    of(const QSqlDatabase &db, Dialect dialect, const QList<qint64> &customerPks);

    // [start, end) of the billing period holding `atMs`: that of the first
    // plan on at that moment that renews (a plan before an add-on), counted
    // from its anchor; else the calendar month in UTC.
    static std::pair<qint64, qint64> periodAt(const QList<CustomerPlan> &plans, qint64 atMs);

    // Opens the first statement period of those of these customers (key,
    // moment) that have none: the one holding its moment. Returns how many
    // it opened.
    static api::Result<qint64> openFirstPeriods(const QSqlDatabase &db, Dialect dialect,
                                                const QList<std::pair<qint64, qint64>> &customers);

    // The fixed prices the period [start, end) owes, a line each.
    static api::Result<QList<api::ChargeLine>>
    fixedLines(const QList<CustomerPlan> &plans, qint64 start, qint64 end, int minorDigits);
};

} // namespace md::engine
