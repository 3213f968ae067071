#include "services/engine/DemoWorkspace.h"

#include "services/api/Decimal.h"
#include "services/engine/TokenPricing.h"

#include <QJsonArray>
#include <QRandomGenerator>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Day = 24LL * 3600 * 1000;

struct PlanItem
{
    QString feature;
    qint64 included;
    QString interval; // empty: no reset
};

struct Plan
{
    QString id;
    QString name;
    QList<PlanItem> items;
    bool addOn = false;
};

const QList<Plan> &plans()
{
    static const QList<Plan> all{
        {u"free"_s,
         u"Free"_s,
         {{u"api_calls"_s, 1000, u"month"_s}, {u"ai_credits"_s, 2, u"month"_s}}},
        {u"starter"_s,
         u"Starter"_s,
         {{u"api_calls"_s, 10000, u"month"_s},
          {u"ai_credits"_s, 10, u"month"_s},
          {u"seats"_s, 3, {}}}},
        {u"pro"_s,
         u"Pro"_s,
         {{u"api_calls"_s, 100000, u"month"_s},
          {u"ai_credits"_s, 50, u"month"_s},
          {u"seats"_s, 10, {}},
          {u"storage_gb"_s, 100, u"month"_s}}},
        {u"enterprise"_s,
         u"Enterprise"_s,
         {{u"api_calls"_s, 1000000, u"month"_s},
          {u"ai_credits"_s, 500, u"month"_s},
          {u"seats"_s, 50, {}},
          {u"storage_gb"_s, 1000, u"month"_s},
          {u"messages"_s, 20000, u"week"_s}}},
        {u"ai_boost"_s, u"AI Boost add-on"_s, {{u"ai_credits"_s, 25, u"month"_s}}, true},
    };
    return all;
}

QJsonValue money(qint64 cents)
{
    return api::Decimal::fromRaw(api::Int128(cents) * (api::Decimal::One / 100)).toJson();
}

QJsonObject feature(const QString &id, const QString &name, const QString &type, qint64 createdAt)
{
    return {{u"id"_s, id}, {u"name"_s, name}, {u"type"_s, type}, {u"created_at"_s, createdAt}};
}

// The AI credit system's markups: written into the workspace by features()
// and used to price the demo's usage events.
CreditMarkups demoMarkups()
{
    CreditMarkups markups;
    markups.defaultMarkup = api::Decimal::fromInteger(20);
    markups.byProvider = {{u"openai"_s, api::Decimal::fromInteger(10)},
                          {u"anthropic"_s, api::Decimal::fromInteger(15)}};
    markups.byModel = {{u"openai/gpt-4o-mini"_s, api::Decimal::fromInteger(-100)},
                       {u"google/gemini-2.0-flash"_s, api::Decimal::fromInteger(5)}};
    return markups;
}

QJsonArray features(qint64 createdAt)
{
    QJsonObject ai = feature(u"ai_credits"_s, u"AI credits (USD)"_s, u"credit_system"_s, createdAt);
    const CreditMarkups markups = demoMarkups();
    QJsonArray markupList;
    QStringList providers = markups.byProvider.keys();
    providers.sort();
    for (const QString &provider : std::as_const(providers))
        markupList.append(QJsonObject{{u"provider"_s, provider},
                                      {u"markup"_s, markups.byProvider.value(provider).toJson()}});
    QStringList models = markups.byModel.keys();
    models.sort();
    for (const QString &model : std::as_const(models))
        markupList.append(QJsonObject{{u"provider"_s, model.section(u'/', 0, 0)},
                                      {u"model"_s, model.section(u'/', 1)},
                                      {u"markup"_s, markups.byModel.value(model).toJson()}});
    ai.insert(u"credit_system"_s,
              QJsonObject{{u"default_markup"_s, markups.defaultMarkup->toJson()},
                          {u"markups"_s, markupList}});
    return {feature(u"api_calls"_s, u"API calls"_s, u"single_use"_s, createdAt),
            feature(u"seats"_s, u"Seats"_s, u"continuous_use"_s, createdAt),
            feature(u"storage_gb"_s, u"Storage (GB)"_s, u"single_use"_s, createdAt),
            feature(u"messages"_s, u"Messages"_s, u"single_use"_s, createdAt),
            feature(u"premium_support"_s, u"Premium support"_s, u"boolean"_s, createdAt),
            ai};
}

QJsonArray products(qint64 createdAt)
{
    QJsonArray list;
    for (const Plan &plan : plans()) {
        QJsonArray items;
        for (const PlanItem &item : plan.items) {
            QJsonObject json{{u"feature_id"_s, item.feature},
                             {u"feature_type"_s,
                              item.feature == "seats"_L1 ? u"continuous_use"_s : u"single_use"_s},
                             {u"included_usage"_s, item.included},
                             {u"interval"_s, item.interval.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                                     : QJsonValue(item.interval)},
                             {u"usage_model"_s, u"pay_per_use"_s},
                             {u"billing_units"_s, 1},
                             {u"reset_usage_when_enabled"_s, true}};
            if (item.feature == "api_calls"_L1)
                json.insert(u"tiers"_s,
                            QJsonArray{QJsonObject{{u"to"_s, 100000}, {u"amount"_s, 0.002}},
                                       QJsonObject{{u"to"_s, u"inf"_s}, {u"amount"_s, 0.001}}});
            items.append(json);
        }
        list.append(QJsonObject{
            {u"id"_s, plan.id},
            {u"name"_s, plan.name},
            {u"group"_s, plan.addOn ? QJsonValue(u"add-ons"_s) : QJsonValue(u"plans"_s)},
            {u"version"_s, 1},
            {u"is_add_on"_s, plan.addOn},
            {u"is_default"_s, plan.id == "free"_L1},
            {u"archived"_s, false},
            {u"items"_s, items},
            {u"free_trial"_s, plan.id == "pro"_L1
                                  ? QJsonValue(QJsonObject{{u"duration"_s, u"day"_s},
                                                           {u"length"_s, 14},
                                                           {u"unique_fingerprint"_s, true}})
                                  : QJsonValue(QJsonValue::Null)},
            {u"created_at"_s, createdAt}});
    }
    return list;
}

QJsonArray rewards(qint64 createdAt)
{
    return {
        QJsonObject{
            {u"coupon"_s,
             QJsonObject{
                 {u"id"_s, u"launch20"_s},
                 {u"name"_s, u"Launch 20% off"_s},
                 {u"type"_s, u"percentage_discount"_s},
                 {u"value"_s, 20},
                 {u"duration"_s, QJsonObject{{u"type"_s, u"months"_s}, {u"length"_s, 3}}},
                 {u"plan_ids"_s, QJsonArray{u"starter"_s, u"pro"_s}},
                 {u"promo_codes"_s, QJsonArray{QJsonObject{{u"code"_s, u"LAUNCH20"_s},
                                                           {u"global_max_redemption"_s, 500},
                                                           {u"first_time_transaction"_s, true}}}},
                 {u"created_at"_s, createdAt}}}},
        QJsonObject{{u"coupon"_s,
                     QJsonObject{{u"id"_s, u"credit50"_s},
                                 {u"name"_s, u"$50 invoice credit"_s},
                                 {u"type"_s, u"invoice_credits"_s},
                                 {u"value"_s, 50},
                                 {u"duration"_s, QJsonObject{{u"type"_s, u"one_off"_s}}},
                                 {u"plan_ids"_s, QJsonValue::Null},
                                 {u"promo_codes"_s,
                                  QJsonArray{QJsonObject{{u"code"_s, u"THANKS50"_s},
                                                         {u"global_max_redemption"_s, 100},
                                                         {u"first_time_transaction"_s, false}}}},
                                 {u"created_at"_s, createdAt}}}},
        QJsonObject{
            {u"feature_grant"_s,
             QJsonObject{{u"id"_s, u"ai_welcome"_s},
                         {u"name"_s, u"AI welcome credits"_s},
                         {u"promo_codes"_s, QJsonArray{QJsonObject{{u"code"_s, u"AIWELCOME"_s},
                                                                   {u"max_uses"_s, 1000}}}},
                         {u"grants"_s,
                          QJsonArray{QJsonObject{{u"feature_id"_s, u"ai_credits"_s},
                                                 {u"included"_s, 5},
                                                 {u"expiry"_s, QJsonObject{{u"type"_s, u"month"_s},
                                                                           {u"length"_s, 1}}}}}},
                         {u"created_at"_s, createdAt}}}},
        QJsonObject{
            {u"feature_grant"_s,
             QJsonObject{{u"id"_s, u"api_burst"_s},
                         {u"name"_s, u"API burst pack"_s},
                         {u"promo_codes"_s,
                          QJsonArray{QJsonObject{{u"code"_s, u"BURST10K"_s}, {u"max_uses"_s, 50}}}},
                         {u"grants"_s, QJsonArray{QJsonObject{{u"feature_id"_s, u"api_calls"_s},
                                                              {u"included"_s, 10000},
                                                              {u"expiry"_s, QJsonValue::Null}}}},
                         {u"created_at"_s, createdAt}}}}};
}

const QStringList Companies{u"Acme"_s,     u"Globex"_s,   u"Initech"_s,   u"Umbrella"_s,
                            u"Hooli"_s,    u"Vandelay"_s, u"Stark"_s,     u"Wayne"_s,
                            u"Wonka"_s,    u"Tyrell"_s,   u"Cyberdyne"_s, u"Soylent"_s,
                            u"Aperture"_s, u"Massive"_s,  u"Pied Piper"_s};
const QStringList Suffixes{u"Labs"_s,  u"Systems"_s, u"Analytics"_s,
                           u"Cloud"_s, u"AI"_s,      u"Studio"_s};

class Generator final
{
public:
    explicit Generator(const DemoOptions &options)
        : m_options(options)
        , m_random(options.seed)
        , m_now(options.nowMs)
    {}

    QJsonArray customers(const QString &env, int count)
    {
        QJsonArray list;
        for (int i = 0; i < count; ++i)
            list.append(customer(env, i));
        return list;
    }

private:
    qint64 between(qint64 low, qint64 high)
    {
        return low + qint64(m_random.bounded(quint64(high - low + 1)));
    }
    bool chance(int percent) { return int(m_random.bounded(100)) < percent; }

    QString nextBalanceId() { return u"bal_%1"_s.arg(++m_balanceSerial, 8, 10, QLatin1Char('0')); }

    QJsonObject balance(const QString &feature, const QJsonValue &customerProduct,
                        const QJsonValue &entity, qint64 includedCents, qint64 prepaidCents,
                        const QString &interval, const QJsonValue &expiresAt, qint64 createdAt)
    {
        const qint64 grant = includedCents + prepaidCents;
        const qint64 usage = grant > 0 ? between(0, grant) : 0;
        QJsonValue reset = QJsonValue::Null;
        if (!interval.isEmpty()) {
            const qint64 period = interval == "week"_L1 ? 7 * Day : 30 * Day;
            reset = QJsonObject{{u"interval"_s, interval},
                                {u"interval_count"_s, 1},
                                {u"resets_at"_s, m_now + between(1, period / Day) * Day}};
        }
        QJsonValue price = QJsonValue::Null;
        if (feature == "api_calls"_L1 && !customerProduct.isNull())
            price = QJsonObject{
                {u"tiers"_s, QJsonArray{QJsonObject{{u"to"_s, 100000}, {u"amount"_s, 0.002}},
                                        QJsonObject{{u"to"_s, u"inf"_s}, {u"amount"_s, 0.001}}}},
                {u"tier_behavior"_s, u"graduated"_s},
                {u"billing_units"_s, 1},
                {u"billing_method"_s, u"usage_based"_s},
                {u"max_purchase"_s, QJsonValue::Null}};
        return {{u"id"_s, nextBalanceId()},
                {u"feature_id"_s, feature},
                {u"customer_product_id"_s, customerProduct},
                {u"entity_id"_s, entity},
                {u"included_grant"_s, money(includedCents)},
                {u"prepaid_grant"_s, money(prepaidCents)},
                {u"remaining"_s, money(grant - usage)},
                {u"usage"_s, money(usage)},
                {u"unlimited"_s, false},
                {u"overage_allowed"_s, feature == "api_calls"_L1},
                {u"reset"_s, reset},
                {u"price"_s, price},
                {u"expires_at"_s, expiresAt},
                {u"created_at"_s, createdAt},
                {u"rollovers"_s, QJsonArray()}};
    }

    QJsonObject customer(const QString &env, int index)
    {
        const QString company = Companies.at(index % Companies.size()) + u' ' +
                                Suffixes.at((index / Companies.size()) % Suffixes.size());
        const QString id = u"%1-%2"_s.arg(company.toLower().replace(u' ', u'-'))
                               .arg(index + 1, 4, 10, QLatin1Char('0'));
        const qint64 createdAt = m_now - between(30, 700) * Day;
        QJsonArray processors;
        const bool paying = index % 7 != 0;
        if (paying)
            processors.append(
                QJsonObject{{u"type"_s, u"stripe"_s}, {u"id"_s, u"cus_%1"_s.arg(1000000 + index)}});
        if (index % 11 == 0)
            processors.append(
                QJsonObject{{u"type"_s, u"revenuecat"_s}, {u"id"_s, u"rc_%1"_s.arg(index)}});

        // Plan mix: mostly starter and pro, a few free and enterprise.
        const int roll = int(m_random.bounded(100));
        const Plan &plan = plans().at(!paying ? 0 : roll < 45 ? 1 : roll < 85 ? 2 : 3);
        const bool expiredPlan = chance(8);
        const QString cpId = u"cp_%1_%2"_s.arg(env).arg(index + 1);
        const qint64 started = createdAt + Day;
        QJsonArray customerProducts{QJsonObject{
            {u"id"_s, cpId},
            {u"plan_id"_s, plan.id},
            {u"version"_s, 1},
            {u"processor"_s, paying ? QJsonValue(u"stripe"_s) : QJsonValue(QJsonValue::Null)},
            {u"subscription_id"_s,
             paying ? QJsonValue(u"sub_%1"_s.arg(5000000 + index)) : QJsonValue(QJsonValue::Null)},
            {u"schedule_id"_s, QJsonValue::Null},
            {u"status"_s, expiredPlan ? u"expired"_s : u"active"_s},
            {u"quantity"_s, 1},
            {u"started_at"_s, started},
            {u"current_period_start"_s, m_now - 10 * Day},
            {u"current_period_end"_s, m_now + 20 * Day},
            {u"trial_ends_at"_s, QJsonValue::Null},
            {u"canceled_at"_s,
             expiredPlan ? QJsonValue(m_now - 5 * Day) : QJsonValue(QJsonValue::Null)},
            {u"expires_at"_s,
             expiredPlan ? QJsonValue(m_now - 5 * Day) : QJsonValue(QJsonValue::Null)},
            {u"created_at"_s, started}}};

        QJsonArray balances;
        QJsonArray entities;
        for (const PlanItem &item : plan.items) {
            const qint64 prepaid =
                item.feature == "ai_credits"_L1 && chance(30) ? between(5, 50) * 100 : 0;
            QJsonObject row = balance(item.feature, cpId, QJsonValue::Null, item.included * 100,
                                      prepaid, item.interval, QJsonValue::Null, started);
            if (item.feature == "api_calls"_L1 && plan.id != "free"_L1 && chance(40)) {
                const qint64 granted = between(100, item.included / 10) * 100;
                row.insert(u"rollovers"_s, QJsonArray{QJsonObject{
                                               {u"granted"_s, money(granted)},
                                               {u"balance"_s, money(between(0, granted))},
                                               {u"expires_at"_s, m_now + between(5, 60) * Day}}});
            }
            balances.append(row);
        }
        if (plan.id == "pro"_L1 || plan.id == "enterprise"_L1) {
            // Seats used by named entities, each with its own message allowance.
            const int seats = int(between(1, 3));
            for (int s = 1; s <= seats; ++s) {
                const QString entityId = u"seat-%1"_s.arg(s);
                entities.append(QJsonObject{{u"id"_s, entityId},
                                            {u"feature_id"_s, u"seats"_s},
                                            {u"name"_s, u"Seat %1"_s.arg(s)},
                                            {u"created_at"_s, started + s * Day}});
                balances.append(balance(u"messages"_s, cpId, entityId, 500 * 100, 0, u"month"_s,
                                        QJsonValue::Null, started + s * Day));
            }
        }
        // Standalone balances: AI top-ups most customers hold, some with expiry.
        if (chance(70))
            balances.append(balance(u"ai_credits"_s, QJsonValue::Null, QJsonValue::Null, 0,
                                    between(10, 200) * 100, {}, QJsonValue::Null,
                                    m_now - between(1, 60) * Day));
        if (chance(25)) {
            const bool past = chance(50);
            balances.append(balance(u"api_calls"_s, QJsonValue::Null, QJsonValue::Null, 5000 * 100,
                                    0, {}, m_now + (past ? -between(1, 30) : between(5, 90)) * Day,
                                    m_now - between(31, 90) * Day));
        }
        while (m_options.balancesPerCustomer > 0 &&
               balances.size() < m_options.balancesPerCustomer) {
            const qint64 created = m_now - between(1, 365) * Day;
            const bool expires = chance(20);
            balances.append(balance(chance(50) ? u"ai_credits"_s : u"storage_gb"_s,
                                    QJsonValue::Null, QJsonValue::Null, 0, between(1, 100) * 100,
                                    {},
                                    expires ? QJsonValue(created + between(30, 400) * Day)
                                            : QJsonValue(QJsonValue::Null),
                                    created));
        }

        return {{u"id"_s, id},
                {u"name"_s, company},
                {u"email"_s, u"billing@%1.example"_s.arg(id)},
                {u"fingerprint"_s, QJsonValue::Null},
                {u"created_at"_s, createdAt},
                {u"metadata"_s,
                 QJsonObject{{u"segment"_s,
                              plan.id == "enterprise"_L1 ? u"enterprise"_s : u"self-serve"_s}}},
                {u"send_email_receipts"_s, paying},
                {u"config"_s, QJsonObject{{u"disable_pooled_balance"_s, false},
                                          {u"disable_overage_billing"_s, false}}},
                {u"processors"_s, processors},
                {u"entities"_s, entities},
                {u"products"_s, customerProducts},
                {u"balances"_s, balances},
                {u"usage_events"_s, usageEvents(balances, env, index)}};
    }

    // Token usage over the last 30 days for customers holding AI credits,
    // priced with the bundled catalogue and the demo's markups. Its own
    // random stream, so the rest of the demo stays as it was.
    QJsonArray usageEvents(const QJsonArray &balances, const QString &env, int index) const
    {
        const bool hasCredits = std::any_of(balances.begin(), balances.end(), [](const auto &b) {
            return b.toObject().value(u"feature_id"_s).toString() == "ai_credits"_L1;
        });
        QJsonArray events;
        if (!hasCredits)
            return events;
        static const QStringList models{
            u"openai/gpt-4.1"_s, u"openai/gpt-4o-mini"_s, u"anthropic/claude-3-5-haiku-20241022"_s,
            u"google/gemini-2.0-flash"_s, u"mistral/codestral-latest"_s};
        const CreditMarkups markups = demoMarkups();
        QRandomGenerator random(m_options.seed ^ quint32(index * 7919 + env.size()));
        const auto between = [&](qint64 low, qint64 high) {
            return low + qint64(random.bounded(quint64(high - low + 1)));
        };
        for (qint64 n = between(0, 14); n > 0; --n) {
            const QString model = models.at(qsizetype(between(0, models.size() - 1)));
            const TokenCounts tokens{between(200, 20000), between(50, 4000),
                                     between(0, 3) == 0 ? between(1000, 30000) : 0};
            auto priced = TokenPricing::price(PriceCatalogue::bundled(), model, tokens, markups);
            if (!priced)
                continue; // a model the bundled catalogue no longer lists
            QJsonObject counts{{u"input_tokens"_s, tokens.input},
                               {u"output_tokens"_s, tokens.output}};
            if (tokens.cacheRead > 0)
                counts.insert(u"cache_read_tokens"_s, tokens.cacheRead);
            const qint64 at = m_now - between(0, 30 * Day);
            events.append(QJsonObject{{u"feature_id"_s, u"ai_credits"_s},
                                      {u"entity_id"_s, QJsonValue::Null},
                                      {u"model_id"_s, model},
                                      {u"tokens"_s, counts},
                                      {u"value"_s, priced.value().value.toJson()},
                                      {u"properties"_s, QJsonObject{{u"source"_s, u"demo"_s}}},
                                      {u"timestamp"_s, at},
                                      {u"idempotency_key"_s, QJsonValue::Null},
                                      {u"created_at"_s, at}});
        }
        return events;
    }

    DemoOptions m_options;
    QRandomGenerator m_random;
    qint64 m_now;
    int m_balanceSerial = 0;
};

QJsonObject organization(const QString &id, const QString &slug, const QString &name,
                         const QJsonValue &master, qint64 createdAt)
{
    return {{u"id"_s, id},
            {u"slug"_s, slug},
            {u"name"_s, name},
            {u"master_org"_s, master},
            {u"created_at"_s, createdAt}};
}

} // namespace

QJsonObject DemoWorkspace::build(const DemoOptions &options)
{
    const qint64 created = options.nowMs - 800 * Day;
    Generator generator(options);
    QJsonObject demo =
        organization(u"org_demo"_s, u"demo"_s, u"Demo Platform"_s, QJsonValue::Null, created);
    demo.insert(u"processor"_s,
                QJsonObject{{u"test_secret_connected"_s, true},
                            {u"live_secret_connected"_s, true},
                            {u"test_account_id"_s, u"acct_demo_test"_s},
                            {u"live_account_id"_s, u"acct_demo_live"_s},
                            {u"linked_at"_s, QJsonValue::Null},
                            {u"accessible_accounts"_s,
                             QJsonObject{{u"test"_s, QJsonArray{u"acct_northwind_test"_s,
                                                                u"acct_southpeak_test"_s}},
                                         {u"live"_s, QJsonArray{u"acct_northwind_live"_s}}}}});
    QJsonArray keys;
    if (!options.testSecret.isEmpty())
        keys.append(QJsonObject{{u"env"_s, u"test"_s},
                                {u"secret"_s, options.testSecret},
                                {u"scopes"_s, QJsonArray{u"*"_s}},
                                {u"name"_s, u"demo key"_s},
                                {u"created_at"_s, options.nowMs}});
    demo.insert(u"api_keys"_s, keys);
    for (const QString &env : {u"test"_s, u"live"_s}) {
        const int live = options.liveCustomers >= 0 ? options.liveCustomers
                                                    : std::max(1, options.customers / 20);
        const int count = env == "test"_L1 ? options.customers : live;
        demo.insert(env, QJsonObject{{u"features"_s, features(created)},
                                     {u"products"_s, products(created)},
                                     {u"customers"_s, generator.customers(env, count)},
                                     {u"rewards"_s, rewards(created)}});
    }
    QJsonObject north = organization(u"org_northwind"_s, u"northwind"_s, u"Northwind Traders"_s,
                                     u"demo"_s, created + 100 * Day);
    QJsonObject south = organization(u"org_southpeak"_s, u"southpeak"_s, u"Southpeak Outfitters"_s,
                                     u"demo"_s, created + 200 * Day);
    return {{u"format"_s, u"meterdesk-workspace"_s},
            {u"version"_s, 1},
            {u"organizations"_s, QJsonArray{demo, north, south}}};
}

} // namespace md::engine
