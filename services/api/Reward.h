// Rewards (docs/api.md, Rewards): feature grants and coupons,
// each with promo codes.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace md::api {

enum class ExpiryType { Day, Week, Month, Year };
enum class CouponType { PercentageDiscount, FixedDiscount, InvoiceCredits };
enum class CouponDurationType { OneOff, Months, Forever };

QLatin1StringView toWire(ExpiryType value);
QLatin1StringView toWire(CouponType value);
QLatin1StringView toWire(CouponDurationType value);

struct GrantExpiry
{
    ExpiryType type = ExpiryType::Month;
    qint64 length = 1; // a positive integer

    static GrantExpiry read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const GrantExpiry &, const GrantExpiry &) = default;
};

struct FeatureGrant
{
    QString featureId;
    Decimal included;                  // not negative
    std::optional<GrantExpiry> expiry; // omitted or null: never expires; written as null

    static FeatureGrant read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureGrant &, const FeatureGrant &) = default;
};

struct FeatureGrantPromoCode
{
    QString code; // not empty
    qint64 maxUses = 0;

    static FeatureGrantPromoCode read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureGrantPromoCode &, const FeatureGrantPromoCode &) = default;
};

struct CouponPromoCode
{
    QString code; // not empty
    qint64 globalMaxRedemption = 0;
    bool firstTimeTransaction = false;

    static CouponPromoCode read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CouponPromoCode &, const CouponPromoCode &) = default;
};

struct CouponDuration
{
    CouponDurationType type = CouponDurationType::OneOff;
    qint64 length = 0; // at least 1 for `months`; may be omitted otherwise (0)

    static CouponDuration read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CouponDuration &, const CouponDuration &) = default;
};

// Promo code lists (codes unique within the list) and plan id lists.
QList<FeatureGrantPromoCode> readFeatureGrantPromoCodes(const JsonReader &reader);
QList<CouponPromoCode> readCouponPromoCodes(const JsonReader &reader);

struct FeatureGrantRecord
{
    QString id;
    QString name;
    QList<FeatureGrantPromoCode> promoCodes;
    QList<FeatureGrant> grants;
    qint64 createdAt = 0;

    static FeatureGrantRecord read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureGrantRecord &, const FeatureGrantRecord &) = default;
};

struct CouponRecord
{
    QString id;
    QString name;
    CouponType type = CouponType::PercentageDiscount;
    Decimal value; // not negative; at most 100 for percentage_discount
    CouponDuration duration;
    std::optional<QStringList> planIds; // null: applies to every plan
    QList<CouponPromoCode> promoCodes;
    qint64 createdAt = 0;

    static CouponRecord read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CouponRecord &, const CouponRecord &) = default;
};

} // namespace md::api
