// Closed statements and revenue (docs/api.md, "statements.list",
// "revenue.summary"; docs/billing.md): what each customer was billed for a
// closed billing period, line by line, and what the organization billed
// added up by month, product, feature or customer.
#pragma once

#include "services/api/ChargesPreview.h"

namespace md::api {

struct Statement
{
    QString id;
    QString customerId;
    qint64 periodStart = 0; // ms, included
    qint64 periodEnd = 0;   // ms, excluded
    QString currency;
    QList<ChargeLine> lines;
    Decimal total; // the exact sum of the lines' amounts
    qint64 closedAt = 0;

    static Statement read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Statement &, const Statement &) = default;
};

struct StatementGetRequest
{
    QString id;

    static StatementGetRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StatementGetRequest &, const StatementGetRequest &) = default;
};

enum class RevenueGroupBy { Month, Product, Feature, Customer };

QLatin1StringView toWire(RevenueGroupBy value);

struct RevenueSummaryRequest
{
    // The customers a `customer` summary names; the rest are one group.
    static constexpr qsizetype TopCustomers = 100;

    qint64 from = 0; // ms: statements whose period starts in [from, to)
    qint64 to = 0;
    RevenueGroupBy groupBy = RevenueGroupBy::Month;
    bool includeOpen = false; // the open periods so far, in the month they started
    // How old the open periods' figures may be (docs/billing.md, "Revenue so
    // far"): 0, worked out now; up to an hour, the server's kept figures.
    static constexpr qint64 MaxOpenAgeMs = 3'600'000;
    qint64 openMaxAgeMs = 0;

    static RevenueSummaryRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const RevenueSummaryRequest &, const RevenueSummaryRequest &) = default;
};

struct RevenueGroup
{
    QString key; // a month's first moment (ISO date), a product, feature or customer id
    Decimal fixed;
    Decimal usage;
    Decimal prepaid;
    Decimal credits;
    Decimal total;

    static RevenueGroup read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const RevenueGroup &, const RevenueGroup &) = default;
};

struct RevenueSummary
{
    // The key of the group that sums the customers past the top ones.
    static constexpr QLatin1StringView OtherCustomers{"(others)"};
    // The key of usage from rows of no plan or of a fixed price's feature.
    static constexpr QLatin1StringView NoKey{"(none)"};

    QString currency;
    QList<RevenueGroup> groups;
    Decimal total;
    // With include_open: the moment the open periods' figures were worked
    // out (ms, the scope's clock); none without.
    std::optional<qint64> openAsOf;

    static RevenueSummary read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const RevenueSummary &, const RevenueSummary &) = default;
};

} // namespace md::api
