#include "services/engine/track/TrackBatch.h"

#include "services/engine/balances/BalanceLister.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/track/CallPlan.h"
#include "services/engine/track/TrackBatchState.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;
using trackbatch::duplicateKey;
using trackbatch::featureOf;
using trackbatch::FeatureOfOwner;
using trackbatch::Owner;
using trackbatch::ownerOf;

auto TrackBatch::State::rowsOf(const Scope &scope, const ResolvedCall &call) -> api::Result<Rows *>
{
    const auto found = rows.find(featureOf(call));
    if (found != rows.end())
        return &found->second;
    if (cache) {
        const auto kept = cache->m_rows.find(featureOf(call));
        if (kept != cache->m_rows.end() && nowMs < kept->second.validUntil)
            return &rows.emplace(featureOf(call), kept->second).first->second;
    }
    auto held =
        BalanceLister::held(db, scope, call.customerPk, call.entityPk, call.featurePk, nowMs);
    if (!held)
        return held.error();
    Rows read{std::move(held.value().rows), scope, call.entityPk, call.featurePk};
    read.validUntil = held.value().nextExpiry;
    patchClocked(read.rows);
    Deducter::order(read.rows);
    return &rows.emplace(featureOf(call), std::move(read)).first->second;
}

auto TrackBatch::State::controlsOf(const ResolvedCall &call)
    -> api::Result<const api::BillingControls *>
{
    const auto found = controls.find(ownerOf(call));
    if (found != controls.end())
        return &found->second;
    if (cache) {
        const auto kept = cache->m_controls.find(ownerOf(call));
        if (kept != cache->m_controls.end())
            return &controls.emplace(ownerOf(call), kept->second).first->second;
    }
    auto inForce = BillingControlStore::inForce(db, call.customerPk, call.entityPk);
    if (!inForce)
        return inForce.error();
    return &controls.emplace(ownerOf(call), inForce.value()).first->second;
}

auto TrackBatch::State::windowsOf(const ResolvedCall &call, const api::BillingControls &inForce)
    -> api::Result<QList<Window> *>
{
    const auto found = windows.find(featureOf(call));
    if (found != windows.end())
        return &found->second;
    auto read = CallLimits::windows(db, call.customerPk, call.entityPk, call.featurePk, inForce,
                                    call.featureId, nowMs);
    if (!read)
        return read.error();
    QList<Window> each;
    for (const LimitWindow &window : std::as_const(read.value()))
        each.append({window, Decimal()});
    return &windows.emplace(featureOf(call), std::move(each)).first->second;
}

api::Result<bool> TrackBatch::State::seenBefore(const Scope &scope, const QString &key) const
{
    auto seen = queryRows(
        db, u"SELECT pk FROM usage_events WHERE org_pk = ? AND env = ? AND idempotency_key = ?"_s,
        {scope.orgPk, scope.envWord(), key});
    if (!seen)
        return seen.error();
    return !seen.value().isEmpty();
}

void TrackBatch::State::noteLedger(const Scope &scope, const ResolvedCall &call,
                                   const CallPlan &plan, const QList<api::BalanceRow> &before)
{
    const auto find = [](const QList<api::BalanceRow> &held,
                         const QString &id) -> const api::BalanceRow * {
        for (const api::BalanceRow &row : held)
            if (row.id == id)
                return &row;
        return nullptr;
    };
    for (const QString &id : plan.outcome.touched) {
        const api::BalanceRow *after = find(plan.rows, id);
        if (!after && plan.overageRow && plan.overageRow->id == id)
            after = &*plan.overageRow;
        if (!after)
            continue;
        ledger.append(BalanceLedger::change(scope, u"usage"_s, call.customerPk, call.featurePk,
                                            find(before, id), *after));
        ledgerEvents.append(events.size());
    }
}

api::Result<api::Done> TrackCache::validate(const QSqlDatabase &db)
{
    auto version = queryRows(db, QStringLiteral("PRAGMA data_version"), {});
    if (!version)
        return version.error();
    const qint64 now = version.value().first().first().toLongLong();
    if (m_dataVersion != now)
        clear();
    m_dataVersion = now;
    return api::Done{};
}

void TrackCache::clear()
{
    m_dataVersion.reset();
    m_rows.clear();
    m_controls.clear();
}

TrackBatch::TrackBatch(const QSqlDatabase &db, Dialect dialect, qint64 nowMs, TrackCache *cache)
    : d(std::make_unique<State>(db, dialect, nowMs, cache))
{}

void TrackBatch::keep()
{
    if (!d->cache)
        return;
    for (auto &[key, held] : d->rows)
        d->cache->m_rows.insert_or_assign(key, std::move(held));
    for (auto &[key, held] : d->controls)
        d->cache->m_controls.insert_or_assign(key, std::move(held));
}

TrackBatch::~TrackBatch() = default;

api::Result<api::Done> TrackBatch::lockCustomers(QList<qint64> customerPks,
                                                 const QList<qint64> &featurePks)
{
    if (d->dialect != Dialect::Postgres || customerPks.isEmpty())
        return api::Done{};
    std::sort(customerPks.begin(), customerPks.end());
    customerPks.erase(std::unique(customerPks.begin(), customerPks.end()), customerPks.end());
    // One statement whatever the count; the sort below the lock sets its order.
    // Each customer's due rows are looked for through the customer, row by
    // row (LIMIT keeps the look correlated: hashed, it read every due row).
    auto locked = queryRows(
        d->db,
        u"SELECT c.pk, (SELECT 1 FROM balances b WHERE b.org_pk = c.org_pk AND b.env = c.env"
        " AND b.customer_pk = c.pk AND "_s +
            ClockApplier::dueThroughCustomer(u"b"_s) +
            u" AND b.feature_pk = ANY(?::bigint[]) LIMIT 1) IS NOT NULL FROM customers c"
            " WHERE c.pk = ANY(?::bigint[]) ORDER BY c.pk FOR UPDATE OF c"_s,
        {d->nowMs, PostgresArray::of(featurePks), PostgresArray::of(customerPks)});
    if (!locked)
        return locked.error();
    for (const QVariantList &row : std::as_const(locked.value()))
        if (row.at(1).toBool())
            d->dueCustomers.insert(row.at(0).toLongLong());
    return api::Done{};
}

api::Result<api::Done> TrackBatch::catchUp(const Scope &scope, const QList<ResolvedCall> &calls)
{
    Scope clock = scope;
    clock.keyPk = 0; // the clock's doing, not the calling key's
    // The rows the calls draw on: their customers' balances of their features.
    ClockApplier::Due due{clock, {}, {}, {}, {}};
    for (const ResolvedCall &call : calls) {
        if (d->dialect == Dialect::Postgres && !d->dueCustomers.contains(call.customerPk))
            continue;
        due.customerPks.append(call.customerPk);
        if (!due.featurePks.contains(call.featurePk))
            due.featurePks.append(call.featurePk);
    }
    if (due.customerPks.isEmpty())
        return api::Done{};
    // One statement reads them; their writes go with the calls' (flush).
    auto moved = ClockApplier::advance(d->db, d->dialect, due, d->nowMs, d->clockLedger);
    if (!moved)
        return moved.error();
    d->clockBilled += moved.value().billed;
    for (MovedBalances::Balance &balance : moved.value().list)
        d->clocked.insert_or_assign(balance.id, std::move(balance));
    // The rows kept for these customers, this batch's calls' or not, as
    // flush() will leave them (a failed batch drops the cache).
    if (d->cache && !moved.value().list.isEmpty())
        for (const qint64 customer : std::as_const(due.customerPks))
            for (auto kept = d->cache->m_rows.lower_bound(
                     {customer, std::numeric_limits<qint64>::min(), 0});
                 kept != d->cache->m_rows.end() && std::get<0>(kept->first) == customer; ++kept) {
                d->patchClocked(kept->second.rows);
                Deducter::order(kept->second.rows);
            }
    return api::Done{};
}

void TrackBatch::State::noteRefusal(const Scope &scope, const api::TrackTokensRequest &request,
                                    const ResolvedCall &call, const api::ApiError &refusal,
                                    const QList<LimitWindow> &limits,
                                    const QList<api::BalanceRow> &read)
{
    if (refusal.code == "usage_limit_reached"_L1) {
        // The window with no room left: CallLimits::room refuses at the first.
        for (const LimitWindow &window : limits)
            if (!(window.used < window.limit.limit)) {
                reached.append({scope, call, request.customerId, request.entityId, u"usage"_s,
                                window.start, refusal});
                return;
            }
    } else if (refusal.code == "spend_limit_reached"_L1) {
        // A spend limit holds for the billing period: until the next reset.
        qint64 period = 0;
        for (const api::BalanceRow &row : read)
            if (row.reset && row.reset->resetsAt)
                period = period ? std::min(period, *row.reset->resetsAt) : *row.reset->resetsAt;
        reached.append(
            {scope, call, request.customerId, request.entityId, u"spend"_s, period, refusal});
    }
}

void TrackBatch::State::patchClocked(QList<api::BalanceRow> &read) const
{
    if (clocked.empty())
        return;
    for (api::BalanceRow &row : read)
        if (const auto found = clocked.find(row.id); found != clocked.end()) {
            const ClockedBalance &after = found->second.after;
            row.remaining = after.remaining;
            row.usage = after.usage;
            if (row.reset)
                row.reset->resetsAt = after.resetsAt;
            row.rollovers = after.rollovers;
        }
    read.removeIf([this](const api::BalanceRow &row) {
        const auto found = clocked.find(row.id);
        return found != clocked.end() && found->second.after.expired;
    });
}

api::Result<api::Done> TrackBatch::prefetch(const Scope &scope, const QList<ResolvedCall> &calls)
{
    if (d->dialect != Dialect::Postgres)
        return api::Done{};
    std::set<FeatureOfOwner> wanted;
    std::set<Owner> owners;
    QList<qint64> customers;
    QList<qint64> features;
    for (const ResolvedCall &call : calls) {
        if (!d->rows.contains(featureOf(call)) && wanted.insert(featureOf(call)).second) {
            customers.append(call.customerPk);
            features.append(call.featurePk);
        }
        if (!d->controls.contains(ownerOf(call)))
            owners.insert(ownerOf(call));
    }
    if (!wanted.empty()) {
        auto read = BalanceLister::activeRows(d->db, scope, customers, features, d->nowMs);
        if (!read)
            return read.error();
        for (const FeatureOfOwner &key : wanted)
            d->rows.emplace(key, State::Rows{{},
                                             scope,
                                             std::get<1>(key) < 0 ? std::nullopt
                                                                  : std::optional(std::get<1>(key)),
                                             std::get<2>(key)});
        for (BalanceLister::Owned &owned : read.value()) {
            const auto held =
                d->rows.find({owned.customerPk, owned.entityPk.value_or(-1), owned.featurePk});
            if (held != d->rows.end() && wanted.contains(held->first))
                held->second.rows.append(std::move(owned.row));
        }
        for (const FeatureOfOwner &key : wanted) {
            d->patchClocked(d->rows[key].rows);
            Deducter::order(d->rows[key].rows);
        }
    }
    if (!owners.empty()) {
        auto inForce = BillingControlStore::inForceFor(d->db, {owners.begin(), owners.end()});
        if (!inForce)
            return inForce.error();
        d->controls.merge(inForce.value());
    }
    return api::Done{};
}

api::Result<api::TrackTokensResponse> TrackBatch::add(const Scope &scope,
                                                      const api::TrackTokensRequest &request,
                                                      const ResolvedCall &call,
                                                      const std::optional<QString> &idempotencyKey)
{
    QString scopedKey;
    if (idempotencyKey) {
        scopedKey = u"%1/%2/%3"_s.arg(scope.orgPk).arg(scope.envWord(), *idempotencyKey);
        if (d->keysSeen.contains(scopedKey))
            return duplicateKey(*idempotencyKey);
        auto seen = d->seenBefore(scope, *idempotencyKey);
        if (!seen)
            return seen.error();
        if (seen.value())
            return duplicateKey(*idempotencyKey);
    }
    auto rows = d->rowsOf(scope, call);
    if (!rows)
        return rows.error();
    auto controls = d->controlsOf(call);
    if (!controls)
        return controls.error();
    auto windows = d->windowsOf(call, *controls.value());
    if (!windows)
        return windows.error();
    QList<LimitWindow> limits;
    for (const State::Window &window : std::as_const(*windows.value()))
        limits.append(window.window);
    auto plan =
        CallPlan::make(request, call, rows.value()->rows, *controls.value(), limits, d->nowMs);
    if (!plan) {
        d->noteRefusal(scope, request, call, plan.error(), limits, rows.value()->rows);
        return plan.error();
    }

    // Accepted: the batch's view moves on.
    d->noteLedger(scope, call, plan.value(), rows.value()->rows);
    rows.value()->rows = plan.value().rows;
    for (const QString &id : std::as_const(plan.value().outcome.touched))
        if (!d->created.contains(id))
            d->changed.insert(id);
    if (const auto &row = plan.value().overageRow) {
        d->changed.erase(row->id);
        d->created.insert(row->id);
        rows.value()->rows.append(*row);
        Deducter::order(rows.value()->rows);
    }
    if (!plan.value().deducted.isZero())
        for (State::Window &window : *windows.value()) {
            // Usage given back comes off a window down to zero, never below:
            // what an earlier window counted cannot make room in this one.
            const Decimal was = window.window.used;
            const Decimal now = std::max(Decimal(), was.plus(plan.value().deducted).value_or(was));
            window.window.used = now;
            window.added = window.added.plus(*now.minus(was)).value_or(window.added);
        }
    for (const BillingControlStore::FiredAlert &fired : std::as_const(plan.value().alerts))
        d->alerts.append({scope, call, fired});
    if (idempotencyKey)
        d->keysSeen.insert(scopedKey);
    d->events.append({scope, call, request, idempotencyKey});
    return plan.value().answer(request, call, *controls.value());
}

api::Result<std::optional<api::BalanceSummary>> TrackBatch::summary(const Scope &scope,
                                                                    const ResolvedCall &call)
{
    auto rows = d->rowsOf(scope, call);
    if (!rows)
        return rows.error();
    if (rows.value()->rows.isEmpty())
        return std::optional<api::BalanceSummary>();
    auto controls = d->controlsOf(call);
    if (!controls)
        return controls.error();
    api::BalanceSummary summary;
    summary.featureId = call.featureId;
    for (const api::BalanceRow &row : std::as_const(rows.value()->rows))
        if (!summary.add(row))
            return api::ApiError::internal(
                u"the balances of %1 exceed the supported range"_s.arg(call.featureId));
    summary.overageAllowed =
        controls.value()->overageAllowedFor(call.featureId).value_or(summary.overageAllowed);
    return std::optional(summary);
}

} // namespace md::engine
