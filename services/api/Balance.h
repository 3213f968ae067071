// Wire types of a balance row (docs/api.md, Balance rows) and its parts.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QString>

#include <optional>

namespace md::api {

enum class ResetInterval {
    OneOff,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    SemiAnnual,
    Year,
    Multiple
};
enum class TierBehavior { Graduated, Volume };
enum class BillingMethod { Prepaid, UsageBased };
enum class BalanceStatus { Active, Expired };

QLatin1StringView toWire(ResetInterval value);
QLatin1StringView toWire(TierBehavior value);
QLatin1StringView toWire(BillingMethod value);
QLatin1StringView toWire(BalanceStatus value);
ResetInterval readResetInterval(const JsonReader &reader);
std::optional<ResetInterval> resetIntervalFromWire(QStringView word);
BalanceStatus readBalanceStatus(const JsonReader &reader);
// minute..year: the intervals that repeat (a product item's, a rollover's).
ResetInterval readRepeatingInterval(const JsonReader &reader);

// What a reset carries over (Autumn's shape; docs/api.md, "The billing
// clock"): the unused remaining, at most `max` (null keeps all, counting
// the rollovers already held), kept for `length` × `duration`.
struct RolloverRule
{
    std::optional<Decimal> max;                    // not negative; null keeps all
    qint64 length = 1;                             // at least 1
    ResetInterval duration = ResetInterval::Month; // minute..year

    static RolloverRule read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const RolloverRule &, const RolloverRule &) = default;
};

struct Reset
{
    ResetInterval interval = ResetInterval::Month;
    std::optional<qint64> intervalCount;
    std::optional<qint64> resetsAt;
    // Meterdesk's extension: what the reset carries over, copied from the
    // product item when the balance was made; absent when nothing does.
    std::optional<RolloverRule> rollover;

    static Reset read(const JsonReader &reader, KeyCase keys = KeyCase::Snake);
    void write(JsonWriter &writer, KeyCase keys = KeyCase::Snake) const;
    friend bool operator==(const Reset &, const Reset &) = default;
};

struct Tier
{
    std::optional<Decimal> to; // nullopt is the wire's "inf"
    Decimal amount;
    std::optional<Decimal> flatAmount;

    static Tier read(const JsonReader &reader, KeyCase keys = KeyCase::Snake);
    void write(JsonWriter &writer, KeyCase keys = KeyCase::Snake) const;
    friend bool operator==(const Tier &, const Tier &) = default;
};

struct Price
{
    std::optional<Decimal> amount;
    std::optional<QList<Tier>> tiers;
    std::optional<TierBehavior> tierBehavior;
    Decimal billingUnits = Decimal::fromInteger(1);
    BillingMethod billingMethod = BillingMethod::UsageBased;
    std::optional<Decimal> maxPurchase; // null means unlimited

    static Price read(const JsonReader &reader, KeyCase keys = KeyCase::Snake);
    void write(JsonWriter &writer, KeyCase keys = KeyCase::Snake) const;
    friend bool operator==(const Price &, const Price &) = default;
};

struct Rollover
{
    Decimal granted;
    Decimal balance;
    qint64 expiresAt = 0;

    static Rollover read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Rollover &, const Rollover &) = default;
};

struct BalanceRow
{
    QString id;
    std::optional<QString> planId;
    Decimal includedGrant;
    Decimal prepaidGrant;
    Decimal remaining;
    Decimal usage;
    bool unlimited = false;
    std::optional<Reset> reset;
    std::optional<Price> price;
    std::optional<qint64> expiresAt;
    QString featureId;
    BalanceStatus status = BalanceStatus::Active;
    QList<Rollover> rollovers;
    QString customerId;
    std::optional<QString> entityId;
    qint64 createdAt = 0;

    static BalanceRow read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalanceRow &, const BalanceRow &) = default;
};

} // namespace md::api
