#include "services/engine/TokenLedger.h"

#include "services/engine/BalanceLister.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"
#include "services/engine/TokenPricing.h"

#include <algorithm>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

// Shorter reset intervals first.
int intervalRank(const std::optional<api::Reset> &reset)
{
    return reset ? int(reset->interval) : 1000;
}

api::Result<std::optional<qint64>> firstKey(const QSqlDatabase &db, const QString &sql,
                                            const QVariantList &binds)
{
    auto rows = queryRows(db, sql, binds);
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return std::optional<qint64>();
    return std::optional<qint64>(rows.value().first().first().toLongLong());
}

// The customer's key, or 404 customer_not_found.
api::Result<qint64> customerKey(const QSqlDatabase &db, const Scope &scope, const QString &id)
{
    auto customer =
        firstKey(db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                 {scope.orgPk, scope.envWord(), id});
    if (!customer)
        return customer.error();
    if (!customer.value())
        return ApiError::notFound(u"customer_not_found"_s,
                                  u"customer \"%1\" does not exist"_s.arg(id));
    return *customer.value();
}

TokenCounts countsOf(const api::TrackTokensRequest &request)
{
    return {request.inputTokens,
            request.outputTokens,
            request.cacheReadTokens.value_or(0),
            request.cacheWriteTokens.value_or(0),
            request.reasoningTokens.value_or(0),
            request.audioInputTokens.value_or(0),
            request.audioOutputTokens.value_or(0)};
}

struct FeatureChoice
{
    qint64 pk = 0;
    QString id;
};

api::Result<FeatureChoice> creditSystem(const QSqlDatabase &db, const Scope &scope,
                                        qint64 customerPk, const api::TrackTokensRequest &request)
{
    if (request.featureId) {
        auto rows = queryRows(
            db, u"SELECT pk, type FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
            {scope.orgPk, scope.envWord(), *request.featureId});
        if (!rows)
            return rows.error();
        if (rows.value().isEmpty())
            return ApiError::notFound(u"feature_not_found"_s,
                                      u"feature \"%1\" does not exist"_s.arg(*request.featureId));
        if (rows.value().first().at(1).toString() != "credit_system"_L1)
            return ApiError::invalidRequest(
                u"feature \"%1\" is not an AI credit system; track tokens against a credit_system feature"_s
                    .arg(*request.featureId));
        return FeatureChoice{rows.value().first().at(0).toLongLong(), *request.featureId};
    }
    auto rows = queryRows(
        db,
        u"SELECT DISTINCT f.pk, f.id FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " WHERE b.customer_pk = ? AND f.type = 'credit_system' ORDER BY f.id"_s,
        {customerPk});
    if (!rows)
        return rows.error();
    QList<FeatureChoice> found;
    for (const QVariantList &row : std::as_const(rows.value()))
        found.append({row.at(0).toLongLong(), row.at(1).toString()});
    if (found.isEmpty())
        return ApiError::notFound(
            u"feature_not_found"_s,
            u"customer \"%1\" has no AI credit system; give them one first"_s.arg(
                request.customerId));
    if (found.size() > 1) {
        QStringList ids;
        for (const FeatureChoice &choice : std::as_const(found))
            ids.append(choice.id);
        return ApiError::invalidRequest(
            u"customer \"%1\" has several AI credit systems (%2); say which in feature_id"_s.arg(
                request.customerId, ids.join(u", "_s)));
    }
    return found.first();
}

api::Result<CreditMarkups> markupsOf(const QSqlDatabase &db, qint64 featurePk)
{
    CreditMarkups markups;
    auto feature =
        queryRows(db, u"SELECT default_markup FROM features WHERE pk = ?"_s, {featurePk});
    if (!feature)
        return feature.error();
    if (!feature.value().isEmpty() && !feature.value().first().first().isNull())
        markups.defaultMarkup = Decimal::parse(feature.value().first().first().toString());
    auto rows =
        queryRows(db, u"SELECT provider, model, markup FROM credit_markups WHERE feature_pk = ?"_s,
                  {featurePk});
    if (!rows)
        return rows.error();
    for (const QVariantList &row : std::as_const(rows.value())) {
        const QString provider = row.at(0).toString();
        const QString model = row.at(1).toString();
        const Decimal markup = Decimal::parse(row.at(2).toString()).value_or(Decimal());
        if (model.isEmpty())
            markups.byProvider.insert(provider, markup);
        else
            markups.byModel.insert(provider + u'/' + model, markup);
    }
    return markups;
}

api::Result<api::BalanceSummary> summarize(const QString &featureId,
                                           const QList<api::BalanceRow> &rows)
{
    api::BalanceSummary summary;
    summary.featureId = featureId;
    for (const api::BalanceRow &row : rows)
        if (!summary.add(row))
            return ApiError::internal(
                u"the balances of %1 exceed the supported range"_s.arg(featureId));
    return summary;
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
    std::stable_sort(
        rows.begin(), rows.end(), [](const api::BalanceRow &a, const api::BalanceRow &b) {
            if (a.reset.has_value() != b.reset.has_value())
                return a.reset.has_value();
            if (intervalRank(a.reset) != intervalRank(b.reset))
                return intervalRank(a.reset) < intervalRank(b.reset);
            const qint64 aExpires = a.expiresAt.value_or(std::numeric_limits<qint64>::max());
            const qint64 bExpires = b.expiresAt.value_or(std::numeric_limits<qint64>::max());
            if (aExpires != bExpires)
                return aExpires < bExpires;
            if (a.planId.has_value() != b.planId.has_value())
                return a.planId.has_value();
            return a.createdAt < b.createdAt;
        });
    return rows;
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

api::Result<api::CallQuote> TokenLedger::quote(const QSqlDatabase &db, const Scope &scope,
                                               const api::TrackTokensRequest &request,
                                               const PriceCatalogue &catalogue)
{
    CreditMarkups markups;
    std::optional<QString> featureId;
    if (!request.customerId.isEmpty() || request.featureId) {
        qint64 customerPk = 0;
        if (!request.customerId.isEmpty()) {
            auto customer = customerKey(db, scope, request.customerId);
            if (!customer)
                return customer.error();
            customerPk = customer.value();
        }
        auto feature = creditSystem(db, scope, customerPk, request);
        if (!feature)
            return feature.error();
        auto found = markupsOf(db, feature.value().pk);
        if (!found)
            return found.error();
        markups = found.value();
        featureId = feature.value().id;
    }
    const TokenCounts tokens = countsOf(request);
    auto priced = TokenPricing::price(catalogue, request.modelId, tokens, markups);
    if (!priced)
        return priced.error();
    api::CallQuote quote;
    quote.modelId = request.modelId;
    quote.featureId = featureId;
    for (const PricedCall::Pool &pool : std::as_const(priced.value().pools))
        quote.pools.append({pool.name, pool.tokens, pool.pricePerMillion, pool.cost});
    quote.baseCost = priced.value().baseCost;
    quote.markup = priced.value().markup;
    switch (priced.value().markupSource) {
    case PricedCall::MarkupSource::Model:
        quote.markupSource = u"model"_s;
        break;
    case PricedCall::MarkupSource::Provider:
        quote.markupSource = u"provider"_s;
        break;
    case PricedCall::MarkupSource::Default:
        quote.markupSource = u"default"_s;
        break;
    case PricedCall::MarkupSource::None:
        quote.markupSource = u"none"_s;
        break;
    }
    quote.value = priced.value().value;
    quote.free = priced.value().free;
    return quote;
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
    auto customer = customerKey(db, scope, request.customerId);
    if (!customer)
        return customer.error();
    const qint64 customerPk = customer.value();
    std::optional<qint64> entityPk;
    if (request.entityId) {
        auto entity = firstKey(db, u"SELECT pk FROM entities WHERE customer_pk = ? AND id = ?"_s,
                               {customerPk, *request.entityId});
        if (!entity)
            return entity.error();
        if (!entity.value())
            return ApiError::notFound(u"entity_not_found"_s,
                                      u"entity \"%1\" does not exist for customer \"%2\""_s.arg(
                                          *request.entityId, request.customerId));
        entityPk = entity.value();
    }
    auto feature = creditSystem(db, scope, customerPk, request);
    if (!feature)
        return feature.error();
    auto markups = markupsOf(db, feature.value().pk);
    if (!markups)
        return markups.error();
    const TokenCounts tokens = countsOf(request);
    auto priced = TokenPricing::price(catalogue, request.modelId, tokens, markups.value());
    if (!priced)
        return priced.error();
    if (idempotencyKey) {
        auto seen = firstKey(
            db,
            u"SELECT pk FROM usage_events WHERE org_pk = ? AND env = ? AND idempotency_key = ?"_s,
            {scope.orgPk, scope.envWord(), *idempotencyKey});
        if (!seen)
            return seen.error();
        if (seen.value())
            return ApiError{
                409, u"duplicate_idempotency_key"_s,
                u"an event with Idempotency-Key \"%1\" was already recorded; nothing was deducted"_s
                    .arg(*idempotencyKey)};
    }
    if (dialect == Dialect::Postgres) {
        // Concurrent calls for one customer queue on the customer's row: one
        // lock, so no two calls can take locks in opposite orders.
        if (auto locked =
                queryRows(db, u"SELECT pk FROM customers WHERE pk = ? FOR UPDATE"_s, {customerPk});
            !locked)
            return locked.error();
    }
    auto rows = rowsInOrder(db, scope, request, feature.value().id, nowMs);
    if (!rows)
        return rows.error();

    api::TrackTokensResponse response;
    response.customerId = request.customerId;
    response.value = priced.value().value;
    response.entityId = request.entityId;
    Decimal left = priced.value().free ? Decimal() : priced.value().value;
    QHash<QString, Decimal> taken;
    QStringList touched; // rows in the order they were first drawn on
    const auto take = [&](api::BalanceRow &row, Decimal amount) {
        if (!taken.contains(row.id))
            touched.append(row.id);
        taken[row.id] = taken.value(row.id).plus(amount).value_or(amount);
        left = *left.minus(amount);
    };
    // Rollovers first, soonest expiry first, across the rows.
    struct RolloverRef
    {
        qsizetype row;
        qsizetype index;
    };
    QList<RolloverRef> rollovers;
    for (qsizetype r = 0; r < rows.value().size(); ++r)
        for (qsizetype i = 0; i < rows.value().at(r).rollovers.size(); ++i)
            if (rows.value().at(r).rollovers.at(i).expiresAt > nowMs)
                rollovers.append({r, i});
    std::stable_sort(rollovers.begin(), rollovers.end(),
                     [&](const RolloverRef &a, const RolloverRef &b) {
                         return rows.value().at(a.row).rollovers.at(a.index).expiresAt <
                                rows.value().at(b.row).rollovers.at(b.index).expiresAt;
                     });
    for (const RolloverRef &ref : std::as_const(rollovers)) {
        if (!(Decimal() < left))
            break;
        api::Rollover &rollover = rows.value()[ref.row].rollovers[ref.index];
        const Decimal amount = std::min(left, std::max(Decimal(), rollover.balance));
        if (amount.isZero())
            continue;
        rollover.balance = *rollover.balance.minus(amount);
        take(rows.value()[ref.row], amount);
    }
    for (api::BalanceRow &row : rows.value()) {
        if (!(Decimal() < left))
            break;
        const Decimal amount =
            row.unlimited ? left : std::min(left, std::max(Decimal(), row.remaining));
        if (amount.isZero())
            continue;
        if (!row.unlimited)
            row.remaining = *row.remaining.minus(amount);
        row.usage = *row.usage.plus(amount);
        take(row, amount);
    }
    if (Decimal() < left && request.overageBehavior == api::OverageBehavior::Overflow &&
        !rows.value().isEmpty()) {
        api::BalanceRow &first = rows.value().first(); // the balance goes negative
        first.remaining = *first.remaining.minus(left);
        first.usage = *first.usage.plus(left);
        take(first, left);
    }

    // Write the rows and rollovers that changed, then the event.
    for (const api::BalanceRow &row : std::as_const(rows.value())) {
        if (!taken.contains(row.id))
            continue;
        if (auto updated =
                execute(db, u"UPDATE balances SET remaining = ?, usage = ? WHERE id = ?"_s,
                        {row.remaining.toString(), row.usage.toString(), row.id});
            !updated)
            return updated.error();
        if (!row.rollovers.isEmpty()) {
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
                    return updated.error();
        }
    }
    for (const QString &id : std::as_const(touched)) {
        const auto row = std::find_if(rows.value().cbegin(), rows.value().cend(),
                                      [&](const api::BalanceRow &r) { return r.id == id; });
        response.deductions.append(
            {id, feature.value().id, row->planId, row->reset, taken.value(id)});
    }
    KeyAllocator keys(db, dialect);
    auto eventPk = keys.next(u"usage_events"_s);
    if (!eventPk)
        return eventPk.error();
    api::JsonWriter tokenJson;
    tokenJson.beginObject()
        .field("input_tokens"_L1, tokens.input)
        .field("output_tokens"_L1, tokens.output);
    for (const auto &[name, count] : {std::pair{"cache_read_tokens"_L1, tokens.cacheRead},
                                      std::pair{"cache_write_tokens"_L1, tokens.cacheWrite},
                                      std::pair{"reasoning_tokens"_L1, tokens.reasoning},
                                      std::pair{"audio_input_tokens"_L1, tokens.inputAudio},
                                      std::pair{"audio_output_tokens"_L1, tokens.outputAudio}})
        if (count > 0)
            tokenJson.field(name, count);
    tokenJson.endObject();
    if (auto inserted = execute(
            db,
            u"INSERT INTO usage_events (pk, org_pk, env, customer_pk, entity_pk, feature_pk,"
            " model_id, tokens, value, properties, timestamp, idempotency_key, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
            {eventPk.value(), scope.orgPk, scope.envWord(), customerPk,
             entityPk ? QVariant(*entityPk) : QVariant(), feature.value().pk, request.modelId,
             QString::fromUtf8(tokenJson.take()), response.value.toString(),
             storedText(request.properties.value_or(api::JsonValue::object())),
             request.timestamp.value_or(nowMs),
             idempotencyKey ? QVariant(*idempotencyKey) : QVariant(), nowMs});
        !inserted) {
        // A concurrent call with the same key won the race.
        if (idempotencyKey)
            return ApiError{
                409, u"duplicate_idempotency_key"_s,
                u"an event with Idempotency-Key \"%1\" was already recorded; nothing was deducted"_s
                    .arg(*idempotencyKey)};
        return inserted.error();
    }
    auto summary = summarize(feature.value().id, rows.value());
    if (!summary)
        return summary.error();
    response.balance = summary.value();
    response.balances.insert(feature.value().id, response.balance);
    return response;
}

} // namespace md::engine
