// What loading a workspace brought in, counted.
#pragma once

#include <QtGlobal>

namespace md::engine {

struct LoadSummary
{
    qsizetype organizations = 0;
    qsizetype customers = 0;
    qsizetype balances = 0;
    qsizetype apiKeys = 0;
    // Organizations whose file still lists `accessible_accounts`, the
    // stand-in directory before migration 22: left, since the link asks Stripe.
    qsizetype accessListsIgnored = 0;
};

} // namespace md::engine
