// rewards.update in the engine (docs/api.md, rewards.update), in
// one write transaction: the kind sent must be the stored reward's; omitted
// fields keep their value; promo codes given replace the reward's list and
// must not be another reward's; granted features and coupon plans must exist.
// replace() and remove() serve promotions from the sandbox
// (EnvironmentPromoter): a whole record in, under the same rules.
#pragma once

#include "services/api/UpdateReward.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class RewardUpdater final
{
public:
    static api::Result<api::UpdateRewardResponse> update(const QSqlDatabase &db, Dialect dialect,
                                                         const Scope &scope,
                                                         const api::UpdateRewardRequest &request);
    // The reward becomes `reward` (added when the scope has none), kind and all;
    // it keeps its created_at.
    static api::Result<api::RewardEntry> replace(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope, const api::RewardEntry &reward,
                                                 qint64 nowMs);
    // The reward and its promo codes are gone; false when there was none.
    // Inside the caller's write transaction.
    static api::Result<bool> remove(const QSqlDatabase &db, const Scope &scope,
                                    const QString &rewardId);
};

} // namespace md::engine
