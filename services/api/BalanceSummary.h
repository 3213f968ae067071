// Per-feature balance summaries (docs/api.md, Balance summaries): snake_case in the
// track-tokens response, camelCase inside the import's customer object (§2.3).
#pragma once

#include "services/api/Balance.h"

#include <QMap>

namespace md::api {

// A row of a summary's `breakdown`: the subset of a balance row (§2.1) that summaries carry.
struct BalanceBreakdownRow
{
    QString id;                    // may be omitted on the wire, default empty (as in §2.1)
    std::optional<QString> planId; // null for standalone balances
    Decimal includedGrant;
    Decimal prepaidGrant;
    Decimal remaining;
    Decimal usage;
    bool unlimited = false;
    std::optional<Reset> reset;      // null when there is no reset
    std::optional<Price> price;      // null when not usage-priced
    std::optional<qint64> expiresAt; // null means no expiry

    static BalanceBreakdownRow read(const JsonReader &reader);
    static BalanceBreakdownRow readCamel(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    void writeCamel(JsonWriter &writer) const;
    friend bool operator==(const BalanceBreakdownRow &, const BalanceBreakdownRow &) = default;
};

struct BalanceSummary
{
    QString featureId;
    Decimal granted;
    Decimal remaining;
    Decimal usage;
    bool unlimited = false;
    bool overageAllowed = false;
    // The largest max_purchase of the rows' prices; null (always written, as
    // the published client requires the key) when no price sets one.
    std::optional<Decimal> maxPurchase;
    std::optional<qint64> nextResetAt; // null when nothing of the feature resets
    QList<BalanceBreakdownRow> breakdown;

    // Adds a balance row: its grants, remaining and usage to the totals, its
    // reset to the next reset, its price's max_purchase to the maximum (and
    // a pay-per-use price allows overage), the row to the breakdown. False
    // on overflow.
    [[nodiscard]] bool add(const BalanceRow &row);

    static BalanceSummary read(const JsonReader &reader);
    static BalanceSummary readCamel(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    void writeCamel(JsonWriter &writer) const;
    friend bool operator==(const BalanceSummary &, const BalanceSummary &) = default;
};

} // namespace md::api
