#include "services/engine/track/CallResolver.h"

#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

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
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
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
            return ApiError::notFound(api::ErrorCode::FeatureNotFound,
                                      u"feature \"%1\" does not exist"_s.arg(*request.featureId));
        if (rows.value().first().at(1).toString() != "credit_system"_L1)
            return ApiError::invalidRequest(
                u"feature \"%1\" is not an AI credit system; track tokens against a credit_system feature"_s
                    .arg(*request.featureId));
        return FeatureChoice{rows.value().first().at(0).toLongLong(), *request.featureId};
    }
    auto rows = queryRows(db,
                          // The organization's credit systems (a few), each with a seek of
                          // balances_by_feature on all four columns: from the balances, SQLite
                          // walked every one of the organization's (tst_queryplans).
                          u"SELECT f.pk, f.id FROM features f WHERE f.org_pk = ? AND f.env = ?"
                          " AND f.type = 'credit_system' AND EXISTS (SELECT 1 FROM balances b"
                          " WHERE b.org_pk = f.org_pk AND b.env = f.env AND b.feature_pk = f.pk"
                          " AND b.customer_pk = ?) ORDER BY f.id"_s,
                          {scope.orgPk, scope.envWord(), customerPk});
    if (!rows)
        return rows.error();
    QList<FeatureChoice> found;
    for (const QVariantList &row : std::as_const(rows.value()))
        found.append({row.at(0).toLongLong(), row.at(1).toString()});
    if (found.isEmpty())
        return ApiError::notFound(
            api::ErrorCode::FeatureNotFound,
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

// A credit_markups row (provider, model, markup from column `first`): for a
// whole provider when the model is empty.
void addMarkup(CreditMarkups &markups, const QVariantList &row, int first)
{
    const QString provider = row.at(first).toString();
    const QString model = row.at(first + 1).toString();
    const Decimal markup = Decimal::parse(row.at(first + 2).toString()).value_or(Decimal());
    if (model.isEmpty())
        markups.byProvider.insert(provider, markup);
    else
        markups.byModel.insert(provider + u'/' + model, markup);
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
    for (const QVariantList &row : std::as_const(rows.value()))
        addMarkup(markups, row, 0);
    return markups;
}

} // namespace

api::Result<ResolvedCall> CallResolver::resolve(const QSqlDatabase &db, const Scope &scope,
                                                const api::TrackTokensRequest &request,
                                                const PriceCatalogue &catalogue)
{
    auto found = target(db, scope, request);
    if (!found)
        return found.error();
    return price(found.value(), request, catalogue);
}

api::Result<ResolvedCall> CallResolver::price(const CallTarget &target,
                                              const api::TrackTokensRequest &request,
                                              const PriceCatalogue &catalogue)
{
    if (request.value) { // balances.track: the value as sent, no model to price
        PricedCall priced;
        priced.value = *request.value;
        return ResolvedCall{target, priced};
    }
    auto priced =
        TokenPricing::price(catalogue, request.modelId, countsOf(request), target.markups);
    if (!priced)
        return priced.error();
    return ResolvedCall{target, priced.value()};
}

namespace {

// lookup()'s columns, a row per markup of the feature found:
// customer, entity, feature key, id, type, default markup, then a markup.
const QString TargetColumns =
    u"c.pk, e.pk, f.pk, f.id, f.type, f.default_markup, m.provider, m.model, m.markup"_s;

// The organization's credit systems, each kept when the customer holds a
// balance of it: one seek of balances_by_feature per system. (An IN over the
// customer's balances was answered by walking every balance of the
// organization: issue 35.)
const QString HeldCreditSystem =
    u"f.type = 'credit_system' AND EXISTS (SELECT 1 FROM balances b"
    " WHERE b.org_pk = c.org_pk AND b.env = c.env AND b.feature_pk = f.pk"
    " AND b.customer_pk = c.pk)"_s;

// One call's target from its rows (TargetColumns from `first` on); none: no such customer.
api::Result<CallTarget> targetOf(const QList<QVariantList> &rows, qsizetype begin, qsizetype end,
                                 int first, const api::TrackTokensRequest &request)
{
    if (begin == end)
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                  u"customer \"%1\" does not exist"_s.arg(request.customerId));
    const auto at = [&](qsizetype row, int column) -> const QVariant & {
        return rows.at(row).at(first + column);
    };
    CallTarget call;
    call.customerPk = at(begin, 0).toLongLong();
    if (request.entityId) {
        if (at(begin, 1).isNull())
            return ApiError::notFound(api::ErrorCode::EntityNotFound,
                                      u"entity \"%1\" does not exist for customer \"%2\""_s.arg(
                                          *request.entityId, request.customerId));
        call.entityPk = at(begin, 1).toLongLong();
    }
    if (request.featureId) {
        if (at(begin, 2).isNull())
            return ApiError::notFound(api::ErrorCode::FeatureNotFound,
                                      u"feature \"%1\" does not exist"_s.arg(*request.featureId));
    } else if (at(begin, 2).isNull()) {
        return ApiError::notFound(
            api::ErrorCode::FeatureNotFound,
            u"customer \"%1\" has no AI credit system; give them one first"_s.arg(
                request.customerId));
    }
    QStringList systems;
    for (qsizetype row = begin; row < end; ++row)
        if (systems.isEmpty() || systems.last() != at(row, 3).toString())
            systems.append(at(row, 3).toString());
    if (systems.size() > 1)
        return ApiError::invalidRequest(
            u"customer \"%1\" has several AI credit systems (%2); say which in feature_id"_s.arg(
                request.customerId, systems.join(u", "_s)));
    call.featurePk = at(begin, 2).toLongLong();
    call.featureId = at(begin, 3).toString();
    call.featureType = at(begin, 4).toString();
    CreditMarkups &markups = call.markups;
    if (!at(begin, 5).isNull())
        markups.defaultMarkup = Decimal::parse(at(begin, 5).toString());
    for (qsizetype row = begin; row < end; ++row)
        if (!at(row, 8).isNull())
            addMarkup(markups, rows.at(row), first + 6);
    return call;
}

} // namespace

api::Result<CallTarget> CallResolver::lookup(const QSqlDatabase &db, const Scope &scope,
                                             const api::TrackTokensRequest &request)
{
    // One statement, one round trip: the customer, the entity, the credit
    // system (named, or every one the customer has) and its markups, a row
    // per markup. Several systems without feature_id are refused by targetOf().
    const QString feature =
        request.featureId
            ? u"LEFT JOIN features f ON f.org_pk = c.org_pk AND f.env = c.env AND f.id = ?"_s
            : u"LEFT JOIN features f ON f.org_pk = c.org_pk AND f.env = c.env AND "_s +
                  HeldCreditSystem;
    QVariantList binds{request.entityId ? QVariant(*request.entityId) : QVariant()};
    if (request.featureId)
        binds << *request.featureId;
    binds << scope.orgPk << scope.envWord() << request.customerId;
    auto rows = queryRows(
        db,
        u"SELECT "_s + TargetColumns +
            u" FROM customers c LEFT JOIN entities e ON e.customer_pk = c.pk AND e.id = ? "_s +
            feature +
            u" LEFT JOIN credit_markups m ON m.feature_pk = f.pk AND f.type = 'credit_system'"
            " WHERE c.org_pk = ? AND c.env = ? AND c.id = ? ORDER BY f.id"_s,
        binds);
    if (!rows)
        return rows.error();
    return targetOf(rows.value(), 0, rows.value().size(), 0, request);
}

api::Result<QList<api::Result<CallTarget>>>
CallResolver::lookupAll(const QSqlDatabase &db, const Scope &scope,
                        const QList<const api::TrackTokensRequest *> &requests)
{
    QVariantList customers;
    QVariantList entities;
    QVariantList features;
    for (const api::TrackTokensRequest *request : requests) {
        customers.append(request->customerId);
        entities.append(request->entityId ? QVariant(*request->entityId) : QVariant());
        features.append(request->featureId ? QVariant(*request->featureId) : QVariant());
    }
    // lookup() for each call, told apart by its position n. The features
    // are the organization's catalogue, a few rows: the join may read them all.
    auto rows = queryRows(
        db,
        u"SELECT k.n, "_s + TargetColumns +
            u" FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY"
            " AS k(customer_id, entity_id, feature_id, n)"
            // Each by its key, LATERAL (and LIMIT, so not flattened): for an
            // array of unknown length the generic plan hashed the
            // organization's customers (tst_queryplans).
            " JOIN LATERAL (SELECT pk, org_pk, env FROM customers WHERE org_pk = ? AND env = ?"
            " AND id = k.customer_id LIMIT 1) c ON true"
            " LEFT JOIN LATERAL (SELECT pk FROM entities WHERE customer_pk = c.pk"
            " AND id = k.entity_id LIMIT 1) e ON true"
            " LEFT JOIN features f ON f.org_pk = c.org_pk AND f.env = c.env"
            " AND (f.id = k.feature_id OR (k.feature_id IS NULL AND "_s +
            HeldCreditSystem +
            u")) LEFT JOIN credit_markups m ON m.feature_pk = f.pk AND f.type = 'credit_system'"
            " ORDER BY k.n, f.id"_s,
        {PostgresArray::of(customers), PostgresArray::of(entities), PostgresArray::of(features),
         scope.orgPk, scope.envWord()});
    if (!rows)
        return rows.error();
    QList<api::Result<CallTarget>> targets;
    targets.reserve(requests.size());
    qsizetype row = 0;
    for (qsizetype n = 1; n <= requests.size(); ++n) {
        const qsizetype begin = row;
        while (row < rows.value().size() && rows.value().at(row).first().toLongLong() == n)
            ++row;
        targets.append(targetOf(rows.value(), begin, row, 1, *requests.at(n - 1)));
    }
    return targets;
}

api::Result<CallTarget> CallResolver::target(const QSqlDatabase &db, const Scope &scope,
                                             const api::TrackTokensRequest &request)
{
    return refuseType(lookup(db, scope, request), request);
}

api::Result<CallTarget> CallResolver::refuseType(api::Result<CallTarget> found,
                                                 const api::TrackTokensRequest &request)
{
    if (!found)
        return found;
    const QString &type = found.value().featureType;
    if (request.value && (type == "boolean"_L1 || type == "static"_L1))
        return ApiError::invalidRequest(
            u"feature \"%1\" is a %2 feature: it has no usage to track; ask balances.check"
            " whether the customer has it"_s.arg(found.value().featureId, type));
    if (!request.value && type != "credit_system"_L1)
        return ApiError::invalidRequest(
            u"feature \"%1\" is not an AI credit system; track tokens against a credit_system feature"_s
                .arg(found.value().featureId));
    return found;
}

auto CallTargets::keyOf(const Scope &scope, const api::TrackTokensRequest &request) -> Key
{
    // balances.track and track_tokens of one feature differ in what they
    // refuse (target()), so the kind of call is part of the key.
    return {scope.orgPk,
            scope.envWord(),
            request.customerId,
            request.entityId.value_or(QString()),
            request.featureId.value_or(QString()),
            request.value.has_value()};
}

api::Result<api::Done> CallTargets::prefetch(const QSqlDatabase &db, Dialect dialect,
                                             const Scope &scope,
                                             const QList<const api::TrackTokensRequest *> &requests)
{
    if (dialect != Dialect::Postgres)
        return api::Done{};
    std::map<Key, const api::TrackTokensRequest *> wanted;
    for (const api::TrackTokensRequest *request : requests)
        if (const Key key = keyOf(scope, *request); !m_targets.contains(key))
            wanted.emplace(key, request);
    if (wanted.size() < 2) // resolve() looks up one as well
        return api::Done{};
    QList<const api::TrackTokensRequest *> each;
    for (const auto &[key, request] : wanted)
        each.append(request);
    auto found = CallResolver::lookupAll(db, scope, each);
    if (!found)
        return found.error();
    qsizetype i = 0;
    for (const auto &[key, request] : wanted)
        m_targets.emplace(key, CallResolver::refuseType(found.value().at(i++), *request));
    return api::Done{};
}

api::Result<ResolvedCall> CallTargets::resolve(const QSqlDatabase &db, const Scope &scope,
                                               const api::TrackTokensRequest &request,
                                               const PriceCatalogue &catalogue)
{
    const Key key = keyOf(scope, request);
    auto found = m_targets.find(key);
    if (found == m_targets.end())
        found = m_targets.emplace(key, CallResolver::target(db, scope, request)).first;
    return found->second ? CallResolver::price(found->second.value(), request, catalogue)
                         : api::Result<ResolvedCall>(found->second.error());
}

api::Result<api::CallQuote> CallResolver::quote(const QSqlDatabase &db, const Scope &scope,
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
    auto priced = TokenPricing::price(catalogue, request.modelId, countsOf(request), markups);
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

} // namespace md::engine
