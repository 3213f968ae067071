// Where two records differ, field by field (docs/promotion.md, "What
// differs"): objects member by member, lists of items, grants and promo
// codes by their feature id or code, any other list as a whole. Fields that
// belong to one environment alone (created_at, env, version) and archived
// (an archived product counts as none) are not compared.
#pragma once

#include "services/api/Promotion.h"

namespace md::engine {

class RecordDiff final
{
public:
    // The record as compared: its JSON without the fields named above.
    static api::JsonValue comparable(const api::Product &product);
    static api::JsonValue comparable(const api::RewardEntry &reward);

    // The fields where `sandbox` and `production` differ, in the records'
    // order; either may be undefined (the environment has none).
    static QList<api::FieldDifference> differences(const api::JsonValue &sandbox,
                                                   const api::JsonValue &production);
};

} // namespace md::engine
