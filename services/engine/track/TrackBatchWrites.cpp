#include "services/engine/clock/ClockEvents.h"
#include "services/engine/ledger/UsageDays.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/track/TrackBatchState.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <set>

namespace md::engine {

using namespace Qt::StringLiterals;
using trackbatch::duplicateKey;

namespace {

QString tokensText(const api::TrackTokensRequest &request)
{
    if (request.value) // balances.track: no tokens
        return u"{}"_s;
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

// Every token of a model call, in all its pools (what tokensText stores).
qint64 tokenCount(const api::TrackTokensRequest &request)
{
    if (request.value)
        return 0;
    qint64 count = request.inputTokens + request.outputTokens;
    for (const auto &pool :
         {request.cacheReadTokens, request.cacheWriteTokens, request.reasoningTokens,
          request.audioInputTokens, request.audioOutputTokens})
        count += std::max<qint64>(pool.value_or(0), 0);
    return count;
}

// The route a call's ledger entries name: the one it came through.
QString routeOf(const api::TrackTokensRequest &request)
{
    return request.value ? u"balances.track"_s : u"balances.track_tokens"_s;
}

} // namespace

api::Result<api::Done> TrackBatch::flush()
{
    if (auto written = d->writeClocked(); !written)
        return written;
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
            if (!changed.contains(row.id) || clocked.contains(row.id))
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

api::Result<api::Done> TrackBatch::State::writeClocked()
{
    if (clocked.empty())
        return api::Done{};
    // Told to the webhooks on either database, in the batch's transaction.
    if (auto told = ClockEvents::tell(db, dialect, clockLedger, nowMs, &keys); !told)
        return told;
    if (auto billed = ResetCharges::write(db, clockBilled, keys); !billed)
        return billed;
    if (dialect == Dialect::Postgres) // written with the events
        return api::Done{};
    if (auto moved = clockedAsLeft().write(db, dialect, keys); !moved)
        return moved;
    return BalanceLedger::write(db, dialect, u"clock"_s, nowMs, clockLedger);
}

MovedBalances TrackBatch::State::clockedAsLeft()
{
    MovedBalances moved;
    std::map<QString, const api::BalanceRow *> left;
    for (const auto &[key, held] : rows)
        for (const api::BalanceRow &row : held.rows)
            if (clocked.contains(row.id))
                left.emplace(row.id, &row);
    for (const auto &[id, balance] : clocked) {
        MovedBalances::Balance written = balance;
        if (const auto found = left.find(id); found != left.end()) {
            const api::BalanceRow &row = *found->second;
            written.after.remaining = row.remaining;
            written.after.usage = row.usage;
            if (row.rollovers != written.after.rollovers) { // a call drew on them
                written.after.rollovers = row.rollovers;
                written.rolloversChanged = true;
            }
        }
        moved.list.append(std::move(written));
    }
    return moved;
}

api::Result<api::Done> TrackBatch::State::writeEvents()
{
    if (events.isEmpty() && clocked.empty())
        return api::Done{};
    const int columns = 13;
    QList<QVariantList> values(columns);
    std::map<UsageDays::Key, UsageDays::Sums> days; // the batch's events added up by day
    for (const Event &event : std::as_const(events)) {
        UsageDays::Sums &day = days[UsageDays::keyOf(
            event.scope, event.request.timestamp.value_or(nowMs), event.call.featurePk,
            event.request.value ? std::nullopt : std::optional(event.request.modelId),
            event.call.customerPk)];
        ++day.events;
        day.value = day.value.runningSum(event.call.priced.value);
        day.tokens += tokenCount(event.request);
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
            event.request.value ? QVariant() : QVariant(event.request.modelId),
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
        // One round trip for every changed balance, every event and every
        // ledger entry: the UPDATE and the event INSERT run as data-modifying
        // WITHs; each ledger entry finds its event's key by the event's position.
        // The clock's changes of rows come first, their entries before the
        // calls' (an entry's key is its order: ordered before nextval()).
        QVariantList binds =
            clocked.empty() ? changedRows : clockedAsLeft().postgresBinds() + changedRows;
        for (qsizetype c = 1; c < values.size(); ++c)
            binds.append(PostgresArray::of(values.at(c)));
        binds += UsageDays::postgresBinds(days);
        QStringList routes(clockLedger.size(), u"clock"_s);
        for (qsizetype event : std::as_const(ledgerEvents))
            routes.append(routeOf(events.at(event).request));
        binds += BalanceLedger::arrays(clockLedger + ledger, routes, nowMs);
        QVariantList ordinals(clockLedger.size());
        for (qsizetype event : std::as_const(ledgerEvents))
            ordinals.append(event + 1);
        binds.append(PostgresArray::of(ordinals));
        return execute(
            db,
            u"WITH %3changed AS (UPDATE balances SET remaining = v.remaining, usage = v.usage"
            " FROM unnest(?::text[], ?::text[], ?::text[]) AS v(id, remaining, usage)"
            " WHERE balances.id = v.id RETURNING 1),"
            " events AS (SELECT nextval('usage_events_pk_seq') AS pk, e.*"
            " FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[],"
            " ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[])"
            " WITH ORDINALITY AS e(org_pk, env, customer_pk, entity_pk, feature_pk, model_id,"
            " tokens, value, properties, timestamp, idempotency_key, created_at, ord)),"
            " recorded AS (INSERT INTO usage_events (%1) SELECT pk, org_pk, env, customer_pk,"
            " entity_pk, feature_pk, model_id, tokens, value, properties, timestamp,"
            " idempotency_key, created_at FROM events RETURNING 1), %4"
            " INSERT INTO ledger (pk, org_pk, env, customer_pk, feature_pk, balance_id, at, kind,"
            " amount, balance_after, usage, route, key_pk, event_pk)"
            " SELECT nextval('ledger_pk_seq'), x.* FROM (SELECT l.org_pk, l.env, l.customer_pk,"
            " l.feature_pk, l.balance_id, l.at, l.kind, l.amount, l.balance_after, l.usage,"
            " l.route, l.key_pk, events.pk FROM %2 LEFT JOIN events ON events.ord = l.event_ord"
            " ORDER BY l.n) x"_s.arg(columnList, BalanceLedger::unnestSql(u"?::bigint[]"_s, true),
                                     clocked.empty() ? QString()
                                                     : MovedBalances::postgresWith() + u", "_s,
                                     UsageDays::postgresAdd(u"days"_s)),
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
    if (auto added = UsageDays::add(db, days); !added)
        return added;
    for (qsizetype i = 0; i < ledger.size(); ++i)
        ledger[i].eventPk = values.first().at(ledgerEvents.at(i)).toLongLong();
    QStringList routes;
    for (qsizetype event : std::as_const(ledgerEvents))
        routes.append(routeOf(events.at(event).request));
    return BalanceLedger::write(db, dialect, routes, nowMs, ledger);
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
        if (auto recorded = BillingControlStore::recordAlert(
                db, dialect, keys, alert.scope, alert.call.customerPk, alert.call.entityPk,
                alert.fired, nowMs);
            !recorded)
            return recorded;
    return tellReached();
}

api::Result<api::Done> TrackBatch::State::tellReached()
{
    const QString type = u"balances.limit_reached"_s;
    std::set<std::tuple<qint64, qint64, qint64, QString>> seen;
    for (const Reached &one : std::as_const(reached)) {
        const qint64 entityPk = one.call.entityPk.value_or(0);
        if (!seen.insert({one.call.customerPk, entityPk, one.call.featurePk, one.kind}).second)
            continue;
        WebhookOutbox outbox(db, dialect, one.scope, nowMs, &keys);
        auto wanted = outbox.wants(type);
        if (!wanted)
            return wanted.error();
        if (!wanted.value())
            continue;
        // One statement, so two servers refusing in a new window tell it once:
        // a row comes back only when the window is one not told before.
        auto told = runSql(
            db,
            u"INSERT INTO limit_reached (customer_pk, entity_pk, feature_pk, kind, window_start)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (customer_pk, entity_pk, feature_pk, kind)"
            " DO UPDATE SET window_start = excluded.window_start"
            " WHERE limit_reached.window_start <> excluded.window_start RETURNING 1"_s,
            {one.call.customerPk, entityPk, one.call.featurePk, one.kind, one.window});
        if (!told)
            return told.error();
        if (!told.value().next())
            continue; // this window's first refusal was told
        told.value().finish();
        using api::JsonValue;
        const JsonValue data = JsonValue::object(
            {{"customer_id"_L1, JsonValue::string(one.customerId)},
             {"entity_id"_L1, one.entityId ? JsonValue::string(*one.entityId) : JsonValue::null()},
             {"feature_id"_L1, JsonValue::string(one.call.featureId)},
             {"limit"_L1, JsonValue::string(one.kind)},
             {"window_start"_L1, JsonValue::number(one.window)},
             {"code"_L1, JsonValue::string(one.refusal.code)},
             {"message"_L1, JsonValue::string(one.refusal.message)}});
        if (auto added = outbox.add(type, data); !added)
            return added.error();
    }
    return api::Done{};
}

} // namespace md::engine
