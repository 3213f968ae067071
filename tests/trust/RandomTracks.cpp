// balances.track_tokens, sync, grouped and queued, and what the queue's
// worker and failed events do with the calls it stored.
#include "tests/trust/RandomRunner.h"

#include "services/api/WireCodec.h"
#include "services/engine/ledger/BalanceLedger.h"

#include <condition_variable>
#include <mutex>

namespace md::test::randomops {

using namespace Qt::StringLiterals;
using api::Int128;

void Runner::runTracks(const QList<Operation *> &ops)
{
    QList<Call> calls;
    for (Operation *op : ops) {
        Call call;
        call.op = op;
        auto decoded = api::decodeBody<api::TrackTokensRequest>(op->body);
        if (decoded)
            call.request = decoded.value();
        else
            call.answer = decoded.error();
        calls.append(call);
    }
    if (ops.size() == 1 && calls.first().request) {
        calls.first().answer =
            m_api.trackTokens(m_key, *calls.first().request, ops.first()->idempotencyKey);
    } else {
        // Handed over at once, as a server's workers do, so the writer
        // applies them as one batch (or a few) in this order.
        std::mutex mutex;
        std::condition_variable answered;
        qsizetype waiting = 0;
        for (Call &call : calls) {
            if (!call.request)
                continue;
            ++waiting;
            m_api.trackTokens(m_key, *call.request, call.op->idempotencyKey,
                              [&, slot = &call](api::Result<api::TrackTokensResponse> answer) {
                                  const std::lock_guard lock(mutex);
                                  slot->answer = std::move(answer);
                                  --waiting;
                                  answered.notify_all();
                              });
        }
        std::unique_lock lock(mutex);
        answered.wait(lock, [&] { return waiting == 0; });
    }
    for (Call &call : calls)
        checkTrack(call);
}

Runner::Refusals Runner::refusalsOf(const api::TrackTokensRequest &request,
                                    const std::optional<QString> &key) const
{
    Refusals refusals;
    const auto fault = [&](int status, const QString &code, const QString &why) {
        refusals.faults.append({status, code, why});
    };
    const ModelCustomer *customer = m_model.customer(request.customerId);
    if (!customer)
        fault(404, u"customer_not_found"_s, u"an unknown customer"_s);
    else if (request.entityId && !customer->entities.contains(*request.entityId))
        fault(404, u"entity_not_found"_s, u"an unknown entity"_s);
    if (!m_model.prices.contains(request.modelId))
        fault(400, u"invalid_request"_s, u"a model the catalogue lacks"_s);
    if (request.featureId && OtherFeatures.contains(*request.featureId))
        fault(400, u"invalid_request"_s, u"a feature that is no credit system"_s);
    else if (request.featureId && *request.featureId != Credits)
        fault(404, u"feature_not_found"_s, u"an unknown feature"_s);
    else if (!request.featureId && customer &&
             std::none_of(m_model.balances.cbegin(), m_model.balances.cend(),
                          [&](const ModelBalance &row) {
                              return row.customerId == customer->id && row.featureId == Credits;
                          }))
        fault(404, u"feature_not_found"_s, u"a customer without a credit system"_s);
    if (request.timestamp && *request.timestamp > now() + 5 * 60 * 1000)
        fault(400, u"invalid_inputs"_s, u"a timestamp in the future"_s);
    if (m_model.prices.contains(request.modelId) && !m_model.cost(request).priceable)
        fault(400, u"invalid_request"_s, u"too many tokens to price"_s);
    if (key && m_model.usedKeys.contains(*key))
        fault(409, u"duplicate_idempotency_key"_s, u"an Idempotency-Key already used"_s);
    const api::BillingControls controls = m_model.controlsFor(request.customerId, request.entityId);
    bool clamps = false;
    if (overflows(request)) {
        for (const api::SpendLimit &limit : controls.spendLimits)
            refusals.limited |= limit.enabled && (!limit.featureId || *limit.featureId == Credits);
    } else {
        for (const api::UsageLimit &limit : controls.usageLimits)
            clamps |= limit.enabled && limit.featureId == Credits;
        refusals.limited = clamps;
    }
    // Every row the call may draw on must still hold amounts afterwards
    // (docs/api.md, "Numbers"): else 400 invalid_inputs.
    const Cost cost = m_model.prices.contains(request.modelId) ? m_model.cost(request) : Cost();
    if (customer && cost.priceable && !cost.free) {
        QString near;
        for (const ModelBalance *row : m_model.activeRows(
                 request.customerId, request.entityId, request.featureId.value_or(Credits), now()))
            if (Model::nearLimit(*row, cost.value))
                near = u"%1 (remaining %2, used %3)"_s.arg(row->id, row->remaining.toString(),
                                                           row->usage.toString());
        // An async call reads its balances up front only when a limit
        // needs them (CallCheck::check); otherwise the queue refuses it,
        // keeping it among the failed calls, and nothing is stored.
        const QString feature = request.featureId.value_or(Credits);
        const bool checkedNow = !request.async || !controls.usageLimitsFor(feature).isEmpty() ||
                                !controls.spendLimitsFor(feature).isEmpty();
        if (!near.isEmpty() && clamps)
            refusals.nearLimit = true;
        else if (!near.isEmpty() && checkedNow)
            fault(400, u"invalid_inputs"_s,
                  u"a cost of %1 that takes %2 past the largest amount"_s.arg(cost.value.toString(),
                                                                              near));
    }
    return refusals;
}

void Runner::checkTrack(Call &call)
{
    Operation &op = *call.op;
    const api::Result<api::TrackTokensResponse> &answer = *call.answer;
    if (!answer) {
        op.answer = said(answer.error());
        if (!refusalIsSound(op, answer.error()) || !call.request)
            return;
        const Refusals expected = refusalsOf(*call.request, op.idempotencyKey);
        const auto &error = answer.error();
        // A limit may refuse first, whatever else is wrong.
        const bool byLimit = (expected.limited && (error.code == "usage_limit_reached"_L1 ||
                                                   error.code == "spend_limit_reached"_L1)) ||
                             (expected.nearLimit && error.code == "invalid_inputs"_L1);
        if (expected.faults.size() == 1 && !byLimit) {
            const auto &[status, code, why] = expected.faults.first();
            if (error.status != status || error.code != code)
                problem(op, u"%1 must be refused with %2 %3"_s.arg(why).arg(status).arg(code));
        } else if (expected.faults.isEmpty() && !byLimit) {
            problem(op, u"refused a call the model says must be applied"_s);
        }
        return;
    }
    const api::TrackTokensRequest &request = *call.request;
    const Refusals expected = refusalsOf(request, op.idempotencyKey);
    if (!expected.faults.isEmpty()) {
        op.answer =
            request.async ? u"204 (stored)"_s : QString::fromUtf8(api::toJsonText(answer.value()));
        problem(op, u"accepted a call the model says must be refused: %1"_s.arg(
                        std::get<2>(expected.faults.first())));
        return;
    }
    if (request.async) {
        op.answer = u"204 (stored)"_s;
        if (!answer.value().queued)
            problem(op, u"an async call was applied at once instead of stored"_s);
        m_pending.append({request.properties->value("op"_L1).numberText().toLongLong(), request,
                          op.idempotencyKey, m_model.cost(request)});
        return;
    }
    applyTrack(op, request, op.idempotencyKey, answer.value());
}

void Runner::applyTrack(Operation &op, const api::TrackTokensRequest &request,
                        const std::optional<QString> &key, const api::TrackTokensResponse &answer)
{
    const Cost cost = m_model.cost(request);
    const qint64 at = now();
    const bool overflow = overflows(request);
    QStringList taken;
    for (const api::Deduction &deduction : answer.deductions)
        taken.append(deduction.balanceId + u' ' + deduction.value.toString());
    op.answer = u"200 value %1, took %2"_s.arg(answer.value.toString(), taken.join(u", "_s));
    if (answer.value != cost.value)
        problem(op, u"valued at %1; the catalogue and markups make it %2"_s.arg(
                        answer.value.toString(), cost.value.toString()));
    const QList<const ModelBalance *> rows =
        m_model.activeRows(request.customerId, request.entityId, Credits, at);
    Int128 total = 0;
    Int128 available = 0;
    bool unlimited = false;
    for (const ModelBalance *row : rows) {
        available += row->available(at).raw();
        unlimited |= row->unlimited;
    }
    QList<api::Deduction> created;
    for (const api::Deduction &deduction : answer.deductions) {
        total += deduction.value.raw();
        if (deduction.value.raw() <= 0 || deduction.featureId != Credits)
            problem(op, u"a deduction of %1 from %2 of feature %3"_s.arg(
                            deduction.value.toString(), deduction.balanceId, deduction.featureId));
        const ModelBalance *row = m_model.balance(deduction.balanceId);
        if (!row) {
            created.append(deduction);
            continue;
        }
        if (!rows.contains(row))
            problem(op, u"took %1 from %2, which is not one of the call's active balances"
                        " (expired, another customer's, or another owner's)"_s.arg(
                            deduction.value.toString(), row->id));
        else if (!overflow && !row->unlimited && row->available(at) < deduction.value)
            problem(op, u"a capped call took %1 from %2, which had only %3 to give"_s.arg(
                            deduction.value.toString(), row->id, row->available(at).toString()));
    }
    const Decimal charged = Decimal::fromRaw(total);
    if (cost.free && !answer.deductions.isEmpty())
        problem(op, u"a free model's call took %1"_s.arg(charged.toString()));
    else if (!cost.free && overflow && charged != cost.value)
        problem(op, u"an overflowing call took %1 of its %2"_s.arg(charged.toString(),
                                                                   cost.value.toString()));
    else if (!cost.free && !overflow) {
        // Cap: what fits, and no more (docs/api.md, "Overage"); usage
        // limits may clamp it further.
        const Decimal fits =
            unlimited ? cost.value : std::min(cost.value, Decimal::fromRaw(available));
        bool clamped = false;
        for (const api::UsageLimit &limit :
             m_model.controlsFor(request.customerId, request.entityId).usageLimits)
            clamped |= limit.enabled && limit.featureId == Credits;
        if (charged > fits || (!clamped && charged != fits))
            problem(op, u"a capped call took %1; what fitted was %2"_s.arg(charged.toString(),
                                                                           fits.toString()));
    }
    if (!created.isEmpty() && !(overflow && rows.isEmpty() && created.size() == 1))
        problem(op, u"took from %1, a balance the model does not know, although %2"_s.arg(
                        created.first().balanceId, overflow ? u"the customer had active balances"_s
                                                            : u"the call was capped"_s));
    for (const api::Deduction &deduction : answer.deductions)
        if (ModelBalance *row = m_model.balance(deduction.balanceId);
            row && !Model::take(*row, deduction.value, at))
            problem(op, u"took %1 from %2, which held %3: past what an amount can hold, so the"
                        " call must be refused"_s.arg(deduction.value.toString(), row->id,
                                                      row->held().toString()));
    for (const api::Deduction &deduction : std::as_const(created)) {
        // Overflow with no active row: a new standalone row goes negative.
        ModelBalance row;
        row.id = deduction.balanceId;
        row.customerId = request.customerId;
        row.entityId = request.entityId;
        row.featureId = Credits;
        row.remaining = deduction.value.negated();
        row.usage = deduction.value;
        m_model.addBalance(row);
    }
    if (key)
        m_model.useKey(*key);
}

void Runner::drain(Operation &op)
{
    auto drained = m_engine.trackQueue().drain();
    if (!drained) {
        op.answer = said(drained.error());
        refusalIsSound(op, drained.error());
        return;
    }
    QSet<qint64> failed;
    api::PageRequest request;
    request.limit = 200;
    for (;;) {
        auto page = m_api.listFailedEvents(m_key, request);
        if (!page) {
            problem(op, u"track_queue.failed: "_s + said(page.error()));
            return;
        }
        for (const api::FailedEvent &event : page.value().list) {
            const qint64 tag =
                event.request.value("properties"_L1).value("op"_L1).numberText().toLongLong();
            failed.insert(tag);
            const bool pending = std::any_of(m_pending.cbegin(), m_pending.cend(),
                                             [&](const Pending &p) { return p.tag == tag; });
            if (pending && event.error.status != 402 && event.error.status != 409 &&
                event.error.status != 429 &&
                !(event.error.code == "invalid_inputs"_L1 && nearLimit(event.customerId)))
                problem(op, u"an accepted call (op %1) failed with %2: only limits, a repeated"
                            " Idempotency-Key and a balance near the largest amount can fail it"
                            " after acceptance"_s.arg(tag)
                                .arg(said(event.error)));
            if (!pending && !m_failed.contains(tag))
                problem(op,
                        u"failed event %1 (op %2) is no call the model saw accepted"_s.arg(event.id)
                            .arg(tag));
        }
        if (!page.value().hasMore)
            break;
        request.startCursor = *page.value().nextCursor;
    }
    QMap<QString, QList<Pending>> applied;
    for (const Pending &call : std::as_const(m_pending)) {
        if (failed.contains(call.tag)) {
            m_failed.insert(call.tag, call);
            continue;
        }
        applied[call.request.customerId].append(call);
        if (call.key)
            m_model.useKey(*call.key);
    }
    op.answer = u"applied %1 of %2 stored calls"_s.arg(drained.value()).arg(m_pending.size());
    m_pending.clear();
    for (auto it = applied.cbegin(); it != applied.cend(); ++it)
        settle(op, it.key(), it.value());
}

bool Runner::nearLimit(const QString &customerId) const
{
    Int128 costs = 0;
    for (const Pending &call : m_pending)
        if (call.request.customerId == customerId && !call.cost.free)
            costs += call.cost.value.raw();
    for (const ModelBalance &row : m_model.balances)
        if (row.customerId == customerId && row.featureId == Credits &&
            Model::nearLimit(row, Decimal::fromRaw(std::min(costs, Decimal::MaxRaw))))
            return true;
    return false;
}

// A customer's credit balances after its queued calls were applied: how
// they split among the rows is the engine's (no answer says), but what the
// rows lost together is bounded by what the calls cost, and equals it when
// every call overflowed.
void Runner::settle(const Operation &op, const QString &customerId, const QList<Pending> &applied)
{
    Int128 charged = 0;
    bool exact = true;
    for (const Pending &call : applied) {
        charged += call.cost.free ? 0 : call.cost.value.raw();
        exact &= overflows(call.request);
    }
    const qint64 at = now();
    Int128 before = 0;
    for (const ModelBalance &row : std::as_const(m_model.balances))
        if (row.customerId == customerId && row.featureId == Credits) {
            before += row.held().raw();
            exact &= !row.unlimited;
        }
    Int128 after = 0;
    const QList<api::BalanceRow> rows = list(m_key, customerId, Credits);
    for (const api::BalanceRow &row : rows) {
        after += engine::BalanceLedger::held(row).raw();
        ModelBalance *known = m_model.balance(row.id);
        if (known && m_model.expired(*known, at) &&
            known->held() != engine::BalanceLedger::held(row))
            problem(op, u"a queued call changed %1, which had expired"_s.arg(row.id));
        if (!known && row.planId)
            problem(op, u"plan balance %1 appeared while queued calls were applied"_s.arg(row.id));
        if (!known) {
            ModelBalance created;
            created.id = row.id;
            created.customerId = customerId;
            created.entityId = row.entityId;
            created.featureId = Credits;
            m_model.addBalance(created);
            known = m_model.balance(row.id);
        }
        known->remaining = row.remaining;
        known->usage = row.usage;
        known->rollovers.clear();
        for (const api::Rollover &rollover : row.rollovers)
            known->rollovers.append({rollover.balance, rollover.expiresAt});
    }
    const Int128 taken = before - after;
    if (taken < 0 || taken > charged || (exact && taken != charged))
        problem(op, u"%1's queued calls cost %2 and took %3 from its credit balances"_s.arg(
                        customerId, Decimal::fromRaw(charged).toString(),
                        Decimal::fromRaw(taken).toString()));
}

void Runner::failedEvents(Operation &op, OperationMaker &maker)
{
    const bool retry = op.route == "track_queue.retry"_L1;
    api::PageRequest request;
    request.limit = 200;
    auto page = m_api.listFailedEvents(m_key, request);
    if (!page) {
        problem(op, u"track_queue.failed: "_s + said(page.error()));
        return;
    }
    QHash<QString, qint64> tags;
    api::FailedEventIds ids;
    for (const api::FailedEvent &event : page.value().list) {
        tags.insert(event.id,
                    event.request.value("properties"_L1).value("op"_L1).numberText().toLongLong());
        if (maker.chance(50))
            ids.ids.append(event.id);
    }
    if (ids.ids.isEmpty() || maker.chance(20))
        ids.ids.append(u"tq_999999999"_s);
    op.body = api::toJsonText(ids);
    auto decoded = api::decodeBody<api::FailedEventIds>(op.body);
    auto answer = decoded ? (retry ? m_api.retryFailedEvents(m_key, decoded.value())
                                   : m_api.discardFailedEvents(m_key, decoded.value()))
                          : api::Result<api::FailedEventOutcome>(decoded.error());
    if (!answer) {
        op.answer = said(answer.error());
        refusalIsSound(op, answer.error());
        problem(op, u"refused ids it had just listed"_s);
        return;
    }
    op.answer = u"200 done [%1], not found [%2]"_s.arg(answer.value().done.join(u", "_s),
                                                       answer.value().notFound.join(u", "_s));
    for (const QString &id : std::as_const(ids.ids)) {
        const bool listed = tags.contains(id);
        if (listed != answer.value().done.contains(id) ||
            listed == answer.value().notFound.contains(id))
            problem(op, u"%1 was %2 listed as failed, but the answer says otherwise"_s.arg(
                            id, listed ? QString() : u"not"_s));
        if (!listed || !m_failed.contains(tags.value(id)))
            continue;
        const Pending call = m_failed.take(tags.value(id));
        if (retry)
            m_pending.append(call);
    }
}

} // namespace md::test::randomops
