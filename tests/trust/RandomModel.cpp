#include "tests/trust/RandomModel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <limits>

namespace md::test::randomops {

using namespace Qt::StringLiterals;
using api::Int128;
using api::JsonValue;

namespace {

Decimal decimalOf(const JsonValue &value)
{
    return Decimal::parse(value.numberText()).value_or(Decimal());
}

std::optional<qint64> timeOf(const JsonValue &value)
{
    if (!value.isNumber())
        return std::nullopt;
    return value.numberText().toLongLong();
}

std::optional<QString> textOf(const JsonValue &value)
{
    return value.isString() ? std::optional(value.toString()) : std::nullopt;
}

// A sum the model keeps exact; nullopt past what an amount can hold.
std::optional<Decimal> checked(Int128 raw)
{
    if (raw >= Decimal::MaxRaw || raw <= -Decimal::MaxRaw)
        return std::nullopt;
    return Decimal::fromRaw(raw);
}

// A workspace file's price object, read here on its own (docs/api.md, the
// price object).
std::optional<api::Price> priceOf(const JsonValue &json)
{
    if (!json.isObject())
        return std::nullopt;
    api::Price price;
    if (json.value("amount"_L1).isNumber())
        price.amount = decimalOf(json.value("amount"_L1));
    const JsonValue &tiers = json.value("tiers"_L1);
    if (tiers.isArray()) {
        price.tiers = QList<api::Tier>();
        for (qsizetype t = 0; t < tiers.size(); ++t) {
            api::Tier tier;
            if (tiers.at(t).value("to"_L1).isNumber())
                tier.to = decimalOf(tiers.at(t).value("to"_L1));
            tier.amount = decimalOf(tiers.at(t).value("amount"_L1));
            if (tiers.at(t).value("flat_amount"_L1).isNumber())
                tier.flatAmount = decimalOf(tiers.at(t).value("flat_amount"_L1));
            price.tiers->append(tier);
        }
    }
    if (json.value("tier_behavior"_L1).toString() == "volume"_L1)
        price.tierBehavior = api::TierBehavior::Volume;
    price.billingUnits = decimalOf(json.value("billing_units"_L1));
    price.billingMethod = json.value("billing_method"_L1).toString() == "prepaid"_L1
                              ? api::BillingMethod::Prepaid
                              : api::BillingMethod::UsageBased;
    if (json.value("max_purchase"_L1).isNumber())
        price.maxPurchase = decimalOf(json.value("max_purchase"_L1));
    return price;
}

ModelBalance balanceOf(const JsonValue &json, const QString &customerId)
{
    ModelBalance row;
    row.id = json.value("id"_L1).toString();
    row.customerId = customerId;
    row.entityId = textOf(json.value("entity_id"_L1));
    row.featureId = json.value("feature_id"_L1).toString();
    row.subscriptionId = textOf(json.value("customer_product_id"_L1)).value_or(QString());
    row.remaining = decimalOf(json.value("remaining"_L1));
    row.usage = decimalOf(json.value("usage"_L1));
    row.unlimited = json.value("unlimited"_L1).toBool();
    row.expiresAt = timeOf(json.value("expires_at"_L1));
    row.granted = decimalOf(json.value("included_grant"_L1))
                      .sum(decimalOf(json.value("prepaid_grant"_L1)))
                      .value_or(Decimal());
    row.prepaid = decimalOf(json.value("prepaid_grant"_L1));
    row.price = priceOf(json.value("price"_L1));
    if (const JsonValue &rule = json.value("rollover"_L1); rule.isObject())
        row.rule = api::RolloverRule{
            rule.value("max"_L1).isNull() ? std::nullopt
                                          : std::optional(decimalOf(rule.value("max"_L1))),
            timeOf(rule.value("length"_L1)).value_or(1),
            api::resetIntervalFromWire(rule.value("duration"_L1).toString())
                .value_or(api::ResetInterval::Month)};
    const JsonValue &reset = json.value("reset"_L1);
    if (reset.isObject() && timeOf(reset.value("resets_at"_L1)))
        if (const auto interval = api::resetIntervalFromWire(reset.value("interval"_L1).toString());
            interval && *interval != api::ResetInterval::OneOff) {
            const qint64 at = *timeOf(reset.value("resets_at"_L1));
            row.resets = ModelBalance::Resets{
                *interval,
                std::max<qint64>(1, timeOf(reset.value("interval_count"_L1)).value_or(1)), at, at};
        }
    const JsonValue &rollovers = json.value("rollovers"_L1);
    for (qsizetype i = 0; i < rollovers.size(); ++i)
        row.rollovers.append({decimalOf(rollovers.at(i).value("balance"_L1)),
                              *timeOf(rollovers.at(i).value("expires_at"_L1))});
    std::stable_sort(
        row.rollovers.begin(), row.rollovers.end(),
        [](const ModelRollover &a, const ModelRollover &b) { return a.expiresAt < b.expiresAt; });
    return row;
}

} // namespace

Decimal ModelBalance::held() const
{
    Int128 total = remaining.raw();
    for (const ModelRollover &rollover : rollovers)
        total += rollover.balance.raw();
    return Decimal::fromRaw(total);
}

Decimal ModelBalance::available(qint64 nowMs) const
{
    Int128 total = unlimited ? Int128(0) : std::max(Int128(0), remaining.raw());
    for (const ModelRollover &rollover : rollovers)
        if (rollover.expiresAt > nowMs)
            total += std::max(Int128(0), rollover.balance.raw());
    return Decimal::fromRaw(total);
}

bool ModelSubscription::inForce() const
{
    return status == "active"_L1 || status == "trialing"_L1 || status == "past_due"_L1;
}

Model Model::of(const JsonValue &workspace, const QByteArray &catalogue)
{
    Model model;
    const JsonValue &organization = workspace.value("organizations"_L1).at(0);
    const JsonValue &sandbox = organization.value("test"_L1);
    const JsonValue &features = sandbox.value("features"_L1);
    for (qsizetype i = 0; i < features.size(); ++i) {
        if (features.at(i).value("id"_L1).toString() != "ai_credits"_L1)
            continue;
        const JsonValue &system = features.at(i).value("credit_system"_L1);
        if (system.value("default_markup"_L1).isNumber())
            model.defaultMarkup = decimalOf(system.value("default_markup"_L1));
        const JsonValue &markups = system.value("markups"_L1);
        for (qsizetype m = 0; m < markups.size(); ++m) {
            const QString provider = markups.at(m).value("provider"_L1).toString();
            const Decimal markup = decimalOf(markups.at(m).value("markup"_L1));
            if (const auto name = textOf(markups.at(m).value("model"_L1)))
                model.markupByModel.insert(provider + u'/' + *name, markup);
            else
                model.markupByProvider.insert(provider, markup);
        }
    }
    const JsonValue &customers = sandbox.value("customers"_L1);
    for (qsizetype c = 0; c < customers.size(); ++c) {
        const JsonValue &json = customers.at(c);
        ModelCustomer customer;
        customer.id = json.value("id"_L1).toString();
        const JsonValue &processors = json.value("processors"_L1);
        for (qsizetype p = 0; p < processors.size(); ++p)
            customer.processors.insert(processors.at(p).value("type"_L1).toString(),
                                       processors.at(p).value("id"_L1).toString());
        const JsonValue &entities = json.value("entities"_L1);
        for (qsizetype e = 0; e < entities.size(); ++e)
            customer.entities.append(entities.at(e).value("id"_L1).toString());
        const JsonValue &products = json.value("products"_L1);
        for (qsizetype p = 0; p < products.size(); ++p) {
            const JsonValue &product = products.at(p);
            customer.subscriptions.append(
                {product.value("id"_L1).toString(), product.value("plan_id"_L1).toString(),
                 timeOf(product.value("version"_L1)).value_or(1),
                 textOf(product.value("processor"_L1)).value_or(QString()),
                 product.value("status"_L1).toString(), timeOf(product.value("expires_at"_L1))});
        }
        model.addCustomer(customer);
        // What the workspace had billed already.
        const JsonValue &lines = json.value("charge_lines"_L1);
        for (qsizetype l = 0; l < lines.size(); ++l)
            model.billed[customer.id] = model.billed[customer.id].runningSum(
                decimalOf(lines.at(l).value("line"_L1).value("amount"_L1)));
        const JsonValue &balances = json.value("balances"_L1);
        for (qsizetype b = 0; b < balances.size(); ++b)
            model.addBalance(balanceOf(balances.at(b), customer.id));
    }
    const JsonValue &live = organization.value("live"_L1).value("customers"_L1);
    for (qsizetype c = 0; c < live.size(); ++c) {
        QHash<QString, qint64> planEnds;
        const JsonValue &products = live.at(c).value("products"_L1);
        for (qsizetype p = 0; p < products.size(); ++p) {
            const JsonValue &product = products.at(p);
            planEnds.insert(product.value("id"_L1).toString(),
                            product.value("status"_L1).toString() == "expired"_L1
                                ? std::numeric_limits<qint64>::min()
                                : timeOf(product.value("expires_at"_L1))
                                      .value_or(std::numeric_limits<qint64>::max()));
        }
        const JsonValue &balances = live.at(c).value("balances"_L1);
        for (qsizetype b = 0; b < balances.size(); ++b) {
            const ModelBalance row =
                balanceOf(balances.at(b), live.at(c).value("id"_L1).toString());
            model.live.insert(row.id, {row, planEnds.value(row.subscriptionId,
                                                           std::numeric_limits<qint64>::max())});
        }
    }
    const QJsonObject providers =
        QJsonDocument::fromJson(catalogue).object().value(u"providers"_s).toObject();
    for (auto provider = providers.begin(); provider != providers.end(); ++provider) {
        const QJsonObject models = provider.value().toObject().value(u"models"_s).toObject();
        for (auto entry = models.begin(); entry != models.end(); ++entry) {
            const QJsonObject cost = entry.value().toObject().value(u"cost"_s).toObject();
            const auto pool = [&](const QString &name) {
                return cost.contains(name) ? std::optional(cost.value(name).toInteger())
                                           : std::nullopt;
            };
            model.prices.insert(provider.key() + u'/' + entry.key(),
                                {*pool(u"input"_s), *pool(u"output"_s), pool(u"cache_read"_s),
                                 pool(u"cache_write"_s), pool(u"reasoning"_s),
                                 pool(u"input_audio"_s), pool(u"output_audio"_s)});
        }
    }
    return model;
}

Decimal Model::priced(const api::Price &price, Decimal units)
{
    const Int128 nano = Decimal::One;
    const Int128 largest = Int128(1'000'000'000'000) * nano; // the largest line
    const auto mul = [](Int128 a, Int128 b, Int128 &out) {
        return !__builtin_mul_overflow(a, b, &out);
    };
    // A product a × b / c, rounded half away from zero to the nano-unit.
    const auto rate = [&](Int128 a, Int128 b, Int128 c, Int128 &out) {
        Int128 product = 0;
        if (!mul(a, b, product))
            return false;
        const Int128 q = product / c;
        const Int128 r = product % c;
        out = 2 * (r < 0 ? -r : r) >= c ? q + (product < 0 ? -1 : 1) : q;
        return true;
    };
    const Int128 unit = price.billingUnits.raw();
    if (units.raw() <= 0 || unit <= 0)
        return Decimal();
    const Int128 increments = (units.raw() + unit - 1) / unit;
    Int128 billable = 0;
    Int128 exact = 0;
    bool fits = mul(increments, unit, billable) && billable < Decimal::MaxRaw;
    if (fits && (!price.tiers || price.tiers->isEmpty())) {
        fits = mul(price.amount.value_or(Decimal()).raw(), increments, exact);
    } else if (fits) {
        Int128 from = 0;
        for (const api::Tier &tier : *price.tiers) {
            const bool last = !tier.to || tier.to->raw() >= billable;
            if (price.tierBehavior == api::TierBehavior::Volume && !last) {
                from = tier.to->raw();
                continue;
            }
            const Int128 inBand = price.tierBehavior == api::TierBehavior::Volume
                                      ? billable
                                      : (last ? billable : tier.to->raw()) - from;
            Int128 band = 0;
            fits = fits && rate(tier.amount.raw(), inBand, unit, band);
            exact += band + tier.flatAmount.value_or(Decimal()).raw();
            if (last || !fits)
                break;
            from = tier.to->raw();
        }
    }
    if (!fits || exact >= Decimal::MaxRaw)
        return Decimal::fromRaw(largest);
    const Int128 cent = nano / 100;
    const Int128 rounded = (exact + cent / 2) / cent * cent; // never negative here
    return Decimal::fromRaw(std::min(rounded, largest));
}

Decimal Model::purchase(const ModelBalance &row)
{
    if (!row.price || row.price->billingMethod != api::BillingMethod::Prepaid || row.unlimited)
        return Decimal();
    const Decimal bought = row.price->maxPurchase && *row.price->maxPurchase < row.prepaid
                               ? *row.price->maxPurchase
                               : row.prepaid;
    return priced(*row.price, bought);
}

ModelBalance *Model::balance(const QString &id)
{
    const auto found = m_balanceIndex.constFind(id);
    return found == m_balanceIndex.cend() ? nullptr : &balances[*found];
}

ModelCustomer *Model::customer(const QString &id)
{
    const auto found = m_customerIndex.constFind(id);
    return found == m_customerIndex.cend() ? nullptr : &customers[*found];
}

const ModelCustomer *Model::customer(const QString &id) const
{
    const auto found = m_customerIndex.constFind(id);
    return found == m_customerIndex.cend() ? nullptr : &customers.at(*found);
}

ModelSubscription *Model::subscription(const QString &customerId, const QString &id)
{
    ModelCustomer *owner = customer(customerId);
    if (!owner)
        return nullptr;
    for (ModelSubscription &subscription : owner->subscriptions)
        if (subscription.id == id)
            return &subscription;
    return nullptr;
}

void Model::addBalance(const ModelBalance &balance)
{
    m_balanceIndex.insert(balance.id, balances.size());
    balances.append(balance);
}

void Model::addCustomer(const ModelCustomer &customer)
{
    m_customerIndex.insert(customer.id, customers.size());
    customers.append(customer);
}

void Model::useKey(const QString &key)
{
    if (!usedKeys.contains(key))
        usedKeysInOrder.append(key);
    usedKeys.insert(key);
}

bool Model::expired(const ModelBalance &balance, qint64 nowMs) const
{
    // docs/storage.md, "Status is computed, never stored".
    if (balance.subscriptionId.isEmpty())
        return balance.expiresAt && *balance.expiresAt <= nowMs;
    const ModelCustomer *owner = customer(balance.customerId);
    for (const ModelSubscription &subscription : owner->subscriptions)
        if (subscription.id == balance.subscriptionId)
            return subscription.status == "expired"_L1 ||
                   (subscription.expiresAt && *subscription.expiresAt <= nowMs);
    qFatal("balance %s names a subscription the model lacks", qPrintable(balance.id));
}

Cost Model::cost(const api::TrackTokensRequest &request) const
{
    const ModelPrice price = prices.value(request.modelId);
    const std::pair<qint64, qint64> pools[] = {
        {request.inputTokens, price.input},
        {request.outputTokens, price.output},
        {request.cacheReadTokens.value_or(0), price.cacheRead.value_or(price.input)},
        {request.cacheWriteTokens.value_or(0), price.cacheWrite.value_or(price.input)},
        {request.reasoningTokens.value_or(0), price.reasoning.value_or(price.output)},
        {request.audioInputTokens.value_or(0), price.audioInput.value_or(price.input)},
        {request.audioOutputTokens.value_or(0), price.audioOutput.value_or(price.output)},
    };
    // Σ(price × tokens) in dollars-per-million × tokens: each product and
    // the sum must stay an amount (below 10^20).
    const Int128 limit = Decimal::MaxRaw / Decimal::One;
    Cost cost;
    Int128 sum = 0;
    for (const auto &[tokens, perMillion] : pools) {
        const Int128 product = Int128(tokens) * perMillion;
        sum += product;
        if (product >= limit || sum >= limit)
            return {false, Decimal(), false};
    }
    Decimal markup;
    if (markupByModel.contains(request.modelId))
        markup = markupByModel.value(request.modelId);
    else if (markupByProvider.contains(request.provider()))
        markup = markupByProvider.value(request.provider());
    else if (defaultMarkup)
        markup = *defaultMarkup;
    cost.free = markup == Decimal::fromInteger(-100);
    // value = Σ ÷ 10^6 × (100 + markup) ÷ 100: whole-dollar prices and whole
    // markups leave at most 8 places, so no rounding is involved.
    const Int128 scaled = sum * 1000 * (100 * Decimal::One + markup.raw());
    if (scaled % (100 * Decimal::One) != 0)
        qFatal("the test's catalogue and markups must price exactly");
    cost.value = Decimal::fromRaw(scaled / (100 * Decimal::One));
    return cost;
}

api::BillingControls Model::controlsFor(const QString &customerId,
                                        const std::optional<QString> &entityId) const
{
    if (entityId) {
        const auto own = controls.constFind(customerId + u'/' + *entityId);
        if (own != controls.cend())
            return *own;
    }
    return controls.value(customerId);
}

QList<const ModelBalance *> Model::activeRows(const QString &customerId,
                                              const std::optional<QString> &entityId,
                                              const QString &featureId, qint64 nowMs) const
{
    QList<const ModelBalance *> rows;
    for (const ModelBalance &row : balances)
        if (row.customerId == customerId && row.featureId == featureId &&
            row.entityId == entityId && !expired(row, nowMs))
            rows.append(&row);
    return rows;
}

bool Model::take(ModelBalance &row, Decimal value, qint64 nowMs)
{
    Int128 left = value.raw();
    for (ModelRollover &rollover : row.rollovers) {
        if (rollover.expiresAt <= nowMs || rollover.balance.raw() <= 0 || left <= 0)
            continue;
        const Int128 part = std::min(left, rollover.balance.raw());
        rollover.balance = Decimal::fromRaw(rollover.balance.raw() - part);
        left -= part;
    }
    const auto usage = checked(row.usage.raw() + left);
    const auto remaining =
        row.unlimited ? std::optional(row.remaining) : checked(row.remaining.raw() - left);
    if (!usage || !remaining)
        return false;
    row.usage = *usage;
    row.remaining = *remaining;
    return true;
}

std::optional<Decimal> Model::amount(Int128 raw)
{
    return checked(raw);
}

bool Model::nearLimit(const ModelBalance &row, Decimal value)
{
    return !checked(row.usage.raw() + value.raw()) || !checked(row.remaining.raw() - value.raw());
}

ExpectedImport Model::expectImport(const api::ImportCustomerRequest &request, qint64 nowMs) const
{
    ExpectedImport expected;
    const auto refuse = [&](const QString &why) {
        expected.refusal = why;
        return expected;
    };
    QMap<QString, QString> sent;
    for (const api::ProcessorIdentity &identity : request.processors) {
        const QString type = api::toWire(identity.type);
        if (sent.contains(type) && sent.value(type) != identity.id)
            return refuse(u"two ids for one processor"_s);
        sent.insert(type, identity.id);
    }
    const ModelCustomer *stored = customer(request.customerId);
    if (stored)
        for (auto it = stored->processors.cbegin(); it != stored->processors.cend(); ++it)
            if (sent.contains(it.key()) && sent.value(it.key()) != it.value())
                return refuse(u"the customer's processor id would change"_s);
    QList<QList<api::ProductItem>> items;
    for (const api::Billable &billable : request.billables) {
        const auto plan = plans.constFind(billable.plan.planId);
        if (plan == plans.cend())
            return refuse(u"unknown plan"_s);
        if (billable.plan.version && !plan->contains(*billable.plan.version))
            return refuse(u"unknown plan version"_s);
        items.append(billable.plan.version ? plan->value(*billable.plan.version) : plan->last());
        for (const api::ImportBalance &reported : billable.plan.balances) {
            if (reported.usage && reported.balance)
                return refuse(u"usage and balance both reported"_s);
            if (std::none_of(items.last().cbegin(), items.last().cend(),
                             [&](const api::ProductItem &item) {
                                 return item.featureId == reported.featureId;
                             }))
                return refuse(u"a balance of a feature the plan does not grant"_s);
        }
    }
    if (request.customerData && request.customerData->name &&
        !request.customerData->name->contains(QRegularExpression(u"^[A-Za-z0-9 ]+$"_s)))
        expected.certain = false; // the free-text rule decides
    expected.newCustomer = !stored;
    QList<ModelSubscription> subscriptions =
        stored ? stored->subscriptions : QList<ModelSubscription>();
    const qsizetype existing = subscriptions.size();
    QSet<QString> named;
    for (qsizetype i = 0; i < request.billables.size(); ++i) {
        const api::Billable &billable = request.billables.at(i);
        const QString processor = api::toWire(billable.processor);
        named.insert(processor + u'/' + billable.plan.planId);
        ExpectedImport::Attached attached;
        attached.billable = i;
        const QString status = api::toWire(billable.plan.status.value_or(api::PlanStatus::Active));
        const bool ends = status == "expired"_L1 || status == "canceled"_L1;
        // The newest subscription of the same key in force, else the newest ended one.
        qsizetype inForce = -1;
        qsizetype over = -1;
        for (qsizetype s = subscriptions.size() - 1; s >= 0; --s) {
            if (!subscriptions.at(s).sameKey(billable.plan.planId, processor))
                continue;
            if (subscriptions.at(s).inForce() && inForce < 0)
                inForce = s;
            else if (!subscriptions.at(s).inForce() && over < 0)
                over = s;
        }
        if (!ends && inForce >= 0) {
            attached.skipped = true;
            attached.skippedReason = u"already_active"_s;
            attached.skippedSubscription = subscriptions.at(inForce).id;
        } else if (ends && inForce >= 0) {
            attached.endsSubscription = subscriptions.at(inForce).id;
            subscriptions[inForce].status = u"expired"_s; // as the engine stores it
            subscriptions[inForce].expiresAt = nowMs;
        } else if (ends && over >= 0) {
            attached.skipped = true;
            attached.skippedReason = u"already_ended"_s;
            attached.skippedSubscription = subscriptions.at(over).id;
        }
        if (!attached.skipped && attached.endsSubscription.isEmpty()) {
            const Decimal quantity = billable.plan.quantity.value_or(Decimal::fromInteger(1));
            if (!quantity.isInteger())
                return refuse(u"a quantity that is not whole"_s);
            const Int128 units = quantity.raw() / Decimal::One;
            // A quantity is a count: at most 2^53 - 1, as JSON carries exactly.
            if (units > api::MaxSafeInteger)
                return refuse(u"a quantity past 2^53 - 1"_s);
            // A plan recorded canceled or expired is over from the start.
            const bool expiredPlan = ends;
            const auto plan = plans.value(billable.plan.planId);
            attached.subscription = {QString(),
                                     billable.plan.planId,
                                     billable.plan.version.value_or(plan.lastKey()),
                                     processor,
                                     expiredPlan ? u"expired"_s : status,
                                     expiredPlan ? std::optional(nowMs) : std::nullopt};
            QList<bool> used(billable.plan.balances.size(), false);
            for (const api::ProductItem &item : items.at(i)) {
                if (item.featureId.isEmpty())
                    continue; // a fixed price grants nothing
                const Int128 each = item.includedUsage.value_or(Decimal()).raw();
                // The engine counts units in 64 bits; past that, or past an
                // amount, it must refuse rather than wrap.
                if (units > std::numeric_limits<qint64>::max() ||
                    (units != 0 && each > Decimal::MaxRaw / units))
                    return refuse(u"included usage × quantity out of range"_s);
                const auto included = checked(each * units);
                if (!included)
                    return refuse(u"included usage × quantity out of range"_s);
                Decimal prepaid;
                for (const api::FeatureQuantity &bought : billable.plan.featureQuantities)
                    if (bought.featureId == item.featureId)
                        prepaid = bought.quantity;
                const auto granted = checked(included->raw() + prepaid.raw());
                if (!granted)
                    return refuse(u"included plus prepaid grant out of range"_s);
                ExpectedRow row{item.featureId, *included, prepaid, *granted, Decimal()};
                for (qsizetype j = 0; j < billable.plan.balances.size(); ++j) {
                    const api::ImportBalance &reported = billable.plan.balances.at(j);
                    if (used.at(j) || reported.featureId != item.featureId)
                        continue;
                    used[j] = true;
                    if (reported.usage || reported.balance) {
                        const Decimal given = reported.usage ? *reported.usage : *reported.balance;
                        const auto other = checked(granted->raw() - given.raw());
                        if (!other)
                            return refuse(u"reported usage or balance out of range"_s);
                        row.usage = reported.usage ? given : *other;
                        row.remaining = reported.usage ? *other : given;
                    }
                    break;
                }
                attached.rows.append(row);
            }
            ModelSubscription placeholder = attached.subscription;
            placeholder.id = u"#%1"_s.arg(i); // its id comes with the answer
            subscriptions.append(placeholder);
        }
        expected.attached.append(attached);
    }
    QSet<QString> processors(sent.keyBegin(), sent.keyEnd());
    for (const api::Billable &billable : request.billables)
        processors.insert(api::toWire(billable.processor));
    for (qsizetype s = 0; s < existing; ++s) {
        const ModelSubscription &subscription = subscriptions.at(s);
        if (subscription.inForce() && processors.contains(subscription.processor) &&
            !named.contains(subscription.processor + u'/' + subscription.planId))
            expected.expiring.append(s);
    }
    return expected;
}

} // namespace md::test::randomops
