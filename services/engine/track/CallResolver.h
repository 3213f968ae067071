// What a track_tokens or balances.track call refers to, resolved before
// anything is written: the customer, the entity, the feature (for tokens the
// AI credit system named, or the customer's only one) and the call's value:
// its price with that system's markups, or balances.track's value as sent.
#pragma once

#include "services/api/CallQuote.h"
#include "services/api/TrackTokens.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/pricing/TokenPricing.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <map>
#include <tuple>

namespace md::engine {

// Whom and what a call is for, before its price.
struct CallTarget
{
    qint64 customerPk = 0;
    std::optional<qint64> entityPk;
    qint64 featurePk = 0;
    QString featureId;
    QString featureType; // single_use, continuous_use, boolean, static, credit_system
    CreditMarkups markups;
};

// ...and its price.
struct ResolvedCall : CallTarget
{
    PricedCall priced;
};

class CallResolver final
{
public:
    // 404 customer_not_found, entity_not_found, feature_not_found; 400 for
    // several credit systems without feature_id, a model the catalogue lacks,
    // or balances.track of a boolean or static feature.
    static api::Result<ResolvedCall> resolve(const QSqlDatabase &db, const Scope &scope,
                                             const api::TrackTokensRequest &request,
                                             const PriceCatalogue &catalogue);
    // resolve() in two steps, so calls for one customer can share the first:
    // the target depends only on the scope, customer, entity and feature_id.
    static api::Result<CallTarget> target(const QSqlDatabase &db, const Scope &scope,
                                          const api::TrackTokensRequest &request);
    // target() without refusing a feature for its type: balances.check asks
    // about any feature.
    static api::Result<CallTarget> lookup(const QSqlDatabase &db, const Scope &scope,
                                          const api::TrackTokensRequest &request);
    // PostgreSQL: lookup() of many calls in one statement, so that a batch's
    // calls for many customers cost one round trip; each answer at its call's index.
    static api::Result<QList<api::Result<CallTarget>>>
    lookupAll(const QSqlDatabase &db, const Scope &scope,
              const QList<const api::TrackTokensRequest *> &requests);
    // What target() adds to lookup(): a feature refused for its type.
    static api::Result<CallTarget> refuseType(api::Result<CallTarget> found,
                                              const api::TrackTokensRequest &request);
    static api::Result<ResolvedCall> price(const CallTarget &target,
                                           const api::TrackTokensRequest &request,
                                           const PriceCatalogue &catalogue);
    static api::Result<api::CallQuote> quote(const QSqlDatabase &db, const Scope &scope,
                                             const api::TrackTokensRequest &request,
                                             const PriceCatalogue &catalogue);
};

// Many calls resolved at once (a usage.batch, the queue's batch): calls for
// one customer, entity and feature share one look-up.
class CallTargets final
{
public:
    // Every target the calls need, looked up together on PostgreSQL (one
    // round trip for many customers); on SQLite, where a look-up is no round
    // trip, resolve() looks each one up as before.
    api::Result<api::Done> prefetch(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                    const QList<const api::TrackTokensRequest *> &requests);
    api::Result<ResolvedCall> resolve(const QSqlDatabase &db, const Scope &scope,
                                      const api::TrackTokensRequest &request,
                                      const PriceCatalogue &catalogue);

private:
    using Key = std::tuple<qint64, QString, QString, QString, QString, bool>;
    static Key keyOf(const Scope &scope, const api::TrackTokensRequest &request);

    std::map<Key, api::Result<CallTarget>> m_targets;
};

} // namespace md::engine
