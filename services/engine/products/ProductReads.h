// Features, products and rewards as the console and the API read them.
#pragma once

#include "services/api/FeatureInfo.h"
#include "services/api/Page.h"
#include "services/api/Product.h"
#include "services/api/Result.h"
#include "services/api/UpdateReward.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class ProductReads final
{
public:
    static api::Result<api::Page<api::FeatureInfo>> features(const QSqlDatabase &db,
                                                             const Scope &scope);
    static api::Result<api::Page<api::Product>> products(const QSqlDatabase &db,
                                                         const Scope &scope);
    static api::Result<api::Page<api::RewardEntry>> rewards(const QSqlDatabase &db,
                                                            const Scope &scope);
};

} // namespace md::engine
