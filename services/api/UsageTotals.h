// usage_events.totals (docs/api.md, "usage_events.totals"): the recorded
// usage of a filter added up per UTC day, grouped by feature, customer or
// model, the largest groups named and the rest summed, for a chart drawn
// from every event rather than from the newest pages.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

#include <QDate>
#include <QList>

#include <optional>

namespace md::api {

enum class UsageGroupBy { Feature, Customer, Model };

QLatin1StringView toWire(UsageGroupBy value);

struct UsageTotalsRequest
{
    static constexpr qint64 DefaultTop = 10;
    static constexpr qint64 MaxTop = 50;

    std::optional<QString> customerId;
    std::optional<QString> featureId;
    std::optional<QString> modelId;
    std::optional<qint64> from; // ms, included
    std::optional<qint64> to;   // ms, excluded
    UsageGroupBy groupBy = UsageGroupBy::Feature;
    qint64 top = DefaultTop; // groups named; the rest make `other`

    static UsageTotalsRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageTotalsRequest &, const UsageTotalsRequest &) = default;
};

// What some events add up to. `cost` sums the events of model calls (AI
// credits, dollar for dollar), `units` the other events' values, which
// count each feature's own unit; the two are never added together.
struct UsageFigures
{
    qint64 events = 0;
    Decimal cost;
    Decimal units;
    qint64 tokens = 0;

    UsageFigures &operator+=(const UsageFigures &other);
    friend bool operator==(const UsageFigures &, const UsageFigures &) = default;
};

struct UsageDay
{
    QDate day; // UTC
    UsageFigures figures;

    static UsageDay read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageDay &, const UsageDay &) = default;
};

struct UsageGroup
{
    // The feature, customer or model id; null for the events of no model.
    std::optional<QString> key;
    UsageFigures figures;
    QList<UsageDay> days; // oldest first, only days with events

    static UsageGroup read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageGroup &, const UsageGroup &) = default;
};

struct UsageTotals
{
    QList<UsageGroup> groups; // the largest first: by cost, then units, then key
    // The groups past `top`, summed (their number in `otherGroups`).
    std::optional<UsageGroup> other;
    qint64 otherGroups = 0;
    UsageFigures total;
    // Days the range covers only in part: the first when `from` is not a
    // midnight, the last when the range's end (or now) is not.
    QList<QDate> partialDays;

    static UsageTotals read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageTotals &, const UsageTotals &) = default;
};

} // namespace md::api
