// balances.totals (docs/api.md, "balances.totals"): the balances.list filter
// added up in the database, by feature, plan or customer, in exact decimals.
#pragma once

#include "services/api/ListBalances.h"

namespace md::api {

// ResetMonth: the UTC month of the row's next reset as "YYYY-MM" (a
// Meterdesk extension); rows that never reset make the null group.
enum class TotalsGroupBy { Feature, Plan, Customer, ResetMonth };

QLatin1StringView toWire(TotalsGroupBy value);

struct BalanceTotalsRequest
{
    // The balances.list filter; its limit and start_cursor are not read or written.
    ListBalancesRequest filter;
    TotalsGroupBy groupBy = TotalsGroupBy::Feature;

    static BalanceTotalsRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalanceTotalsRequest &, const BalanceTotalsRequest &) = default;
};

// What a set of balance rows adds up to: `balances` counts rows, `customers`
// distinct customers; `granted` is included plus prepaid grants.
struct TotalsFigures
{
    qint64 balances = 0;
    qint64 customers = 0;
    Decimal granted;
    Decimal remaining;
    Decimal usage;

    friend bool operator==(const TotalsFigures &, const TotalsFigures &) = default;
};

struct TotalsGroup
{
    // The feature, plan or customer id, or the month; null for the balances
    // without a plan (or without a reset).
    std::optional<QString> key;
    TotalsFigures figures;

    static TotalsGroup read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const TotalsGroup &, const TotalsGroup &) = default;
};

struct BalanceTotals
{
    QList<TotalsGroup> groups; // by key, the null key first
    TotalsFigures total;

    static BalanceTotals read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalanceTotals &, const BalanceTotals &) = default;
};

} // namespace md::api
