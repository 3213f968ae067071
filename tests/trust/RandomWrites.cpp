// The other write routes: adjustments, imports, products, rewards, billing
// controls, promotion and platform links.
#include "tests/trust/RandomRunner.h"

#include "services/api/Identifier.h"
#include "services/api/WireCodec.h"
#include "services/engine/sql/Sql.h"

namespace md::test::randomops {

using namespace Qt::StringLiterals;

void Runner::adjust(Operation &op)
{
    auto decoded = api::decodeBody<api::BalanceAdjustment>(op.body);
    auto answer = decoded ? m_api.adjustBalance(m_key, decoded.value())
                          : api::Result<api::LedgerEntry>(decoded.error());
    if (!decoded) {
        op.answer = said(answer.error());
        refusalIsSound(op, answer.error());
        return;
    }
    const api::BalanceAdjustment &request = decoded.value();
    ModelBalance *row = m_model.balance(request.balanceId);
    const qint64 at = now();
    std::optional<Decimal> remaining;
    std::optional<Decimal> held;
    if (row) {
        remaining = Model::amount(row->remaining.raw() + request.amount.raw());
        held = Model::amount(row->held().raw() + request.amount.raw());
    }
    if (!answer) {
        op.answer = said(answer.error());
        if (!refusalIsSound(op, answer.error()))
            return;
        if (!row && answer.error().code != "balance_not_found"_L1)
            problem(op, u"an unknown balance must be 404 balance_not_found"_s);
        if (row && !row->unlimited && remaining && held && !m_model.expired(*row, at))
            problem(op, u"refused an adjustment of an active balance that stays in range"_s);
        return;
    }
    const api::LedgerEntry &entry = answer.value();
    op.answer =
        u"200 %1: %2 now holds %3"_s.arg(entry.id, entry.balanceId, entry.balanceAfter.toString());
    if (!row) {
        problem(op, u"adjusted %1, a balance the sandbox does not have"_s.arg(request.balanceId));
        return;
    }
    if (row->unlimited)
        problem(op, u"adjusted an unlimited balance"_s);
    if (!remaining || !held) {
        problem(op, u"accepted an adjustment that takes the balance out of range"_s);
        return;
    }
    if (entry.kind != "adjustment"_L1 || entry.balanceId != row->id ||
        entry.customerId != row->customerId || entry.featureId != row->featureId ||
        entry.amount != request.amount || entry.balanceAfter != *held ||
        entry.source.route != "balances.adjust"_L1 || !entry.usage.isZero())
        problem(op, u"the ledger entry answered is not the adjustment: %1"_s.arg(
                        QString::fromUtf8(api::toJsonText(entry))));
    row->remaining = *remaining;
    m_adjustments.append(entry.id);
}

void Runner::create(Operation &op)
{
    auto decoded = api::decodeBody<api::BalanceCreation>(op.body);
    if (!decoded) {
        op.answer = said(decoded.error());
        refusalIsSound(op, decoded.error());
        return;
    }
    const api::BalanceCreation &request = decoded.value();
    const qint64 at = now();
    const ModelCustomer *customer = m_model.customer(request.customerId);
    // What must refuse it, in the order the engine looks.
    QString refusal;
    if (request.expiresAt && *request.expiresAt <= at)
        refusal = u"invalid_inputs"_s;
    else if (!customer)
        refusal = u"customer_not_found"_s;
    else if (request.featureId != Credits && !OtherFeatures.contains(request.featureId))
        refusal = u"feature_not_found"_s;
    else if (request.featureId == "premium_support"_L1) // boolean: no amount to hold
        refusal = u"invalid_inputs"_s;
    else if (request.entityId && !customer->entities.contains(*request.entityId))
        refusal = u"entity_not_found"_s;
    auto answer = m_api.createBalance(m_key, request);
    if (!answer) {
        op.answer = said(answer.error());
        if (refusalIsSound(op, answer.error()) && answer.error().code != refusal)
            problem(op, refusal.isEmpty() ? u"refused a balance the model says must be made"_s
                                          : u"must be refused with %1"_s.arg(refusal));
        return;
    }
    const api::LedgerEntry &entry = answer.value();
    op.answer =
        u"200 %1: %2 holds %3"_s.arg(entry.id, entry.balanceId, entry.balanceAfter.toString());
    if (!refusal.isEmpty()) {
        problem(op, u"made a balance that must be refused with %1"_s.arg(refusal));
        return;
    }
    if (entry.kind != "grant"_L1 || entry.customerId != request.customerId ||
        entry.featureId != request.featureId || entry.amount != request.amount ||
        entry.balanceAfter != request.amount || entry.source.route != "balances.create"_L1 ||
        !entry.usage.isZero() || m_model.balance(entry.balanceId))
        problem(op, u"the ledger entry answered is not a new balance's grant: %1"_s.arg(
                        QString::fromUtf8(api::toJsonText(entry))));
    ModelBalance row;
    row.id = entry.balanceId;
    row.customerId = request.customerId;
    row.entityId = request.entityId;
    row.featureId = request.featureId;
    row.remaining = request.amount;
    row.granted = request.amount;
    row.expiresAt = request.expiresAt;
    m_model.addBalance(row);
    m_creations.append(entry.id);
}

void Runner::import(Operation &op)
{
    auto decoded = api::decodeBody<api::ImportCustomerRequest>(op.body);
    if (!decoded) {
        op.answer = said(decoded.error());
        refusalIsSound(op, decoded.error());
        return;
    }
    const api::ImportCustomerRequest &request = decoded.value();
    const ExpectedImport expected = m_model.expectImport(request, now());
    auto answer = m_api.importCustomer(m_key, request);
    if (!answer) {
        op.answer = said(answer.error());
        if (refusalIsSound(op, answer.error()) && expected.refusal.isEmpty() && expected.certain)
            problem(op, u"refused an import the model says must succeed"_s);
        return;
    }
    const api::ImportCustomerResponse &response = answer.value();
    QStringList outcomes;
    for (const api::FlashedPlan &flashed : response.flashed)
        outcomes.append(u"%1 %2%3"_s.arg(flashed.planId, api::toWire(flashed.status),
                                         flashed.skipped   ? u" skipped"_s
                                         : flashed.expired ? u" expired"_s
                                                           : QString()));
    op.answer = u"200 [%1]"_s.arg(outcomes.join(u", "_s));
    if (!expected.refusal.isEmpty()) {
        QStringList made;
        for (const api::BalanceRow &row : request.dryRun
                                              ? QList<api::BalanceRow>()
                                              : list(m_key, request.customerId, std::nullopt))
            if (!m_model.balance(row.id))
                made.append(QString::fromUtf8(api::toJsonText(row)));
        problem(op, u"accepted an import the model says must be refused (%1); it made %2"_s.arg(
                        expected.refusal, made.join(u", "_s)));
        return;
    }
    const ModelCustomer *was = m_model.customer(request.customerId);
    if (response.flashed.size() != expected.attached.size() + expected.expiring.size()) {
        problem(op, u"%1 plan outcomes; the model expects %2 attached or skipped and %3 expired"_s
                        .arg(response.flashed.size())
                        .arg(expected.attached.size())
                        .arg(expected.expiring.size()));
        return;
    }
    // A subscription's id, or "#<n>": the one billables[n] attached.
    const auto idOf = [&](const QString &named) {
        return named.startsWith(u'#') ? response.flashed.at(named.mid(1).toLongLong())
                                            .customerProductId.value_or(QString())
                                      : named;
    };
    for (qsizetype i = 0; i < expected.attached.size(); ++i) {
        const ExpectedImport::Attached &attached = expected.attached.at(i);
        const api::FlashedPlan &flashed = response.flashed.at(i);
        const QString other =
            idOf(attached.skipped ? attached.skippedSubscription : attached.endsSubscription);
        const bool ends = !attached.endsSubscription.isEmpty();
        if (flashed.planId != request.billables.at(attached.billable).plan.planId ||
            flashed.skipped != attached.skipped ||
            (attached.skipped && flashed.reason != attached.skippedReason) ||
            flashed.expired.value_or(false) != ends ||
            ((attached.skipped || ends) && !request.dryRun && flashed.customerProductId != other))
            problem(op, u"billables[%1] answered %2; the model says %3"_s.arg(i).arg(
                            QString::fromUtf8(api::toJsonText(flashed)),
                            attached.skipped ? u"it is skipped (%1), %2 being its key's"_s.arg(
                                                   attached.skippedReason, other)
                            : ends ? u"it ends %1"_s.arg(other)
                                   : u"it is attached"_s));
    }
    for (qsizetype j = 0; j < expected.expiring.size(); ++j) {
        const ModelSubscription &subscription = was->subscriptions.at(expected.expiring.at(j));
        const api::FlashedPlan &flashed = response.flashed.at(expected.attached.size() + j);
        if (flashed.planId != subscription.planId || !flashed.expired.value_or(false) ||
            (!request.dryRun && flashed.customerProductId != subscription.id))
            problem(op, u"expected %1 (%2) to expire"_s.arg(subscription.planId, subscription.id));
    }
    if (request.dryRun || !m_problems.isEmpty())
        return;
    if (!was) {
        ModelCustomer created;
        created.id = request.customerId;
        m_model.addCustomer(created);
    }
    ModelCustomer &customer = *m_model.customer(request.customerId);
    for (const api::ProcessorIdentity &identity : request.processors)
        if (!customer.processors.contains(api::toWire(identity.type)))
            customer.processors.insert(api::toWire(identity.type), identity.id);
    for (const qsizetype index : expected.expiring) {
        customer.subscriptions[index].status = u"expired"_s;
        customer.subscriptions[index].expiresAt = now();
    }
    importedRows(op, request, expected, response);
    // Ended after importedRows: a billable may end what an earlier one attached.
    for (const ExpectedImport::Attached &attached : expected.attached) {
        if (attached.endsSubscription.isEmpty())
            continue;
        const QString id = idOf(attached.endsSubscription);
        for (ModelSubscription &subscription : customer.subscriptions)
            if (subscription.id == id) {
                subscription.status = u"expired"_s; // as the engine stores an ended plan
                subscription.expiresAt = now();
            }
    }
}

// The plan balances an import made: found by their customer product, each
// what its plan item, quantity, prepaid grant and reported usage make it.
void Runner::importedRows(const Operation &op, const api::ImportCustomerRequest &request,
                          const ExpectedImport &expected, const api::ImportCustomerResponse &answer)
{
    ModelCustomer &customer = *m_model.customer(request.customerId);
    QStringList attachedIds; // by billable; empty where skipped
    for (qsizetype i = 0; i < expected.attached.size(); ++i) {
        const ExpectedImport::Attached &attached = expected.attached.at(i);
        attachedIds.append(QString());
        // A billable that ends a plan attaches none: its answer names the
        // ended one, which may be the one an earlier billable just attached.
        if (attached.skipped || !attached.endsSubscription.isEmpty())
            continue;
        ModelSubscription subscription = attached.subscription;
        subscription.id = answer.flashed.at(i).customerProductId.value_or(QString());
        customer.subscriptions.append(subscription);
        attachedIds.last() = subscription.id;
    }
    auto db = m_engine.database().connection();
    QHash<QString, QList<api::BalanceRow>> made; // by customer product
    for (const api::BalanceRow &row : list(m_key, request.customerId, std::nullopt)) {
        if (m_model.balance(row.id))
            continue;
        auto owner = engine::queryRows(db.value(),
                                       u"SELECT cp.id FROM balances b JOIN customer_products cp"
                                       " ON cp.pk = b.customer_product_pk WHERE b.id = ?"_s,
                                       {row.id});
        const QString subscription = owner && !owner.value().isEmpty()
                                         ? owner.value().first().first().toString()
                                         : QString();
        if (subscription.isEmpty() || !attachedIds.contains(subscription))
            problem(op, u"balance %1 appeared, of no plan this import attached"_s.arg(row.id));
        else
            made[subscription].append(row);
    }
    // In the order of the billables and their plans' items, so that the
    // model's order, and every choice made from it later, is the same on
    // every run.
    for (qsizetype i = 0; i < expected.attached.size(); ++i) {
        if (attachedIds.at(i).isEmpty())
            continue;
        const ExpectedImport::Attached &attached = expected.attached.at(i);
        const QList<api::BalanceRow> rows = made.value(attachedIds.at(i));
        if (rows.size() != attached.rows.size()) {
            problem(op, u"%1 balances for %2; its plan has %3 items"_s.arg(rows.size())
                            .arg(attached.subscription.planId)
                            .arg(attached.rows.size()));
            continue;
        }
        for (const ExpectedRow &want : attached.rows) {
            const auto found = std::find_if(rows.cbegin(), rows.cend(), [&](const auto &row) {
                return row.featureId == want.featureId;
            });
            if (found == rows.cend() || found->includedGrant != want.included ||
                found->prepaidGrant != want.prepaid || found->remaining != want.remaining ||
                found->usage != want.usage || !found->rollovers.isEmpty() || found->entityId) {
                problem(op, u"the %1 balance of %2 must be included %3, prepaid %4, remaining %5,"
                            " used %6; it is %7"_s.arg(
                                want.featureId, attached.subscription.planId,
                                want.included.toString(), want.prepaid.toString(),
                                want.remaining.toString(), want.usage.toString(),
                                found == rows.cend() ? u"missing"_s
                                                     : QString::fromUtf8(api::toJsonText(*found))));
                continue;
            }
            ModelBalance row;
            row.id = found->id;
            row.customerId = request.customerId;
            row.featureId = want.featureId;
            row.subscriptionId = attachedIds.at(i);
            row.remaining = want.remaining;
            row.usage = want.usage;
            row.unlimited = found->unlimited;
            row.granted = want.included.sum(want.prepaid).value_or(Decimal());
            row.prepaid = want.prepaid;
            for (const api::ProductItem &item : m_model.plans.value(attached.subscription.planId)
                                                    .value(attached.subscription.version)) {
                if (item.featureId != want.featureId)
                    continue;
                if (item.interval && item.rollover)
                    row.rule = item.rollover;
                // The item's price is the row's (docs/api.md, Products).
                if (item.price || item.tiers) {
                    api::Price price;
                    price.amount = item.price;
                    price.tiers = item.tiers;
                    price.billingUnits = item.billingUnits.value_or(Decimal::fromInteger(1));
                    price.billingMethod = item.usageModel == api::UsageModel::Prepaid
                                              ? api::BillingMethod::Prepaid
                                              : api::BillingMethod::UsageBased;
                    row.price = price;
                }
            }
            // What it bought is billed as it is bought (docs/billing.md);
            // a plan recorded ended bought nothing.
            const bool ended = attached.subscription.status == "expired"_L1 ||
                               attached.subscription.status == "canceled"_L1;
            const Decimal bought = ended ? Decimal() : Model::purchase(row);
            m_model.billed[row.customerId] = m_model.billed[row.customerId].runningSum(bought);
            if (!bought.isZero())
                m_model.billedLines[row.customerId].append(u"%1 imported: %2 bought = %3"_s.arg(
                    row.id, row.prepaid.toString(), bought.toString()));
            // When its first reset falls is the listing's (the calendar
            // itself is tst_billingclock's); what each does is the model's.
            // Later ones count from the plan's start, which is now (the
            // imports send no started_at): from the 31st of March, the 30th
            // of April and then the 31st of May, not the 30th.
            if (found->reset && found->reset->resetsAt &&
                found->reset->interval != api::ResetInterval::OneOff)
                row.resets = ModelBalance::Resets{found->reset->interval,
                                                  found->reset->intervalCount.value_or(1), now(),
                                                  *found->reset->resetsAt};
            m_model.addBalance(row);
        }
    }
}

void Runner::product(Operation &op)
{
    if (const auto wrong = api::identifierProblem(op.pathId)) {
        op.answer = u"400 invalid_inputs: product_id: "_s + *wrong; // as ApiRoutes refuses it
        return;
    }
    auto decoded = api::decodeBody<api::UpdateProductRequest>(op.body);
    auto answer = decoded ? m_api.updateProduct(m_key, op.pathId, decoded.value())
                          : api::Result<api::Product>(decoded.error());
    const bool known = m_model.plans.contains(op.pathId);
    if (!answer) {
        op.answer = said(answer.error());
        // A field at fault may be named first.
        if (refusalIsSound(op, answer.error()) && !known &&
            answer.error().code != "product_not_found"_L1 &&
            answer.error().code != "invalid_inputs"_L1)
            problem(op, u"an unknown product must be 404 product_not_found"_s);
        return;
    }
    const api::UpdateProductRequest &request = decoded.value();
    const api::Product &product = answer.value();
    op.answer = u"200 %1 version %2"_s.arg(product.id).arg(product.version);
    if (!known) {
        problem(op, u"updated a product the sandbox does not have"_s);
        return;
    }
    QMap<qint64, QList<api::ProductItem>> versions = m_model.plans.value(op.pathId);
    const qint64 latest = versions.lastKey();
    const bool itemsChange = request.items && *request.items != versions.value(latest);
    bool inUse = false;
    for (const ModelCustomer &customer : std::as_const(m_model.customers))
        for (const ModelSubscription &subscription : customer.subscriptions)
            inUse |= subscription.planId == op.pathId && subscription.version == latest;
    const bool newVersion = itemsChange && inUse; // docs/api.md, products update
    const qint64 version = request.version.value_or(newVersion ? latest + 1 : latest);
    const QString id = request.id.value_or(op.pathId);
    if (product.id != id || product.version != version ||
        (request.items && product.items != *request.items) ||
        (request.name && product.name != *request.name))
        problem(op, u"answered %1; the model expects %2 version %3 with the items and name sent"_s
                        .arg(QString::fromUtf8(api::toJsonText(product)), id)
                        .arg(version));
    if (!newVersion)
        versions.remove(latest);
    versions.insert(product.version, product.items);
    m_model.plans.remove(op.pathId);
    m_model.plans.insert(id, versions);
    m_model.newestProducts.remove(op.pathId);
    m_model.newestProducts.insert(id, product);
    for (ModelCustomer &customer : m_model.customers)
        for (ModelSubscription &subscription : customer.subscriptions)
            if (subscription.planId == op.pathId) {
                subscription.planId = id;
                if (!newVersion && subscription.version == latest)
                    subscription.version = product.version;
            }
}

void Runner::reward(Operation &op)
{
    auto decoded = api::decodeBody<api::UpdateRewardRequest>(op.body);
    auto answer = decoded ? m_api.updateReward(m_key, decoded.value())
                          : api::Result<api::UpdateRewardResponse>(decoded.error());
    if (answer) {
        op.answer = u"200"_s;
        return;
    }
    op.answer = said(answer.error());
    refusalIsSound(op, answer.error());
}

void Runner::controls(Operation &op)
{
    auto decoded = api::decodeBody<api::UpdateBillingControlsRequest>(op.body);
    auto answer = decoded ? m_api.updateBillingControls(m_key, decoded.value())
                          : api::Result<api::BillingControlsAnswer>(decoded.error());
    if (!answer) {
        op.answer = said(answer.error());
        if (!refusalIsSound(op, answer.error()) || !decoded)
            return;
        // Known owner and features, one limit per feature, interval and
        // anchor, alerts within 100 %: nothing left to refuse.
        const api::UpdateBillingControlsRequest &request = decoded.value();
        const ModelCustomer *customer = m_model.customer(request.customerId);
        bool sound =
            customer && (!request.entityId || customer->entities.contains(*request.entityId));
        QSet<QString> limits;
        for (const auto &[feature, path] : request.billingControls.namedFeatures())
            sound &= feature == Credits || OtherFeatures.contains(feature);
        for (const api::UsageLimit &limit : request.billingControls.usageLimits) {
            const QString key =
                limit.featureId + api::toWire(limit.interval) + api::toWire(limit.anchor);
            sound &= !limits.contains(key);
            limits.insert(key);
        }
        for (const api::UsageAlert &alert : request.billingControls.usageAlerts)
            sound &= alert.threshold <= Decimal::fromInteger(100);
        if (sound)
            problem(op, u"refused billing controls the model finds nothing wrong with"_s);
        return;
    }
    const api::UpdateBillingControlsRequest &request = decoded.value();
    op.answer = u"200"_s;
    const QString owner =
        request.entityId ? request.customerId + u'/' + *request.entityId : request.customerId;
    m_model.controls.insert(owner, answer.value().billingControls);
}

void Runner::promote(Operation &op, OperationMaker &maker)
{
    auto diff = m_api.environmentDiff(m_liveKey, {});
    if (!diff) {
        op.answer = u"environments.diff: "_s + said(diff.error());
        refusalIsSound(op, diff.error());
        problem(op, u"environments.diff refused the production key"_s);
        return;
    }
    api::EnvironmentPromotion promotion;
    const bool stale = m_lastPromotion && maker.chance(25);
    if (stale) {
        promotion = *m_lastPromotion;
    } else {
        QStringList products;
        QStringList rewards;
        for (const auto &entry : diff.value().products)
            if (maker.chance(50))
                products.append(entry.id);
        for (const auto &entry : diff.value().rewards)
            if (maker.chance(50))
                rewards.append(entry.id);
        if (products.isEmpty() && rewards.isEmpty()) {
            if (!diff.value().products.isEmpty())
                products.append(diff.value().products.first().id);
            else if (!diff.value().rewards.isEmpty())
                rewards.append(diff.value().rewards.first().id);
            else {
                op.answer = u"nothing differs"_s;
                return;
            }
        }
        promotion = diff.value().promotion(products, rewards);
    }
    op.body = api::toJsonText(promotion);
    auto decoded = api::decodeBody<api::EnvironmentPromotion>(op.body);
    auto answer = decoded ? m_api.promoteEnvironment(m_liveKey, decoded.value())
                          : api::Result<api::EnvironmentPromoted>(decoded.error());
    if (!answer) {
        op.answer = said(answer.error());
        // Fresh, production is as the diff showed it; a promotion may still
        // be refused for what it would make (a promo code another reward uses).
        if (refusalIsSound(op, answer.error()) && !stale &&
            answer.error().code == "production_changed"_L1)
            problem(op, u"production changed, it says, since the diff it had just shown"_s);
        return;
    }
    op.answer = u"200 (%1 products, %2 rewards)"_s.arg(answer.value().products.size())
                    .arg(answer.value().rewards.size());
    m_lastPromotion = promotion;
}

void Runner::link(Operation &op)
{
    auto decoded = api::decodeBody<api::LinkOrganizationRequest>(op.body);
    auto answer = decoded ? m_api.linkOrganization(m_key, decoded.value())
                          : api::Result<api::LinkOrganizationResponse>(decoded.error());
    if (answer) {
        op.answer = u"200"_s;
        return;
    }
    op.answer = said(answer.error());
    refusalIsSound(op, answer.error());
}

} // namespace md::test::randomops
