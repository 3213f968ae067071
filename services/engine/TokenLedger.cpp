#include "services/engine/TokenLedger.h"

#include "services/engine/BalanceLister.h"
#include "services/engine/CallLimits.h"
#include "services/engine/CallResolver.h"
#include "services/engine/Deducter.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"

#include <QUuid>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

ApiError duplicateKey(const QString &key)
{
    return {
        409, u"duplicate_idempotency_key"_s,
        u"an event with Idempotency-Key \"%1\" was already recorded; nothing was deducted"_s.arg(
            key)};
}

// The customer's active rows of the feature (entity-scoped or not), in deduction order.
api::Result<QList<api::BalanceRow>> rowsInOrder(const QSqlDatabase &db, const Scope &scope,
                                                const api::TrackTokensRequest &request,
                                                const QString &featureId, qint64 nowMs)
{
    api::ListBalancesRequest list;
    list.customerId = request.customerId;
    list.entityId = request.entityId;
    list.featureId = featureId;
    list.limit = api::ListBalancesRequest::MaxLimit;
    QList<api::BalanceRow> rows;
    for (;;) {
        auto page = BalanceLister::list(db, scope, list, nowMs);
        if (!page)
            return page.error();
        for (const api::BalanceRow &row : page.value().list)
            if (request.entityId || !row.entityId)
                rows.append(row);
        if (!page.value().hasMore)
            break;
        list.startCursor = *page.value().nextCursor;
    }
    Deducter::order(rows);
    return rows;
}

// Everything a call will write, worked out from what is stored now.
struct Plan
{
    ResolvedCall call;
    api::BillingControls controls;
    QList<api::BalanceRow> rows; // as they will be
    Deducter::Outcome outcome;
    // Overflow with no active row: the usage lands on a new standalone row
    // that goes negative, never nowhere (docs/billing-controls.md).
    std::optional<api::BalanceRow> overageRow;
    QList<LimitWindow> windows;
    QList<BillingControlStore::FiredAlert> alerts;
    bool overageAllowed = false;
};

api::Result<Plan> planCall(const QSqlDatabase &db, const Scope &scope,
                           const api::TrackTokensRequest &request, ResolvedCall call, qint64 nowMs)
{
    Plan plan;
    plan.call = std::move(call);
    auto rows = rowsInOrder(db, scope, request, plan.call.featureId, nowMs);
    if (!rows)
        return rows.error();
    plan.rows = rows.value();
    auto controls = BillingControlStore::inForce(db, plan.call.customerPk, plan.call.entityPk);
    if (!controls)
        return controls.error();
    plan.controls = controls.value();
    const QString &featureId = plan.call.featureId;
    const std::optional<bool> overrideOverage = plan.controls.overageAllowedFor(featureId);
    // Overflow unless the controls forbid overage for the feature.
    const bool overflow =
        request.overageBehavior == api::OverageBehavior::Overflow && overrideOverage.value_or(true);
    const FeatureTotals before = FeatureTotals::of(plan.rows);
    Decimal amount = plan.call.priced.free ? Decimal() : plan.call.priced.value;
    auto windows = CallLimits::windows(db, plan.call.customerPk, plan.call.entityPk,
                                       plan.call.featurePk, plan.controls, featureId, nowMs);
    if (!windows)
        return windows.error();
    plan.windows = windows.value();
    if (!overflow && Decimal() < amount) { // usage limits clamp a capped call only
        auto room = CallLimits::room(plan.windows, request.customerId, featureId);
        if (!room)
            return room.error();
        if (room.value())
            amount = std::min(amount, *room.value());
    }
    plan.outcome = Deducter::take(plan.rows, amount, overflow, nowMs);
    if (overflow && Decimal() < plan.outcome.left && plan.rows.isEmpty()) {
        api::BalanceRow row;
        row.id = u"b_"_s + QUuid::createUuid().toString(QUuid::Id128);
        row.featureId = featureId;
        row.customerId = request.customerId;
        row.entityId = request.entityId;
        row.remaining = plan.outcome.left.negated();
        row.usage = plan.outcome.left;
        row.createdAt = nowMs;
        plan.outcome.taken.insert(row.id, plan.outcome.left);
        plan.outcome.touched.append(row.id);
        plan.outcome.left = Decimal();
        plan.overageRow = row;
    }
    QList<api::BalanceRow> after = plan.rows;
    if (plan.overageRow)
        after.append(*plan.overageRow);
    const FeatureTotals totals = FeatureTotals::of(after);
    if (overflow)
        if (auto refused = CallLimits::spendRefusal(plan.controls, request.customerId, featureId,
                                                    before, totals))
            return *refused;
    plan.alerts =
        CallLimits::crossed(plan.controls, featureId, plan.call.featurePk, before, totals);
    plan.overageAllowed = overrideOverage.value_or(false);
    return plan;
}

api::Result<api::Done> writeBalances(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                     const Plan &plan, qint64 nowMs, KeyAllocator &keys)
{
    for (const api::BalanceRow &row : plan.rows) {
        if (!plan.outcome.taken.contains(row.id))
            continue;
        if (auto updated =
                execute(db, u"UPDATE balances SET remaining = ?, usage = ? WHERE id = ?"_s,
                        {row.remaining.toString(), row.usage.toString(), row.id});
            !updated)
            return updated.error();
        if (row.rollovers.isEmpty())
            continue;
        auto stored =
            queryRows(db,
                      u"SELECT r.pk FROM rollovers r JOIN balances b ON b.pk = r.balance_pk"
                      " WHERE b.id = ? ORDER BY r.expires_at, r.pk"_s,
                      {row.id});
        if (!stored)
            return stored.error();
        for (qsizetype i = 0; i < std::min(row.rollovers.size(), stored.value().size()); ++i)
            if (auto updated =
                    execute(db, u"UPDATE rollovers SET balance = ? WHERE pk = ?"_s,
                            {row.rollovers.at(i).balance.toString(), stored.value().at(i).first()});
                !updated)
                return updated.error();
    }
    if (const auto &row = plan.overageRow) {
        auto pk = keys.next(u"balances"_s);
        if (!pk)
            return pk.error();
        if (auto inserted = execute(
                db,
                u"INSERT INTO balances (pk, id, org_pk, env, customer_pk, entity_pk, feature_pk,"
                " included_grant, prepaid_grant, remaining, usage, unlimited, overage_allowed,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, '0', '0', ?, ?, 0, 1, ?)"_s,
                {pk.value(), row->id, scope.orgPk, scope.envWord(), plan.call.customerPk,
                 plan.call.entityPk ? QVariant(*plan.call.entityPk) : QVariant(),
                 plan.call.featurePk, row->remaining.toString(), row->usage.toString(), nowMs});
            !inserted)
            return inserted.error();
    }
    Decimal deducted;
    for (const Decimal &part : plan.outcome.taken)
        deducted = deducted.plus(part).value_or(deducted);
    if (!deducted.isZero())
        for (const LimitWindow &window : plan.windows)
            if (auto counted = BillingControlStore::addWindowUsage(
                    db, dialect, plan.call.customerPk, plan.call.entityPk, plan.call.featurePk,
                    window.limit, window.start, deducted);
                !counted)
                return counted;
    for (const BillingControlStore::FiredAlert &fired : plan.alerts)
        if (auto recorded = BillingControlStore::recordAlert(db, keys, scope, plan.call.customerPk,
                                                             plan.call.entityPk, fired, nowMs);
            !recorded)
            return recorded;
    return api::Done{};
}

api::Result<qint64> insertEvent(const QSqlDatabase &db, KeyAllocator &keys, const Scope &scope,
                                const api::TrackTokensRequest &request, const Plan &plan,
                                const std::optional<QString> &idempotencyKey, qint64 nowMs)
{
    auto eventPk = keys.next(u"usage_events"_s);
    if (!eventPk)
        return eventPk.error();
    api::JsonWriter tokens;
    tokens.beginObject()
        .field("input_tokens"_L1, request.inputTokens)
        .field("output_tokens"_L1, request.outputTokens);
    for (const auto &[name, count] :
         {std::pair{"cache_read_tokens"_L1, request.cacheReadTokens},
          std::pair{"cache_write_tokens"_L1, request.cacheWriteTokens},
          std::pair{"reasoning_tokens"_L1, request.reasoningTokens},
          std::pair{"audio_input_tokens"_L1, request.audioInputTokens},
          std::pair{"audio_output_tokens"_L1, request.audioOutputTokens}})
        if (count.value_or(0) > 0)
            tokens.field(name, *count);
    tokens.endObject();
    if (auto inserted = execute(
            db,
            u"INSERT INTO usage_events (pk, org_pk, env, customer_pk, entity_pk, feature_pk,"
            " model_id, tokens, value, properties, timestamp, idempotency_key, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
            {eventPk.value(), scope.orgPk, scope.envWord(), plan.call.customerPk,
             plan.call.entityPk ? QVariant(*plan.call.entityPk) : QVariant(), plan.call.featurePk,
             request.modelId, QString::fromUtf8(tokens.take()), plan.call.priced.value.toString(),
             storedText(request.properties.value_or(api::JsonValue::object())),
             request.timestamp.value_or(nowMs),
             idempotencyKey ? QVariant(*idempotencyKey) : QVariant(), nowMs});
        !inserted) {
        // A concurrent call with the same key won the race.
        if (idempotencyKey)
            return duplicateKey(*idempotencyKey);
        return inserted.error();
    }
    return eventPk.value();
}

api::TrackTokensResponse answer(const api::TrackTokensRequest &request, const Plan &plan)
{
    api::TrackTokensResponse response;
    response.customerId = request.customerId;
    response.value = plan.call.priced.value;
    response.entityId = request.entityId;
    QList<api::BalanceRow> rows = plan.rows;
    if (plan.overageRow)
        rows.append(*plan.overageRow);
    for (const QString &id : plan.outcome.touched) {
        const auto row = std::find_if(rows.cbegin(), rows.cend(),
                                      [&](const api::BalanceRow &r) { return r.id == id; });
        response.deductions.append(
            {id, plan.call.featureId, row->planId, row->reset, plan.outcome.taken.value(id)});
    }
    api::BalanceSummary summary;
    summary.featureId = plan.call.featureId;
    for (const api::BalanceRow &row : std::as_const(rows))
        (void)summary.add(row); // sums of rows the engine keeps in range
    if (const std::optional<bool> allowed = plan.controls.overageAllowedFor(plan.call.featureId))
        summary.overageAllowed = *allowed;
    else
        summary.overageAllowed = summary.overageAllowed || plan.overageAllowed;
    response.balance = summary;
    response.balances.insert(plan.call.featureId, summary);
    return response;
}

} // namespace

api::Result<api::TrackTokensResponse>
TokenLedger::track(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                   const api::TrackTokensRequest &request,
                   const std::optional<QString> &idempotencyKey, qint64 nowMs,
                   const PriceCatalogue &catalogue)
{
    if (auto invalid = checkTimestamp(request, nowMs))
        return *invalid;
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto response = apply(db, dialect, scope, request, idempotencyKey, nowMs, catalogue);
    if (!response)
        return response;
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return response;
}

api::Result<api::Done> TokenLedger::check(const QSqlDatabase &db, const Scope &scope,
                                          const api::TrackTokensRequest &request, qint64 nowMs,
                                          const PriceCatalogue &catalogue)
{
    if (auto invalid = checkTimestamp(request, nowMs))
        return *invalid;
    auto call = CallResolver::resolve(db, scope, request, catalogue);
    if (!call)
        return call.error();
    // Only limits depend on the balances: without any, reading them (the
    // costly part) can wait for the queue.
    auto controls =
        BillingControlStore::inForce(db, call.value().customerPk, call.value().entityPk);
    if (!controls)
        return controls.error();
    if (controls.value().usageLimitsFor(call.value().featureId).isEmpty() &&
        controls.value().spendLimitsFor(call.value().featureId).isEmpty())
        return api::Done{};
    auto plan = planCall(db, scope, request, call.value(), nowMs);
    if (!plan)
        return plan.error();
    return api::Done{};
}

api::Result<api::CallQuote> TokenLedger::quote(const QSqlDatabase &db, const Scope &scope,
                                               const api::TrackTokensRequest &request,
                                               const PriceCatalogue &catalogue)
{
    return CallResolver::quote(db, scope, request, catalogue);
}

std::optional<ApiError> TokenLedger::checkTimestamp(const api::TrackTokensRequest &request,
                                                    qint64 nowMs)
{
    if (request.timestamp && *request.timestamp > nowMs + 5 * 60 * 1000)
        return ApiError::invalidInputs(u"timestamp"_s, u"must not be in the future"_s);
    return std::nullopt;
}

api::Result<api::TrackTokensResponse>
TokenLedger::apply(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                   const api::TrackTokensRequest &request,
                   const std::optional<QString> &idempotencyKey, qint64 nowMs,
                   const PriceCatalogue &catalogue)
{
    auto call = CallResolver::resolve(db, scope, request, catalogue);
    if (!call)
        return call.error();
    if (idempotencyKey) {
        auto seen = queryRows(
            db,
            u"SELECT pk FROM usage_events WHERE org_pk = ? AND env = ? AND idempotency_key = ?"_s,
            {scope.orgPk, scope.envWord(), *idempotencyKey});
        if (!seen)
            return seen.error();
        if (!seen.value().isEmpty())
            return duplicateKey(*idempotencyKey);
    }
    if (dialect == Dialect::Postgres) {
        // Concurrent calls for one customer queue on the customer's row: one
        // lock, so no two calls can take locks in opposite orders.
        if (auto locked = queryRows(db, u"SELECT pk FROM customers WHERE pk = ? FOR UPDATE"_s,
                                    {call.value().customerPk});
            !locked)
            return locked.error();
    }
    auto plan = planCall(db, scope, request, call.value(), nowMs);
    if (!plan)
        return plan.error();
    KeyAllocator keys(db, dialect);
    if (auto written = writeBalances(db, dialect, scope, plan.value(), nowMs, keys); !written)
        return written.error();
    if (auto event = insertEvent(db, keys, scope, request, plan.value(), idempotencyKey, nowMs);
        !event)
        return event.error();
    return answer(request, plan.value());
}

} // namespace md::engine
