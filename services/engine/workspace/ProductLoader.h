// Loads an environment's catalogue from a workspace file
// (docs/workspace-format.md) for WorkspaceLoader: features with their
// markups, products and their versions, and rewards with their promo codes,
// each checked as it is read (ids and codes unique in the environment).
#pragma once

#include "services/engine/sql/Scope.h"
#include "services/engine/workspace/WorkspaceLoadState.h"

namespace md::engine {

class ProductLoader final
{
public:
    static api::Result<api::Done> feature(LoadState &state, const api::JsonReader &feature,
                                          const Scope &scope);
    static api::Result<api::Done> product(LoadState &state, const api::JsonReader &product,
                                          const Scope &scope);
    static api::Result<api::Done> reward(LoadState &state, const api::JsonReader &reward,
                                         const Scope &scope);
};

} // namespace md::engine
