// What the Balances page shows: every balances.list filter as view state,
// convertible to a request and to a small JSON object for saved views.
#pragma once

#include "services/api/ListBalances.h"
#include "services/api/Result.h"

#include <QDate>
#include <QJsonObject>
#include <QLocale>
#include <QString>

#include <optional>

namespace md::models {

struct BalanceFilter
{
    enum class PlanMode { Any, NoPlan, Plan };

    QString customerId; // empty: all customers
    QString entityId;   // only with a customer
    QString featureId;  // empty: every feature
    PlanMode planMode = PlanMode::Any;
    QString planId; // with PlanMode::Plan
    bool active = true;
    bool expired = false;
    // Rows whose next reset comes before the start of this day (local time).
    std::optional<QDate> resetsBefore;
    // Who runs out: rows whose remaining is below an amount, or below a
    // whole percentage (1 to 100) of their grant.
    std::optional<api::Decimal> remainingBelow;
    std::optional<int> remainingBelowPercent;
    // The rows' order: the server sorts (docs/api.md, balances.list).
    api::BalanceOrder orderBy = api::BalanceOrder::Customer;
    bool descending = false;

    // "Remaining below" as typed: an amount in the feature's unit, or with
    // `percent` a whole percentage of the grant, 1 to 100. Sets it and
    // answers an empty string, or answers what to type instead.
    QString setRemainingBelow(const QString &text, bool percent, const QLocale &locale);

    // The request for the first page, or why the filter cannot be asked
    // (no status chosen), in words for the person who set it.
    api::Result<api::ListBalancesRequest> request() const;

    QJsonObject toJson() const;
    static std::optional<BalanceFilter> fromJson(const QJsonObject &json);
    // The same as bytes, for window state.
    QByteArray serialized() const;
    static std::optional<BalanceFilter> fromSerialized(const QByteArray &bytes);

    friend bool operator==(const BalanceFilter &, const BalanceFilter &) = default;
};

} // namespace md::models
