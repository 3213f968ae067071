// Loads one customer of a workspace file (docs/workspace-format.md) for
// WorkspaceLoader: its processors, entities, billing controls, products,
// balances with rollovers, and usage events, checked as they are read.
#pragma once

#include "services/engine/sql/Scope.h"
#include "services/engine/workspace/WorkspaceLoadState.h"

namespace md::engine {

class CustomerLoader final
{
public:
    static api::Result<api::Done> load(LoadState &state, const api::JsonReader &customer,
                                       const Scope &scope);
};

} // namespace md::engine
