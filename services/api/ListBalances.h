// balances.list request and response (docs/api.md, balances.list).
#pragma once

#include "services/api/Balance.h"

#include <QSet>

namespace md::api {

// Meterdesk's extension of balances.list: the order of the rows. Customer
// is the spec's (customers in creation order, then balances); the others
// sort by the amount or the next reset, the balance key breaking ties.
enum class BalanceOrder { Customer, Remaining, Usage, NextReset };
QLatin1StringView toWire(BalanceOrder order);

struct ListBalancesRequest
{
    static constexpr qint64 DefaultLimit = 50;
    static constexpr qint64 MaxLimit = 200;

    std::optional<QString> customerId;
    std::optional<QString> entityId;
    qint64 limit = DefaultLimit;
    QString startCursor;
    QList<BalanceStatus> statuses{BalanceStatus::Active};
    // Outer nullopt: no plan filter; inner nullopt: JSON null, balances without a plan.
    std::optional<std::optional<QString>> planId;
    std::optional<QString> featureId;
    // Meterdesk's extension: rows whose next reset comes before this instant
    // (ms since the epoch); rows that never reset are left out.
    std::optional<qint64> resetsBefore;
    // Meterdesk's extension, "who runs out": rows whose remaining is below
    // this amount, and rows whose remaining is below this whole percentage
    // (1 to 100) of their grant (included plus prepaid). An unlimited row
    // is never below either.
    std::optional<Decimal> remainingBelow;
    std::optional<qint64> remainingBelowPercent;
    BalanceOrder orderBy = BalanceOrder::Customer;
    bool descending = false;

    bool includes(BalanceStatus status) const { return statuses.contains(status); }
    bool filtersAmounts() const { return remainingBelow || remainingBelowPercent; }
    // Whether a row's amounts pass remainingBelow and remainingBelowPercent,
    // exactly (the databases' own reading of them may round).
    bool amountsPass(const Decimal &remaining, const Decimal &included, const Decimal &prepaid,
                     bool unlimited) const;

    static ListBalancesRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    // The filter's members alone (no limit or cursor), into an open object.
    void writeFilter(JsonWriter &writer) const;
    friend bool operator==(const ListBalancesRequest &, const ListBalancesRequest &) = default;
};

struct ListBalancesResponse
{
    QList<BalanceRow> list;
    bool hasMore = false;
    std::optional<QString> nextCursor;

    static ListBalancesResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ListBalancesResponse &, const ListBalancesResponse &) = default;
};

} // namespace md::api
