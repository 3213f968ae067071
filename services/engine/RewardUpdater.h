// rewards.update in the engine (docs/api.md, rewards.update), in
// one write transaction: the kind sent must be the stored reward's; omitted
// fields keep their value; promo codes given replace the reward's list and
// must not be another reward's; granted features and coupon plans must exist.
#pragma once

#include "services/api/UpdateReward.h"
#include "services/engine/Database.h"
#include "services/engine/Scope.h"

namespace md::engine {

class RewardUpdater final
{
public:
    static api::Result<api::UpdateRewardResponse> update(const QSqlDatabase &db, Dialect dialect,
                                                         const Scope &scope,
                                                         const api::UpdateRewardRequest &request);
};

} // namespace md::engine
