#include "services/engine/TrackBatch.h"

#include "services/engine/BalanceLister.h"
#include "services/engine/CallPlan.h"
#include "services/engine/PostgresArray.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"

#include <map>
#include <set>

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

// Balance rows, controls and limit windows are owned by a customer, or by one
// of its entities (-1: the customer itself).
using Owner = TrackCache::Owner;
using FeatureOfOwner = TrackCache::FeatureOfOwner;

Owner ownerOf(const ResolvedCall &call)
{
    return {call.customerPk, call.entityPk.value_or(-1)};
}

FeatureOfOwner featureOf(const ResolvedCall &call)
{
    return {call.customerPk, call.entityPk.value_or(-1), call.featurePk};
}

QString tokensText(const api::TrackTokensRequest &request)
{
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
    return QString::fromUtf8(tokens.take());
}

QVariant nullable(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

} // namespace

struct TrackBatch::State
{
    QSqlDatabase db;
    Dialect dialect;
    qint64 nowMs;
    TrackCache *cache;
    KeyAllocator keys;

    using Rows = FeatureRows;
    std::map<FeatureOfOwner, Rows> rows; // the batch's view
    std::map<Owner, api::BillingControls> controls;
    struct Window
    {
        LimitWindow window;
        Decimal added; // by this batch, written at flush
    };
    std::map<FeatureOfOwner, QList<Window>> windows;
    std::set<QString> changed;  // ids of stored rows the batch changed
    std::set<QString> created;  // ids of rows the batch made (overflow with no row)
    std::set<QString> keysSeen; // org/environment/Idempotency-Key

    struct Event
    {
        Scope scope;
        ResolvedCall call;
        api::TrackTokensRequest request;
        std::optional<QString> key;
    };
    QList<Event> events;
    struct Alert
    {
        Scope scope;
        ResolvedCall call;
        BillingControlStore::FiredAlert fired;
    };
    QList<Alert> alerts;
    QVariantList changedRows; // PostgreSQL: ids, remaining and usage, as arrays

    State(const QSqlDatabase &database, Dialect d, qint64 now, TrackCache *kept)
        : db(database)
        , dialect(d)
        , nowMs(now)
        , cache(kept)
        , keys(database, d)
    {}

    api::Result<Rows *> rowsOf(const Scope &scope, const api::TrackTokensRequest &request,
                               const ResolvedCall &call);
    api::Result<const api::BillingControls *> controlsOf(const ResolvedCall &call);
    api::Result<QList<Window> *> windowsOf(const ResolvedCall &call,
                                           const api::BillingControls &controls);
    api::Result<bool> seenBefore(const Scope &scope, const QString &key) const;
    api::Result<qint64> firstExpiry(const Scope &scope, const ResolvedCall &call) const;

    api::Result<api::Done> writeRows();
    api::Result<api::Done> writeEvents();
    api::Result<api::Done> writeLimits();
};

auto TrackBatch::State::rowsOf(const Scope &scope, const api::TrackTokensRequest &request,
                               const ResolvedCall &call) -> api::Result<Rows *>
{
    const auto found = rows.find(featureOf(call));
    if (found != rows.end())
        return &found->second;
    if (cache) {
        const auto kept = cache->m_rows.find(featureOf(call));
        if (kept != cache->m_rows.end() && nowMs < kept->second.validUntil)
            return &rows.emplace(featureOf(call), kept->second).first->second;
    }
    api::ListBalancesRequest list;
    list.customerId = request.customerId;
    list.entityId = request.entityId;
    list.featureId = call.featureId;
    list.limit = api::ListBalancesRequest::MaxLimit;
    Rows read{{}, scope, call.entityPk, call.featurePk};
    for (;;) {
        auto page = BalanceLister::list(db, scope, list, nowMs);
        if (!page)
            return page.error();
        for (const api::BalanceRow &row : page.value().list)
            if (request.entityId || !row.entityId) // the customer's own rows, or the entity's
                read.rows.append(row);
        if (!page.value().hasMore)
            break;
        list.startCursor = *page.value().nextCursor;
    }
    Deducter::order(read.rows);
    if (cache) {
        auto expiry = firstExpiry(scope, call);
        if (!expiry)
            return expiry.error();
        read.validUntil = expiry.value();
    }
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

api::Result<qint64> TrackBatch::State::firstExpiry(const Scope &scope,
                                                   const ResolvedCall &call) const
{
    const QString rowsOfCall = u" FROM balances b%1 WHERE b.org_pk = ? AND b.env = ?"
                               " AND b.customer_pk = ? AND b.feature_pk = ?"
                               " AND COALESCE(b.entity_pk, -1) = ?"_s;
    const QVariantList binds{
        scope.orgPk, scope.envWord(), call.customerPk, call.featurePk, call.entityPk.value_or(-1),
        nowMs};
    auto first = queryRows(
        db,
        u"SELECT MIN(t) FROM (SELECT b.expires_at AS t"_s + rowsOfCall.arg(QString()) +
            u" AND b.expires_at > ? UNION ALL SELECT cp.expires_at"_s +
            rowsOfCall.arg(u" JOIN customer_products cp ON cp.pk = b.customer_product_pk"_s) +
            u" AND cp.expires_at > ?) expiries"_s,
        binds + binds);
    if (!first)
        return first.error();
    const QVariant &value = first.value().first().first();
    return value.isNull() ? std::numeric_limits<qint64>::max() : value.toLongLong();
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

api::Result<api::Done> TrackBatch::lockCustomers(QList<qint64> customerPks)
{
    if (d->dialect != Dialect::Postgres || customerPks.isEmpty())
        return api::Done{};
    std::sort(customerPks.begin(), customerPks.end());
    customerPks.erase(std::unique(customerPks.begin(), customerPks.end()), customerPks.end());
    // One statement whatever the count; the sort below the lock sets its order.
    auto locked = queryRows(
        d->db, u"SELECT pk FROM customers WHERE pk = ANY(?::bigint[]) ORDER BY pk FOR UPDATE"_s,
        {PostgresArray::of(customerPks)});
    if (!locked)
        return locked.error();
    return api::Done{};
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
        for (const FeatureOfOwner &key : wanted)
            Deducter::order(d->rows[key].rows);
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
    auto rows = d->rowsOf(scope, request, call);
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
    if (!plan)
        return plan.error();

    // Accepted: the batch's view moves on.
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
            window.window.used =
                window.window.used.plus(plan.value().deducted).value_or(window.window.used);
            window.added = window.added.plus(plan.value().deducted).value_or(window.added);
        }
    for (const BillingControlStore::FiredAlert &fired : std::as_const(plan.value().alerts))
        d->alerts.append({scope, call, fired});
    if (idempotencyKey)
        d->keysSeen.insert(scopedKey);
    d->events.append({scope, call, request, idempotencyKey});
    return plan.value().answer(request, call, *controls.value());
}

api::Result<api::Done> TrackBatch::flush()
{
    if (auto written = d->writeRows(); !written)
        return written;
    if (auto written = d->writeEvents(); !written) {
        // A concurrent call with the same key won the race.
        if (d->events.size() == 1 && d->events.first().key)
            return duplicateKey(*d->events.first().key);
        return written;
    }
    return d->writeLimits();
}

api::Result<api::Done> TrackBatch::State::writeRows()
{
    QStringList ids;
    QStringList remaining;
    QStringList usage;
    for (const auto &[key, held] : rows) {
        for (const api::BalanceRow &row : held.rows) {
            if (created.contains(row.id)) {
                auto pk = keys.next(u"balances"_s);
                if (!pk)
                    return pk.error();
                if (auto inserted = execute(
                        db,
                        u"INSERT INTO balances (pk, id, org_pk, env, customer_pk, entity_pk,"
                        " feature_pk, included_grant, prepaid_grant, remaining, usage, unlimited,"
                        " overage_allowed, created_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, '0', '0', ?, ?, 0, 1, ?)"_s,
                        {pk.value(), row.id, held.scope.orgPk, held.scope.envWord(),
                         std::get<0>(key), nullable(held.entityPk), held.featurePk,
                         row.remaining.toString(), row.usage.toString(), row.createdAt});
                    !inserted)
                    return inserted;
                continue;
            }
            if (!changed.contains(row.id))
                continue;
            ids.append(row.id);
            remaining.append(row.remaining.toString());
            usage.append(row.usage.toString());
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
                if (auto updated = execute(
                        db, u"UPDATE rollovers SET balance = ? WHERE pk = ?"_s,
                        {row.rollovers.at(i).balance.toString(), stored.value().at(i).first()});
                    !updated)
                    return updated;
        }
    }
    if (dialect == Dialect::Postgres) { // written with the events, in one statement
        changedRows = {PostgresArray::of(ids), PostgresArray::of(remaining),
                       PostgresArray::of(usage)};
        return api::Done{};
    }
    for (qsizetype i = 0; i < ids.size(); ++i)
        if (auto updated =
                execute(db, u"UPDATE balances SET remaining = ?, usage = ? WHERE id = ?"_s,
                        {remaining.at(i), usage.at(i), ids.at(i)});
            !updated)
            return updated;
    return api::Done{};
}

api::Result<api::Done> TrackBatch::State::writeEvents()
{
    if (events.isEmpty())
        return api::Done{};
    const int columns = 13;
    QList<QVariantList> values(columns);
    for (const Event &event : std::as_const(events)) {
        qint64 pk = 0; // PostgreSQL: from the sequence, in the statement
        if (dialect == Dialect::Sqlite) {
            auto next = keys.next(u"usage_events"_s);
            if (!next)
                return next.error();
            pk = next.value();
        }
        const QVariantList row{
            pk,
            event.scope.orgPk,
            event.scope.envWord(),
            event.call.customerPk,
            nullable(event.call.entityPk),
            event.call.featurePk,
            event.request.modelId,
            tokensText(event.request),
            event.call.priced.value.toString(),
            storedText(event.request.properties.value_or(api::JsonValue::object())),
            event.request.timestamp.value_or(nowMs),
            event.key ? QVariant(*event.key) : QVariant(),
            nowMs};
        for (int c = 0; c < columns; ++c)
            values[c].append(row.at(c));
    }
    const QString columnList =
        u"pk, org_pk, env, customer_pk, entity_pk, feature_pk, model_id, tokens, value,"
        " properties, timestamp, idempotency_key, created_at"_s;
    if (dialect == Dialect::Postgres) {
        // One round trip for every changed balance and every event: the
        // UPDATE runs as a data-modifying WITH, keys come from the sequence.
        QVariantList binds = changedRows;
        for (qsizetype c = 1; c < values.size(); ++c)
            binds.append(PostgresArray::of(values.at(c)));
        return execute(
            db,
            u"WITH changed AS (UPDATE balances SET remaining = v.remaining, usage = v.usage"
            " FROM unnest(?::text[], ?::text[], ?::text[]) AS v(id, remaining, usage)"
            " WHERE balances.id = v.id RETURNING 1)"
            " INSERT INTO usage_events (%1) SELECT nextval('usage_events_pk_seq'), e.*"
            " FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[],"
            " ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[])"
            " AS e"_s.arg(columnList),
            binds);
    }
    const QString insert = u"INSERT INTO usage_events (%1)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s.arg(columnList);
    for (qsizetype e = 0; e < events.size(); ++e) {
        QVariantList row;
        for (int c = 0; c < columns; ++c)
            row.append(values.at(c).at(e));
        if (auto inserted = execute(db, insert, row); !inserted)
            return inserted;
    }
    return api::Done{};
}

api::Result<api::Done> TrackBatch::State::writeLimits()
{
    for (const auto &[key, each] : windows)
        for (const Window &window : each)
            if (!window.added.isZero())
                if (auto counted = BillingControlStore::addWindowUsage(
                        db, dialect, std::get<0>(key),
                        std::get<1>(key) < 0 ? std::nullopt : std::optional(std::get<1>(key)),
                        std::get<2>(key), window.window.limit, window.window.start, window.added);
                    !counted)
                    return counted;
    for (const Alert &alert : std::as_const(alerts))
        if (auto recorded =
                BillingControlStore::recordAlert(db, keys, alert.scope, alert.call.customerPk,
                                                 alert.call.entityPk, alert.fired, nowMs);
            !recorded)
            return recorded;
    return api::Done{};
}

} // namespace md::engine
