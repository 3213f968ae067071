// A built-in, realistic workspace for trying Meterdesk and for benchmarks:
// plans with included and prepaid grants, standalone and entity balances,
// rollovers, expired balances, an AI credit system with markups, rewards and
// two tenant organizations. Deterministic for a given seed.
#pragma once

#include "services/api/JsonValue.h"
#include <QString>

namespace md::engine {

struct DemoOptions
{
    int customers = 400;
    // Customers of the live environment; -1: a twentieth of the test ones.
    int liveCustomers = -1;
    // 0: the natural mix (a handful per customer); otherwise pad every customer
    // to exactly this many balance rows (the benchmark's 100).
    int balancesPerCustomer = 0;
    quint32 seed = 20261122;
    qint64 nowMs = 0;
    // Months of closed statements its customers start with: their first
    // periods open this many months back, and the clock closes them.
    int statementMonths = 3;
    // Put in the workspace as a test key with every scope (hashed on load).
    QString testSecret;
};

class DemoWorkspace final
{
public:
    static api::JsonValue build(const DemoOptions &options);
};

} // namespace md::engine
