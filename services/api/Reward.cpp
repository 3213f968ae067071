#include "services/api/Reward.h"

#include "services/api/WireCodec.h"

#include <QHash>

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, ExpiryType> ExpiryTypeWords[] = {
    {"day"_L1, ExpiryType::Day},
    {"week"_L1, ExpiryType::Week},
    {"month"_L1, ExpiryType::Month},
    {"year"_L1, ExpiryType::Year},
};
constexpr std::pair<QLatin1StringView, CouponType> CouponTypeWords[] = {
    {"percentage_discount"_L1, CouponType::PercentageDiscount},
    {"fixed_discount"_L1, CouponType::FixedDiscount},
    {"invoice_credits"_L1, CouponType::InvoiceCredits},
};
constexpr std::pair<QLatin1StringView, CouponDurationType> CouponDurationTypeWords[] = {
    {"one_off"_L1, CouponDurationType::OneOff},
    {"months"_L1, CouponDurationType::Months},
    {"forever"_L1, CouponDurationType::Forever},
};

QString readCode(const JsonReader &reader)
{
    const QString code = reader.string();
    if (reader.ok() && code.isEmpty())
        reader.fail(u"must not be empty"_s);
    return code;
}

// Reads a promo code list; a code may appear once only. Looked up by hash: a
// 1 MiB body holds some 40,000 codes, and comparing each with every earlier
// one kept a server thread busy for seconds.
template <typename T> QList<T> readPromoCodes(const JsonReader &reader)
{
    QList<T> codes;
    QHash<QString, qsizetype> firstAt;
    for (const JsonReader &item : reader.array()) {
        T code = T::read(item);
        const qsizetype first = firstAt.value(code.code, codes.size());
        if (first != codes.size())
            item.field("code"_L1).fail(u"duplicates promo_codes[%1]"_s.arg(first));
        else
            firstAt.insert(code.code, first);
        codes.append(std::move(code));
    }
    return codes;
}

} // namespace

QLatin1StringView toWire(ExpiryType value)
{
    return wordOf(ExpiryTypeWords, value);
}
QLatin1StringView toWire(CouponType value)
{
    return wordOf(CouponTypeWords, value);
}
QLatin1StringView toWire(CouponDurationType value)
{
    return wordOf(CouponDurationTypeWords, value);
}

GrantExpiry GrantExpiry::read(const JsonReader &reader)
{
    reader.object();
    GrantExpiry expiry;
    expiry.type = reader.field("type"_L1).word(ExpiryTypeWords);
    expiry.length = reader.field("length"_L1).integer(1);
    return expiry;
}

void GrantExpiry::write(JsonWriter &writer) const
{
    writer.beginObject().field("type"_L1, toWire(type)).field("length"_L1, length).endObject();
}

FeatureGrant FeatureGrant::read(const JsonReader &reader)
{
    reader.object();
    FeatureGrant grant;
    grant.featureId = reader.field("feature_id"_L1).string();
    grant.included = reader.field("included"_L1).nonNegativeDecimal();
    const JsonReader expiry = reader.field("expiry"_L1);
    if (!expiry.isMissingOrNull())
        grant.expiry = GrantExpiry::read(expiry);
    return grant;
}

void FeatureGrant::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("feature_id"_L1, featureId)
        .field("included"_L1, included)
        .key("expiry"_L1);
    writeNullable(writer, expiry);
    writer.endObject();
}

FeatureGrantPromoCode FeatureGrantPromoCode::read(const JsonReader &reader)
{
    reader.object();
    FeatureGrantPromoCode code;
    code.code = readCode(reader.field("code"_L1));
    code.maxUses = reader.field("max_uses"_L1).integer();
    return code;
}

void FeatureGrantPromoCode::write(JsonWriter &writer) const
{
    writer.beginObject().field("code"_L1, code).field("max_uses"_L1, maxUses).endObject();
}

CouponPromoCode CouponPromoCode::read(const JsonReader &reader)
{
    reader.object();
    CouponPromoCode code;
    code.code = readCode(reader.field("code"_L1));
    code.globalMaxRedemption = reader.field("global_max_redemption"_L1).integer();
    code.firstTimeTransaction = reader.field("first_time_transaction"_L1).boolean();
    return code;
}

void CouponPromoCode::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("code"_L1, code)
        .field("global_max_redemption"_L1, globalMaxRedemption)
        .field("first_time_transaction"_L1, firstTimeTransaction)
        .endObject();
}

CouponDuration CouponDuration::read(const JsonReader &reader)
{
    reader.object();
    CouponDuration duration;
    duration.type = reader.field("type"_L1).word(CouponDurationTypeWords);
    // Only "months" counts; one_off and forever may leave the length out.
    const JsonReader length = reader.field("length"_L1);
    duration.length = length.optInteger().value_or(0);
    if (reader.ok() && duration.type == CouponDurationType::Months && duration.length < 1)
        length.fail(u"must be at least 1 for \"months\""_s);
    return duration;
}

void CouponDuration::write(JsonWriter &writer) const
{
    writer.beginObject().field("type"_L1, toWire(type)).field("length"_L1, length).endObject();
}

QList<FeatureGrantPromoCode> readFeatureGrantPromoCodes(const JsonReader &reader)
{
    return readPromoCodes<FeatureGrantPromoCode>(reader);
}

QList<CouponPromoCode> readCouponPromoCodes(const JsonReader &reader)
{
    return readPromoCodes<CouponPromoCode>(reader);
}

FeatureGrantRecord FeatureGrantRecord::read(const JsonReader &reader)
{
    reader.object();
    FeatureGrantRecord record;
    record.id = reader.field("id"_L1).string();
    record.name = reader.field("name"_L1).string();
    record.promoCodes = readFeatureGrantPromoCodes(reader.field("promo_codes"_L1));
    record.grants = readList<FeatureGrant>(reader.field("grants"_L1));
    record.createdAt = reader.field("created_at"_L1).integer();
    return record;
}

void FeatureGrantRecord::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("name"_L1, name).key("promo_codes"_L1);
    writeList(writer, promoCodes);
    writer.key("grants"_L1);
    writeList(writer, grants);
    writer.field("created_at"_L1, createdAt).endObject();
}

CouponRecord CouponRecord::read(const JsonReader &reader)
{
    reader.object();
    CouponRecord record;
    record.id = reader.field("id"_L1).string();
    record.name = reader.field("name"_L1).string();
    record.type = reader.field("type"_L1).word(CouponTypeWords);
    const JsonReader value = reader.field("value"_L1);
    record.value = value.nonNegativeDecimal();
    if (reader.ok() && record.type == CouponType::PercentageDiscount &&
        record.value > Decimal::fromInteger(100))
        value.fail(u"must not exceed 100 for \"percentage_discount\""_s);
    record.duration = CouponDuration::read(reader.field("duration"_L1));
    const JsonReader planIds = reader.field("plan_ids"_L1);
    if (!planIds.isNull())
        record.planIds = readStringList(planIds);
    record.promoCodes = readCouponPromoCodes(reader.field("promo_codes"_L1));
    record.createdAt = reader.field("created_at"_L1).integer();
    return record;
}

void CouponRecord::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("type"_L1, toWire(type))
        .field("value"_L1, value)
        .key("duration"_L1);
    duration.write(writer);
    writer.key("plan_ids"_L1);
    if (planIds)
        writeStrings(writer, *planIds);
    else
        writer.null();
    writer.key("promo_codes"_L1);
    writeList(writer, promoCodes);
    writer.field("created_at"_L1, createdAt).endObject();
}

} // namespace md::api
