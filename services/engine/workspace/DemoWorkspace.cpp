#include "services/engine/workspace/DemoWorkspace.h"

#include "services/api/BillingPeriod.h"

#include "services/engine/workspace/DemoProducts.h"

#include "services/api/Decimal.h"
#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/pricing/TokenPricing.h"
#include "services/engine/sql/StoredJson.h"

#include <QRandomGenerator>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonValue;

namespace {

constexpr qint64 Day = 24LL * 3600 * 1000;

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

    JsonValue customers(const QString &env, int count)
    {
        JsonValue list = JsonValue::array();
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

    JsonValue balance(const QString &feature, const JsonValue &customerProduct,
                      const JsonValue &entity, qint64 includedCents, qint64 prepaidCents,
                      const QString &interval, const JsonValue &expiresAt, qint64 createdAt)
    {
        const qint64 grant = includedCents + prepaidCents;
        const qint64 usage = grant > 0 ? between(0, grant) : 0;
        JsonValue reset = JsonValue::null();
        if (!interval.isEmpty()) {
            const qint64 period = interval == "week"_L1 ? 7 * Day : 30 * Day;
            reset = JsonValue::object({{"interval"_L1, interval},
                                       {"interval_count"_L1, 1},
                                       {"resets_at"_L1, m_now + between(1, period / Day) * Day}});
        }
        JsonValue price = JsonValue::null();
        // A plan's credits come with a pack price: what was bought on top
        // of them is billed at each renewal (docs/billing.md).
        if (feature == "ai_credits"_L1 && !customerProduct.isNull())
            price = JsonValue::object({{"amount"_L1, 1},
                                       {"billing_units"_L1, 1},
                                       {"billing_method"_L1, u"prepaid"_s},
                                       {"max_purchase"_L1, 500}});
        if (feature == "api_calls"_L1 && !customerProduct.isNull())
            price = JsonValue::object(
                {{"tiers"_L1,
                  JsonValue::array(
                      {JsonValue::object(
                           {{"to"_L1, 100000}, {"amount"_L1, DemoProducts::decimal("0.002")}}),
                       JsonValue::object(
                           {{"to"_L1, u"inf"_s}, {"amount"_L1, DemoProducts::decimal("0.001")}})})},
                 {"tier_behavior"_L1, u"graduated"_s},
                 {"billing_units"_L1, 1},
                 {"billing_method"_L1, u"usage_based"_s},
                 {"max_purchase"_L1, JsonValue::null()}});
        return JsonValue::object(
            {{"id"_L1, nextBalanceId()},
             {"feature_id"_L1, feature},
             {"customer_product_id"_L1, customerProduct},
             {"entity_id"_L1, entity},
             {"included_grant"_L1, DemoProducts::money(includedCents)},
             {"prepaid_grant"_L1, DemoProducts::money(prepaidCents)},
             {"remaining"_L1, DemoProducts::money(grant - usage)},
             {"usage"_L1, DemoProducts::money(usage)},
             {"unlimited"_L1, false},
             {"overage_allowed"_L1, feature == "api_calls"_L1},
             {"reset"_L1, reset},
             {"price"_L1, price},
             {"expires_at"_L1, expiresAt},
             {"created_at"_L1, createdAt},
             {"rollover"_L1,
              feature == "api_calls"_L1 && !customerProduct.isNull() && !interval.isEmpty()
                  ? DemoProducts::rollover()
                  : JsonValue::null()},
             {"rollovers"_L1, JsonValue::array()}});
    }

    JsonValue customer(const QString &env, int index)
    {
        const QString company = Companies.at(index % Companies.size()) + u' ' +
                                Suffixes.at((index / Companies.size()) % Suffixes.size());
        const QString id = u"%1-%2"_s.arg(company.toLower().replace(u' ', u'-'))
                               .arg(index + 1, 4, 10, QLatin1Char('0'));
        const qint64 createdAt = m_now - between(30, 700) * Day;
        JsonValue processors = JsonValue::array();
        const bool paying = index % 7 != 0;
        if (paying)
            processors.append(JsonValue::object(
                {{"type"_L1, u"stripe"_s}, {"id"_L1, u"cus_%1"_s.arg(1000000 + index)}}));
        if (index % 11 == 0)
            processors.append(JsonValue::object(
                {{"type"_L1, u"revenuecat"_s}, {"id"_L1, u"rc_%1"_s.arg(index)}}));

        // Plan mix: mostly starter and pro, a few free and enterprise.
        const int roll = int(m_random.bounded(100));
        const DemoProducts::Plan &plan = DemoProducts::plans().at(!paying     ? 0
                                                                  : roll < 45 ? 1
                                                                  : roll < 85 ? 2
                                                                              : 3);
        const bool expiredPlan = chance(8);
        const QString cpId = u"cp_%1_%2"_s.arg(env).arg(index + 1);
        const qint64 started = createdAt + Day;
        // Paid plans are priced per seat: the fee times the seats bought.
        const qint64 quantity = plan.monthlyFeeCents > 0 ? between(1, 5) : 1;
        JsonValue customerProducts = JsonValue::array({JsonValue::object(
            {{"id"_L1, cpId},
             {"plan_id"_L1, plan.id},
             {"version"_L1, 1},
             {"processor"_L1, paying ? JsonValue(u"stripe"_s) : JsonValue::null()},
             {"subscription_id"_L1,
              paying ? JsonValue(u"sub_%1"_s.arg(5000000 + index)) : JsonValue::null()},
             {"schedule_id"_L1, JsonValue::null()},
             {"status"_L1, expiredPlan ? u"expired"_s : u"active"_s},
             {"quantity"_L1, quantity},
             {"started_at"_L1, started},
             {"current_period_start"_L1, m_now - 10 * Day},
             {"current_period_end"_L1, m_now + 20 * Day},
             {"trial_ends_at"_L1, JsonValue::null()},
             {"canceled_at"_L1, expiredPlan ? JsonValue(m_now - 5 * Day) : JsonValue::null()},
             {"expires_at"_L1, expiredPlan ? JsonValue(m_now - 5 * Day) : JsonValue::null()},
             {"created_at"_L1, started}})});

        JsonValue balances = JsonValue::array();
        JsonValue entities = JsonValue::array();
        JsonValue chargeLines = JsonValue::array();
        for (const DemoProducts::PlanItem &item : plan.items) {
            const qint64 prepaid =
                item.feature == "ai_credits"_L1 && chance(30) ? between(5, 50) * 100 : 0;
            JsonValue row = balance(item.feature, cpId, JsonValue::null(), item.included * 100,
                                    prepaid, item.interval, JsonValue::null(), started);
            if (item.feature == "api_calls"_L1 && plan.id != "free"_L1 && chance(40)) {
                const qint64 granted = between(100, item.included / 10) * 100;
                row.insert(u"rollovers"_s,
                           JsonValue::array({JsonValue::object(
                               {{"granted"_L1, DemoProducts::money(granted)},
                                {"balance"_L1, DemoProducts::money(between(0, granted))},
                                {"expires_at"_L1, m_now + between(5, 60) * Day}})}));
            }
            if (plan.monthlyFeeCents > 0 && !expiredPlan)
                addPastLines(chargeLines, row, plan.id, item.included, started);
            balances.append(row);
        }
        if (plan.id == "pro"_L1 || plan.id == "enterprise"_L1) {
            // Seats used by named entities, each with its own message allowance.
            const int seats = int(between(1, 3));
            for (int s = 1; s <= seats; ++s) {
                const QString entityId = u"seat-%1"_s.arg(s);
                entities.append(JsonValue::object({{"id"_L1, entityId},
                                                   {"feature_id"_L1, u"seats"_s},
                                                   {"name"_L1, u"Seat %1"_s.arg(s)},
                                                   {"created_at"_L1, started + s * Day}}));
                balances.append(balance(u"messages"_s, cpId, entityId, 500 * 100, 0, u"month"_s,
                                        JsonValue::null(), started + s * Day));
            }
        }
        // Standalone balances: AI top-ups most customers hold, some with expiry.
        if (chance(70))
            balances.append(balance(u"ai_credits"_s, JsonValue::null(), JsonValue::null(), 0,
                                    between(10, 200) * 100, {}, JsonValue::null(),
                                    m_now - between(1, 60) * Day));
        if (chance(25)) {
            const bool past = chance(50);
            balances.append(balance(u"api_calls"_s, JsonValue::null(), JsonValue::null(),
                                    5000 * 100, 0, {},
                                    m_now + (past ? -between(1, 30) : between(5, 90)) * Day,
                                    m_now - between(31, 90) * Day));
        }
        while (m_options.balancesPerCustomer > 0 &&
               balances.size() < m_options.balancesPerCustomer) {
            const qint64 created = m_now - between(1, 365) * Day;
            const bool expires = chance(20);
            balances.append(
                balance(chance(50) ? u"ai_credits"_s : u"storage_gb"_s, JsonValue::null(),
                        JsonValue::null(), 0, between(1, 100) * 100, {},
                        expires ? JsonValue(created + between(30, 400) * Day) : JsonValue::null(),
                        created));
        }

        return JsonValue::object(
            {{"id"_L1, id},
             {"name"_L1, company},
             {"email"_L1, u"billing@%1.example"_s.arg(id)},
             {"fingerprint"_L1, JsonValue::null()},
             {"created_at"_L1, createdAt},
             {"metadata"_L1,
              JsonValue::object({{"segment"_L1, plan.id == "enterprise"_L1 ? u"enterprise"_s
                                                                           : u"self-serve"_s}})},
             {"send_email_receipts"_L1, paying},
             {"config"_L1, JsonValue::object({{"disable_pooled_balance"_L1, false},
                                              {"disable_overage_billing"_L1, false}})},
             {"processors"_L1, processors},
             {"entities"_L1, entities},
             {"products"_L1, customerProducts},
             {"balances"_L1, balances},
             {"usage_events"_L1, usageEvents(balances, env, index)},
             {"charge_lines"_L1, chargeLines}});
    }

    // What the demo's earlier months billed at their resets (docs/billing.md,
    // "Statements"), so its closed statements show more than fees: some
    // months' calls past the grant, and every renewal of credits bought on
    // top of a plan's.
    void addPastLines(JsonValue &lines, const JsonValue &row, const QString &planId,
                      qint64 included, qint64 started)
    {
        const JsonValue &reset = row.value("reset"_L1);
        const QString feature = row.value("feature_id"_L1).toString();
        const api::Decimal bought =
            *api::Decimal::parse(row.value("prepaid_grant"_L1).numberText());
        const bool calls = feature == "api_calls"_L1;
        if (reset.isNull() || m_options.statementMonths <= 0 || (!calls && bought.isZero()))
            return;
        auto price = decodeStored<api::Price>(QString::fromUtf8(row.value("price"_L1).toJson()),
                                              u"the demo's price of %1"_s.arg(feature));
        if (!price)
            return;
        const QString balanceId = row.value("id"_L1).toString();
        const qint64 next = reset.value("resets_at"_L1).numberText().toByteArray().toLongLong();
        const qint64 first = api::BillingPeriod::advance(api::ResetInterval::Month, m_now,
                                                         -m_options.statementMonths);
        const api::Decimal grant = api::Decimal::fromInteger(included);
        const int digits = Money().minorDigits();
        for (int back = m_options.statementMonths; back >= 1; --back) {
            const qint64 at = api::BillingPeriod::advance(api::ResetInterval::Month, next, -back);
            if (at <= std::max(first, started))
                continue;
            api::ChargeLine line;
            if (calls) {
                if (!chance(35))
                    continue;
                const api::Decimal usage =
                    grant.runningSum(api::Decimal::fromInteger(between(1, included / 5)));
                auto charge = UsageCharges::charge(price.value(), usage, grant, digits);
                if (!charge)
                    continue;
                line = UsageCharges::line({balanceId, feature, planId, std::nullopt, usage, grant},
                                          charge.value());
            } else {
                auto charge = UsageCharges::purchase(price.value(), bought, digits);
                if (!charge)
                    continue;
                line = UsageCharges::purchaseLine(
                    {balanceId, feature, planId, std::nullopt, api::Decimal(), api::Decimal()},
                    feature == "ai_credits"_L1, bought, charge.value());
            }
            lines.append(JsonValue::object({{"at"_L1, at},
                                            {"balance_id"_L1, balanceId},
                                            {"advance"_L1, !calls},
                                            {"line"_L1, storedJson(storedText(line)).value()}}));
        }
    }

    // Token usage over the last 30 days for customers holding AI credits,
    // priced with the bundled catalogue and the demo's markups. Its own
    // random stream, so the rest of the demo stays as it was.
    JsonValue usageEvents(const JsonValue &balances, const QString &env, int index) const
    {
        bool hasCredits = false;
        for (qsizetype i = 0; i < balances.size(); ++i)
            hasCredits =
                hasCredits || balances.at(i).value("feature_id"_L1).toString() == "ai_credits"_L1;
        JsonValue events = JsonValue::array();
        if (!hasCredits)
            return events;
        static const QStringList models{
            u"openai/gpt-4.1"_s, u"openai/gpt-4o-mini"_s, u"anthropic/claude-3-5-haiku-20241022"_s,
            u"google/gemini-2.0-flash"_s, u"mistral/codestral-latest"_s};
        const CreditMarkups markups = DemoProducts::markups();
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
            JsonValue counts = JsonValue::object(
                {{"input_tokens"_L1, tokens.input}, {"output_tokens"_L1, tokens.output}});
            if (tokens.cacheRead > 0)
                counts.insert(u"cache_read_tokens"_s, tokens.cacheRead);
            const qint64 at = m_now - between(0, 30 * Day);
            events.append(
                JsonValue::object({{"feature_id"_L1, u"ai_credits"_s},
                                   {"entity_id"_L1, JsonValue::null()},
                                   {"model_id"_L1, model},
                                   {"tokens"_L1, counts},
                                   {"value"_L1, priced.value().value},
                                   {"properties"_L1, JsonValue::object({{"source"_L1, u"demo"_s}})},
                                   {"timestamp"_L1, at},
                                   {"idempotency_key"_L1, JsonValue::null()},
                                   {"created_at"_L1, at}}));
        }
        return events;
    }

    DemoOptions m_options;
    QRandomGenerator m_random;
    qint64 m_now;
    int m_balanceSerial = 0;
};

JsonValue organization(const QString &id, const QString &slug, const QString &name,
                       const JsonValue &master, qint64 createdAt)
{
    return JsonValue::object({{"id"_L1, id},
                              {"slug"_L1, slug},
                              {"name"_L1, name},
                              {"master_org"_L1, master},
                              {"created_at"_L1, createdAt}});
}

} // namespace

JsonValue DemoWorkspace::build(const DemoOptions &options)
{
    const qint64 created = options.nowMs - 800 * Day;
    Generator generator(options);
    JsonValue demo =
        organization(u"org_demo"_s, u"demo"_s, u"Demo Platform"_s, JsonValue::null(), created);
    demo.insert(u"processor"_s, JsonValue::object(
                                    // No key: a demo cannot reach Stripe (docs/processors.md).
                                    {{"test_secret_connected"_L1, false},
                                     {"live_secret_connected"_L1, false},
                                     {"test_account_id"_L1, u"acct_demo_test"_s},
                                     {"live_account_id"_L1, u"acct_demo_live"_s},
                                     {"linked_at"_L1, JsonValue::null()}}));
    JsonValue keys = JsonValue::array();
    if (!options.testSecret.isEmpty())
        keys.append(JsonValue::object({{"env"_L1, u"test"_s},
                                       {"secret"_L1, options.testSecret},
                                       {"scopes"_L1, JsonValue::array({u"*"_s})},
                                       {"name"_L1, u"demo key"_s},
                                       {"created_at"_L1, options.nowMs}}));
    demo.insert(u"api_keys"_s, keys);
    for (const QString &env : {u"test"_s, u"live"_s}) {
        const int live = options.liveCustomers >= 0 ? options.liveCustomers
                                                    : std::max(1, options.customers / 20);
        const int count = env == "test"_L1 ? options.customers : live;
        demo.insert(env, JsonValue::object({{"features"_L1, DemoProducts::features(created)},
                                            {"products"_L1, DemoProducts::products(created)},
                                            {"customers"_L1, generator.customers(env, count)},
                                            {"rewards"_L1, DemoProducts::rewards(created)}}));
    }
    JsonValue north = organization(u"org_northwind"_s, u"northwind"_s, u"Northwind Traders"_s,
                                   u"demo"_s, created + 100 * Day);
    JsonValue south = organization(u"org_southpeak"_s, u"southpeak"_s, u"Southpeak Outfitters"_s,
                                   u"demo"_s, created + 200 * Day);
    JsonValue workspace =
        JsonValue::object({{"format"_L1, u"meterdesk-workspace"_s},
                           {"version"_L1, 1},
                           {"organizations"_L1, JsonValue::array({demo, north, south})}});
    if (options.statementMonths > 0)
        workspace.insert(u"statements_from"_s,
                         api::BillingPeriod::advance(api::ResetInterval::Month, options.nowMs,
                                                     -options.statementMonths));
    return workspace;
}

} // namespace md::engine
