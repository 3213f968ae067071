#include "tests/trust/RandomOperations.h"

#include "services/api/UpdateProduct.h"
#include "services/api/UpdateReward.h"
#include "tests/support/JsonEdit.h"

#include <algorithm>

namespace md::test::randomops {

using namespace Qt::StringLiterals;
using api::JsonValue;

namespace {

constexpr qint64 Minute = 60 * 1000;
constexpr qint64 Day = 24 * 60 * Minute;

// The largest amount, 10^20 − 10^-9.
const Decimal Largest = Decimal::fromRaw(Decimal::MaxRaw - 1);

const QStringList Features{u"ai_credits"_s, u"api_calls"_s, u"seats"_s,
                           u"storage_gb"_s, u"messages"_s,  u"premium_support"_s};

} // namespace

QString Operation::describe() const
{
    QString text = route;
    if (!pathId.isEmpty())
        text += u" /"_s + pathId;
    if (live)
        text += u" [live key]"_s;
    if (grouped)
        text += u" [grouped]"_s;
    if (idempotencyKey)
        text += u" [Idempotency-Key: %1]"_s.arg(*idempotencyKey);
    if (route == "clock.advance"_L1 || route == "clock.race"_L1)
        text += u" +%1 ms"_s.arg(advanceMs);
    if (!body.isEmpty())
        text += u' ' + QString::fromUtf8(body);
    if (!answer.isEmpty())
        text += u"\n      -> "_s + answer;
    return text;
}

QList<Operation> OperationMaker::next(qint64 nowMs, qint64 &serial)
{
    const int dice = roll(100);
    if (dice < 28)
        return {track(nowMs, ++serial, false)};
    if (dice < 36) { // group commit: several calls in one batch
        QList<Operation> group;
        for (int n = 2 + roll(5); n > 0; --n) {
            group.append(track(nowMs, ++serial, chance(20)));
            group.last().grouped = true;
        }
        return group;
    }
    if (dice < 48)
        return {track(nowMs, ++serial, true)};
    if (dice < 53)
        return {{u"track_queue.drain"_s}};
    if (dice < 63)
        return {adjust(++serial)};
    if (dice < 67)
        return {create(nowMs, ++serial)};
    if (dice < 77)
        return {import(++serial)};
    if (dice < 82)
        return {product(++serial)};
    if (dice < 85)
        return {reward(++serial)};
    if (dice < 91)
        return {controls(++serial)};
    if (dice < 93) {
        Operation promote{u"environments.promote"_s};
        promote.live = true;
        return {promote};
    }
    if (dice < 94)
        return {link()};
    if (dice < 99)
        return {clock()};
    return {{chance(50) ? u"track_queue.retry"_s : u"track_queue.discard"_s}};
}

QByteArray OperationMaker::amount(bool signedAmount)
{
    static const QList<QByteArray> extremes{"0",
                                            "0.000000001",
                                            "99999999999999999999.999999999",
                                            "100000000000000000000",
                                            "0.0000000001",
                                            "1e3",
                                            "12345678901.123456789",
                                            "2.5",
                                            "1e-9",
                                            "0.1"};
    QByteArray text;
    switch (roll(4)) {
    case 0:
        text = pick(extremes);
        break;
    case 1:
        text = QByteArray::number(roll(1000) + 1);
        break;
    case 2:
        text = QByteArray::number(roll(100000)) + '.' +
               QByteArray::number(roll(1000000000)).rightJustified(9, '0');
        break;
    default:
        text = QByteArray::number(quint64(m_random.generate64() % 1'000'000'000'000'000ULL));
        break;
    }
    if (signedAmount && chance(40) && text != "0")
        text.prepend('-');
    return text;
}

Decimal OperationMaker::exactAmount()
{
    for (;;)
        if (const auto parsed = Decimal::parse(QByteArrayView(amount(false))))
            return *parsed;
}

QByteArray OperationMaker::tokens()
{
    static const QList<QByteArray> extremes{"0",
                                            "1",
                                            "9007199254740991",
                                            "9007199254740992",
                                            "-1",
                                            "1.5",
                                            "1e6",
                                            "4503599627370496",
                                            "1.0",
                                            "2e1",
                                            "18446744073709551617"};
    if (chance(15))
        return pick(extremes);
    if (chance(50))
        return QByteArray::number(roll(5000));
    return QByteArray::number(quint64(m_random.generate64() % 100'000'000'000ULL));
}

Operation OperationMaker::track(qint64 nowMs, qint64 serial, bool async)
{
    const ModelCustomer &customer = anyCustomer();
    JsonValue body = JsonValue::object();
    const int who = roll(100);
    body.insert(u"customer_id"_s, who < 88   ? customer.id
                                  : who < 94 ? u"nobody-%1"_s.arg(roll(5))
                                  : who < 97 ? u"a/b"_s
                                             : QString());
    static const QStringList unknownModels{u"test/unknown"_s, u"nomodel"_s, u"/x"_s};
    body.insert(u"model_id"_s, chance(90)
                                   ? m_model.prices.keys().at(roll(int(m_model.prices.size())))
                                   : pick(unknownModels));
    body.insert(u"input_tokens"_s, JsonValue::number(tokens()));
    body.insert(u"output_tokens"_s, JsonValue::number(tokens()));
    for (const QString &pool :
         {u"cache_read_tokens"_s, u"cache_write_tokens"_s, u"reasoning_tokens"_s,
          u"audio_input_tokens"_s, u"audio_output_tokens"_s})
        if (chance(15))
            body.insert(pool, JsonValue::number(tokens()));
    if (chance(20))
        body.insert(u"entity_id"_s, !customer.entities.isEmpty() && chance(80)
                                        ? pick(customer.entities)
                                        : u"seat-9"_s);
    if (chance(15))
        body.insert(u"feature_id"_s,
                    chance(60) ? u"ai_credits"_s : pick(Features + QStringList{u"nothing"_s}));
    if (chance(50))
        body.insert(u"overage_behavior"_s, chance(50) ? u"overflow"_s : u"cap"_s);
    if (chance(15)) {
        const qint64 offsets[] = {-Day, -1, 0, 4 * Minute, 6 * Minute};
        body.insert(u"timestamp"_s, std::max<qint64>(1, nowMs + offsets[roll(5)]));
    }
    body.insert(u"properties"_s, JsonValue::object({{"op"_L1, serial}}));
    if (async)
        body.insert(u"async"_s, true);
    Operation op{u"balances.track_tokens"_s, body.toJson()};
    const int key = roll(100);
    if (key < 20)
        op.idempotencyKey = u"key-%1"_s.arg(serial);
    else if (key < 30 && !m_model.usedKeysInOrder.isEmpty())
        op.idempotencyKey = pick(m_model.usedKeysInOrder);
    return op;
}

Operation OperationMaker::adjust(qint64 serial)
{
    QString balance;
    const int which = roll(100);
    if (which < 85)
        balance = pick(m_model.balances).id;
    else if (which < 92)
        balance = u"b_nobody_%1"_s.arg(roll(3));
    else if (which < 97 && !m_model.live.isEmpty())
        balance = m_model.live.keys().at(roll(int(m_model.live.size())));
    else
        balance = u"x/y"_s;
    QString reason = u"random correction %1"_s.arg(serial);
    switch (roll(20)) {
    case 0:
        reason = QString();
        break;
    case 1:
        reason = u"   "_s;
        break;
    case 2:
        reason = QString(500, u'r');
        break;
    case 3:
        reason = QString(501, u'r');
        break;
    default:
        break;
    }
    JsonValue body = JsonValue::object({{"balance_id"_L1, balance},
                                        {"amount"_L1, JsonValue::number(amount(true))},
                                        {"reason"_L1, reason}});
    return {u"meterdesk/balances.adjust"_s, body.toJson()};
}

// balances.create: mostly a credit balance of a known customer (or one of
// its entities), held until used or for a few days; sometimes an unknown
// owner or feature, a boolean feature, an expiry already past, an amount
// not above 0 or too large.
Operation OperationMaker::create(qint64 nowMs, qint64 serial)
{
    const ModelCustomer &customer = anyCustomer();
    JsonValue body = JsonValue::object(
        {{"customer_id"_L1, chance(95) ? customer.id : u"nobody_%1"_s.arg(roll(3))},
         {"feature_id"_L1, chance(80)   ? Credits
                           : chance(70) ? pick(OtherFeatures)
                                        : u"x"_s},
         {"amount"_L1, JsonValue::number(amount(chance(10)))},
         {"reason"_L1, u"random grant %1"_s.arg(serial)}});
    if (chance(20))
        body.insert("entity_id"_L1, !customer.entities.isEmpty() && chance(80)
                                        ? pick(customer.entities)
                                        : u"entity_none"_s);
    if (chance(30))
        body.insert("expires_at"_L1,
                    chance(90) ? nowMs + (1 + roll(60)) * 24LL * 60 * 60 * 1000 : nowMs - 1);
    return {u"meterdesk/balances.create"_s, body.toJson()};
}

Operation OperationMaker::import(qint64 serial)
{
    // The same file sent again, whatever its plans' statuses: it must
    // change nothing (issue 51).
    if (!m_imports.isEmpty() && chance(25))
        return {u"billing.import"_s, pick(m_imports)};
    api::ImportCustomerRequest request;
    const int who = roll(100);
    const ModelCustomer &known = anyCustomer();
    request.customerId = who < 55 ? known.id : u"imp-%1"_s.arg(roll(12));
    const ModelCustomer *stored = m_model.customer(request.customerId);
    if (chance(80)) {
        QString id = stored && stored->processors.contains(u"stripe"_s)
                         ? stored->processors.value(u"stripe"_s)
                         : u"cus_"_s + request.customerId;
        if (chance(8))
            id = u"cus_other_%1"_s.arg(serial);
        request.processors.append({api::Processor::Stripe, id});
    }
    const QStringList plans = m_model.plans.keys();
    for (int n = roll(3); n > 0; --n) {
        api::Billable billable;
        billable.processor = chance(80) ? api::Processor::Stripe : api::Processor::RevenueCat;
        billable.plan.planId = chance(95) ? pick(plans) : u"no-such-plan"_s;
        static const QList<std::optional<api::PlanStatus>> statuses{std::nullopt,
                                                                    std::nullopt,
                                                                    std::nullopt,
                                                                    std::nullopt,
                                                                    api::PlanStatus::Expired,
                                                                    api::PlanStatus::Expired,
                                                                    api::PlanStatus::Canceled,
                                                                    api::PlanStatus::Trialing,
                                                                    api::PlanStatus::PastDue,
                                                                    api::PlanStatus::Active};
        billable.plan.status = pick(statuses);
        if (chance(25)) {
            static const QList<QByteArray> quantities{
                "0", "1", "2", "3", "1.5", "10000000000000000000", "99999999999999999999"};
            billable.plan.quantity = *Decimal::parse(QByteArrayView(pick(quantities)));
        }
        if (chance(8))
            billable.plan.version = 1 + roll(3);
        if (chance(35))
            billable.plan.featureQuantities.append({chance(85) ? u"ai_credits"_s : pick(Features),
                                                    chance(15) ? Largest : exactAmount()});
        if (chance(35)) {
            api::ImportBalance reported;
            const auto items = m_model.plans.value(billable.plan.planId);
            reported.featureId = !items.isEmpty() && chance(85) && !items.last().isEmpty()
                                     ? pick(items.last()).featureId
                                     : pick(Features);
            const Decimal value = chance(15) ? Largest : exactAmount();
            if (chance(55))
                reported.usage = value;
            else
                reported.balance = chance(30) ? value.negated() : value;
            if (chance(5))
                reported.usage = reported.balance = value;
            billable.plan.balances.append(reported);
        }
        request.billables.append(billable);
    }
    if (chance(25)) {
        static const QStringList names{u"Imported Co"_s, u"Renamed 2"_s,     u"Tab\there"_s,
                                       u"\u202Eevil"_s,  QString(600, u'n'), u"   "_s};
        request.customerData =
            api::CustomerData{pick(names), std::nullopt, std::nullopt, std::nullopt};
    }
    request.dryRun = chance(12);
    JsonValue body = test::json(request);
    if (chance(4) && !request.billables.isEmpty())
        body = test::replaced(body, u"billables.0.plan.quantity"_s, "-1");
    m_imports.append(body.toJson());
    if (m_imports.size() > 16)
        m_imports.removeFirst();
    return {u"billing.import"_s, m_imports.last()};
}

Operation OperationMaker::product(qint64 serial)
{
    const QStringList ids = m_model.newestProducts.keys();
    Operation op{u"products"_s};
    const int which = roll(100);
    op.pathId = which < 92 ? pick(ids) : which < 96 ? u"no-such-product"_s : u"a/b"_s;
    const api::Product stored = m_model.newestProducts.value(op.pathId);
    api::UpdateProductRequest request;
    const bool same = chance(15); // what is stored, sent again
    if (same || chance(30))
        request.name = same || chance(30) ? stored.name : u"Plan %1"_s.arg(serial);
    if (same || chance(10))
        request.isAddOn = same ? stored.isAddOn : chance(50);
    if (chance(5))
        request.archived = chance(30);
    if (chance(8))
        request.group =
            chance(50) ? std::optional<QString>(u"group-%1"_s.arg(roll(3))) : std::nullopt;
    if (same || chance(40)) {
        QList<api::ProductItem> items = stored.items;
        const int edit = same ? 0 : roll(5);
        const bool granting =
            std::any_of(items.cbegin(), items.cend(),
                        [](const api::ProductItem &i) { return !i.featureId.isEmpty(); });
        if (edit == 1 && granting) {
            // A feature's item: a fixed price takes no included usage.
            api::ProductItem *item = nullptr;
            while (!item || item->featureId.isEmpty())
                item = &items[roll(int(items.size()))];
            item->includedUsage = chance(15) ? Largest : exactAmount();
        } else if (edit == 2) {
            api::ProductItem item;
            item.featureId = chance(90) ? pick(Features) : u"no-feature"_s;
            item.includedUsage = exactAmount();
            item.interval = api::ResetInterval::Month;
            if (std::none_of(items.cbegin(), items.cend(), [&](const api::ProductItem &i) {
                    return i.featureId == item.featureId;
                }))
                items.append(item);
        } else if (edit == 3 && !items.isEmpty()) {
            items.removeAt(roll(int(items.size())));
        }
        request.items = items;
    }
    if (chance(8))
        request.version = 1 + roll(4);
    if (chance(3))
        request.id = u"renamed-%1"_s.arg(serial);
    op.body = api::toJsonText(request);
    return op;
}

Operation OperationMaker::reward(qint64 serial)
{
    static const QStringList coupons{u"launch20"_s, u"credit50"_s};
    static const QStringList grants{u"ai_welcome"_s, u"api_burst"_s};
    static const QStringList codes{u"LAUNCH20"_s, u"THANKS50"_s, u"AIWELCOME"_s, u"BURST10K"_s};
    const int kind = roll(100);
    const bool coupon = chance(50);
    api::UpdateRewardRequest request;
    request.rewardId = kind < 90 ? pick(coupon == (kind < 80) ? coupons : grants) : u"gone"_s;
    const auto code = [&] { return chance(50) ? pick(codes) : u"CODE%1"_s.arg(serial); };
    if (coupon) {
        api::CouponUpdate update;
        if (chance(50))
            update.name = chance(20) ? u"Launch 20% off"_s : u"Coupon %1"_s.arg(serial);
        if (chance(30)) {
            QStringList plans;
            for (const QString &plan : m_model.plans.keys())
                if (chance(40))
                    plans.append(plan);
            if (chance(10))
                plans.append(u"no-such-plan"_s);
            update.planIds = plans;
        }
        if (chance(40))
            update.promoCodes = QList<api::CouponPromoCode>{{code(), roll(1000), chance(50)}};
        request.coupon = update;
    } else {
        api::FeatureGrantUpdate update;
        if (chance(50))
            update.name = u"Grant %1"_s.arg(serial);
        if (chance(40))
            update.grants = QList<api::FeatureGrant>{
                {chance(90) ? pick(Features) : u"nothing"_s, chance(10) ? Largest : exactAmount(),
                 chance(50) ? std::optional(api::GrantExpiry{api::ExpiryType::Month, 1 + roll(3)})
                            : std::nullopt}};
        if (chance(40))
            update.promoCodes = QList<api::FeatureGrantPromoCode>{{code(), roll(1000)}};
        request.featureGrant = update;
    }
    QByteArray body = api::toJsonText(request);
    if (chance(4)) // both kinds, or neither
        body = chance(50) ? R"({"reward_id":"launch20","coupon":{},"feature_grant":{}})"
                          : R"({"reward_id":"launch20"})";
    return {u"rewards.update"_s, body};
}

Operation OperationMaker::controls(qint64 serial)
{
    Q_UNUSED(serial)
    const ModelCustomer &customer = anyCustomer();
    api::UpdateBillingControlsRequest request;
    request.customerId = chance(95) ? customer.id : u"nobody"_s;
    if (chance(30))
        request.entityId =
            !customer.entities.isEmpty() && chance(85) ? pick(customer.entities) : u"seat-9"_s;
    const QString owner =
        request.entityId ? request.customerId + u'/' + *request.entityId : request.customerId;
    api::BillingControls &controls = request.billingControls;
    if (chance(10) && m_model.controls.contains(owner)) { // what is stored, sent again
        controls = m_model.controls.value(owner);
        for (api::UsageLimit &limit : controls.usageLimits)
            limit.usage.reset(); // answers only
        request.hasAutoTopups = request.hasSpendLimits = request.hasUsageLimits =
            request.hasUsageAlerts = request.hasOverageAllowed = true;
        return {u"meterdesk/customers.update_billing_controls"_s, api::toJsonText(request)};
    }
    const auto feature = [&] {
        return chance(80) ? u"ai_credits"_s : pick(Features + QStringList{u"nothing"_s});
    };
    if ((request.hasOverageAllowed = chance(40)))
        controls.overageAllowed.append({feature(), chance(50)});
    if ((request.hasSpendLimits = chance(40)))
        controls.spendLimits.append(
            {chance(70) ? std::optional(feature()) : std::nullopt, chance(80),
             chance(70) ? api::SpendLimitType::Absolute : api::SpendLimitType::UsagePercentage,
             chance(10) ? Largest : exactAmount()});
    if ((request.hasUsageLimits = chance(40))) {
        for (int n = 1 + (chance(10) ? 1 : 0); n > 0; --n)
            controls.usageLimits.append(
                {feature(), chance(85), chance(10) ? Largest : exactAmount(),
                 chance(50) ? api::LimitInterval::Day : api::LimitInterval::Month,
                 chance(50) ? api::LimitAnchor::Utc : api::LimitAnchor::BillingCycle,
                 std::nullopt});
    }
    if ((request.hasUsageAlerts = chance(30)))
        controls.usageAlerts.append(
            {chance(70) ? std::optional(feature()) : std::nullopt, chance(80),
             Decimal::fromInteger(roll(150)),
             chance(50) ? api::ThresholdType::UsagePercentage : api::ThresholdType::Remaining,
             std::nullopt});
    return {u"meterdesk/customers.update_billing_controls"_s, api::toJsonText(request)};
}

Operation OperationMaker::link()
{
    static const QStringList slugs{u"northwind"_s, u"southpeak"_s, u"demo"_s, u"nowhere"_s};
    static const QStringList accounts{u"acct_northwind_test"_s, u"acct_southpeak_test"_s,
                                      u"acct_other"_s};
    JsonValue body = JsonValue::object(
        {{"organization_slug"_L1, pick(slugs)}, {"test_account_id"_L1, pick(accounts)}});
    if (chance(10))
        body.insert(u"live_account_id"_s, u"acct_northwind_live"_s);
    return {u"platform/organizations/stripe"_s, body.toJson()};
}

Operation OperationMaker::clock()
{
    static const QList<qint64> steps{1, 1000, Minute, 60 * Minute, Day, 10 * Day, 40 * Day};
    // Time passing, or now and then the sandbox's clock moved by racing
    // clock.advance calls (issue 51).
    Operation op{chance(20) ? u"clock.race"_s : u"clock.advance"_s};
    op.advanceMs = pick(steps);
    return op;
}

} // namespace md::test::randomops
