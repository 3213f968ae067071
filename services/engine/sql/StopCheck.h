// A long read asks this now and then; true ends it early with stoppedError().
// The console stops the scan of a filter it no longer shows, so the newest
// filter's scan does not wait behind it (docs/performance.md). Empty: the
// read runs to its end, as every API route's does.
#pragma once

#include "services/api/ApiError.h"

#include <functional>

namespace md::engine {

using StopCheck = std::function<bool()>;

inline api::ApiError stoppedError()
{
    return api::ApiError::local(QStringLiteral("stopped"),
                                QStringLiteral("the read was stopped before its end"));
}

} // namespace md::engine
