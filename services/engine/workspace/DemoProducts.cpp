#include "services/engine/workspace/DemoProducts.h"

#include "services/api/Decimal.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonValue;

namespace {

JsonValue feature(const QString &id, const QString &name, const QString &type, qint64 createdAt)
{
    return JsonValue::object(
        {{"id"_L1, id}, {"name"_L1, name}, {"type"_L1, type}, {"created_at"_L1, createdAt}});
}

} // namespace

const QList<DemoProducts::Plan> &DemoProducts::plans()
{
    static const QList<Plan> all{
        {"free"_L1,
         u"Free"_s,
         {{"api_calls"_L1, 1000, u"month"_s}, {"ai_credits"_L1, 2, u"month"_s}}},
        {"starter"_L1,
         u"Starter"_s,
         {{"api_calls"_L1, 10000, u"month"_s},
          {"ai_credits"_L1, 10, u"month"_s},
          {"seats"_L1, 3, {}}},
         false,
         2900},
        {"pro"_L1,
         u"Pro"_s,
         {{"api_calls"_L1, 100000, u"month"_s},
          {"ai_credits"_L1, 50, u"month"_s},
          {"seats"_L1, 10, {}},
          {"storage_gb"_L1, 100, u"month"_s}},
         false,
         9900},
        {"enterprise"_L1,
         u"Enterprise"_s,
         {{"api_calls"_L1, 1000000, u"month"_s},
          {"ai_credits"_L1, 500, u"month"_s},
          {"seats"_L1, 50, {}},
          {"storage_gb"_L1, 1000, u"month"_s},
          {"messages"_L1, 20000, u"week"_s}},
         false,
         49900},
        {"ai_boost"_L1, u"AI Boost add-on"_s, {{"ai_credits"_L1, 25, u"month"_s}}, true, 2000},
    };
    return all;
}

JsonValue DemoProducts::money(qint64 cents)
{
    return api::Decimal::fromRaw(api::Int128(cents) * (api::Decimal::One / 100));
}

JsonValue DemoProducts::decimal(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

CreditMarkups DemoProducts::markups()
{
    CreditMarkups markups;
    markups.defaultMarkup = api::Decimal::fromInteger(20);
    markups.byProvider = {{"openai"_L1, api::Decimal::fromInteger(10)},
                          {"anthropic"_L1, api::Decimal::fromInteger(15)}};
    markups.byModel = {{u"openai/gpt-4o-mini"_s, api::Decimal::fromInteger(-100)},
                       {u"google/gemini-2.0-flash"_s, api::Decimal::fromInteger(5)}};
    return markups;
}

JsonValue DemoProducts::features(qint64 createdAt)
{
    JsonValue ai = feature(u"ai_credits"_s, u"AI credits (USD)"_s, u"credit_system"_s, createdAt);
    const CreditMarkups markups = DemoProducts::markups();
    JsonValue markupList = JsonValue::array();
    QStringList providers = markups.byProvider.keys();
    providers.sort();
    for (const QString &provider : std::as_const(providers))
        markupList.append(JsonValue::object(
            {{"provider"_L1, provider}, {"markup"_L1, markups.byProvider.value(provider)}}));
    QStringList models = markups.byModel.keys();
    models.sort();
    for (const QString &model : std::as_const(models))
        markupList.append(JsonValue::object({{"provider"_L1, model.section(u'/', 0, 0)},
                                             {"model"_L1, model.section(u'/', 1)},
                                             {"markup"_L1, markups.byModel.value(model)}}));
    ai.insert(u"credit_system"_s, JsonValue::object({{"default_markup"_L1, *markups.defaultMarkup},
                                                     {"markups"_L1, markupList}}));
    return JsonValue::array(
        {feature(u"api_calls"_s, u"API calls"_s, u"single_use"_s, createdAt),
         feature(u"seats"_s, u"Seats"_s, u"continuous_use"_s, createdAt),
         feature(u"storage_gb"_s, u"Storage (GB)"_s, u"single_use"_s, createdAt),
         feature(u"messages"_s, u"Messages"_s, u"single_use"_s, createdAt),
         feature(u"premium_support"_s, u"Premium support"_s, u"boolean"_s, createdAt), ai});
}

JsonValue DemoProducts::rollover()
{
    return JsonValue::object(
        {{"max"_L1, JsonValue::null()}, {"length"_L1, 1}, {"duration"_L1, u"month"_s}});
}

JsonValue DemoProducts::products(qint64 createdAt)
{
    JsonValue list = JsonValue::array();
    for (const Plan &plan : plans()) {
        JsonValue items = JsonValue::array();
        for (const PlanItem &item : plan.items) {
            JsonValue json = JsonValue::object(
                {{"feature_id"_L1, item.feature},
                 {"feature_type"_L1,
                  item.feature == "seats"_L1 ? u"continuous_use"_s : u"single_use"_s},
                 {"included_usage"_L1, item.included},
                 {"interval"_L1,
                  item.interval.isEmpty() ? JsonValue::null() : JsonValue(item.interval)},
                 {"usage_model"_L1,
                  item.feature == "ai_credits"_L1 ? u"prepaid"_s : u"pay_per_use"_s},
                 {"billing_units"_L1, 1},
                 {"reset_usage_when_enabled"_L1, true}});
            // More credits than the plan includes are bought at 1.00 each.
            if (item.feature == "ai_credits"_L1)
                json.insert(u"price"_s, 1);
            if (item.feature == "api_calls"_L1 && !item.interval.isEmpty())
                json.insert(u"rollover"_s, rollover());
            if (item.feature == "api_calls"_L1)
                json.insert(
                    u"tiers"_s,
                    JsonValue::array(
                        {JsonValue::object({{"to"_L1, 100000}, {"amount"_L1, decimal("0.002")}}),
                         JsonValue::object(
                             {{"to"_L1, u"inf"_s}, {"amount"_L1, decimal("0.001")}})}));
            items.append(json);
        }
        if (plan.monthlyFeeCents > 0)
            items.append(JsonValue::object({{"feature_id"_L1, JsonValue::null()},
                                            {"interval"_L1, u"month"_s},
                                            {"price"_L1, money(plan.monthlyFeeCents)}}));
        list.append(JsonValue::object(
            {{"id"_L1, plan.id},
             {"name"_L1, plan.name},
             {"group"_L1, plan.addOn ? JsonValue(u"add-ons"_s) : JsonValue(u"plans"_s)},
             {"version"_L1, 1},
             {"is_add_on"_L1, plan.addOn},
             {"is_default"_L1, plan.id == "free"_L1},
             {"archived"_L1, false},
             {"items"_L1, items},
             {"free_trial"_L1, plan.id == "pro"_L1
                                   ? JsonValue(JsonValue::object({{"duration"_L1, u"day"_s},
                                                                  {"length"_L1, 14},
                                                                  {"unique_fingerprint"_L1, true}}))
                                   : JsonValue::null()},
             {"created_at"_L1, createdAt}}));
    }
    return list;
}

JsonValue DemoProducts::rewards(qint64 createdAt)
{
    return JsonValue::array(
        {JsonValue::object(
             {{"coupon"_L1,
               JsonValue::object({{"id"_L1, u"launch20"_s},
                                  {"name"_L1, u"Launch 20% off"_s},
                                  {"type"_L1, u"percentage_discount"_s},
                                  {"value"_L1, 20},
                                  {"duration"_L1,
                                   JsonValue::object({{"type"_L1, u"months"_s}, {"length"_L1, 3}})},
                                  {"plan_ids"_L1, JsonValue::array({u"starter"_s, u"pro"_s})},
                                  {"promo_codes"_L1, JsonValue::array({JsonValue::object(
                                                         {{"code"_L1, u"LAUNCH20"_s},
                                                          {"global_max_redemption"_L1, 500},
                                                          {"first_time_transaction"_L1, true}})})},
                                  {"created_at"_L1, createdAt}})}}),
         JsonValue::object(
             {{"coupon"_L1,
               JsonValue::object({{"id"_L1, u"credit50"_s},
                                  {"name"_L1, u"$50 invoice credit"_s},
                                  {"type"_L1, u"invoice_credits"_s},
                                  {"value"_L1, 50},
                                  {"duration"_L1, JsonValue::object({{"type"_L1, u"one_off"_s}})},
                                  {"plan_ids"_L1, JsonValue::null()},
                                  {"promo_codes"_L1, JsonValue::array({JsonValue::object(
                                                         {{"code"_L1, u"THANKS50"_s},
                                                          {"global_max_redemption"_L1, 100},
                                                          {"first_time_transaction"_L1, false}})})},
                                  {"created_at"_L1, createdAt}})}}),
         JsonValue::object(
             {{"feature_grant"_L1,
               JsonValue::object(
                   {{"id"_L1, u"ai_welcome"_s},
                    {"name"_L1, u"AI welcome credits"_s},
                    {"promo_codes"_L1, JsonValue::array({JsonValue::object(
                                           {{"code"_L1, u"AIWELCOME"_s}, {"max_uses"_L1, 1000}})})},
                    {"grants"_L1, JsonValue::array({JsonValue::object(
                                      {{"feature_id"_L1, u"ai_credits"_s},
                                       {"included"_L1, 5},
                                       {"expiry"_L1, JsonValue::object({{"type"_L1, u"month"_s},
                                                                        {"length"_L1, 1}})}})})},
                    {"created_at"_L1, createdAt}})}}),
         JsonValue::object(
             {{"feature_grant"_L1,
               JsonValue::object(
                   {{"id"_L1, u"api_burst"_s},
                    {"name"_L1, u"API burst pack"_s},
                    {"promo_codes"_L1, JsonValue::array({JsonValue::object(
                                           {{"code"_L1, u"BURST10K"_s}, {"max_uses"_L1, 50}})})},
                    {"grants"_L1,
                     JsonValue::array({JsonValue::object({{"feature_id"_L1, u"api_calls"_s},
                                                          {"included"_L1, 10000},
                                                          {"expiry"_L1, JsonValue::null()}})})},
                    {"created_at"_L1, createdAt}})}})});
}

} // namespace md::engine
