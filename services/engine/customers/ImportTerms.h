// What the payment processor says of an imported subscription beyond the
// import's body (docs/processors.md, "What the import reads"): when its
// trial ends, when it ends and when it was canceled. None is the body's
// own reading: a trial from the plan's free trial, no end.
#pragma once

#include <QtGlobal>

#include <optional>

namespace md::engine {

struct ImportTerms
{
    std::optional<qint64> trialEndsAt; // ms
    std::optional<qint64> endsAt;      // cancel_at, or the period's end when canceled at it
    std::optional<qint64> canceledAt;
};

} // namespace md::engine
