// The one interface views and models use to reach billing data, whether the
// engine is embedded or remote. Every call is asynchronous and never blocks
// the calling thread; results are values or ApiErrors.
#pragma once

#include "services/api/ListBalances.h"
#include "services/api/Result.h"

#include <QFuture>
#include <QString>

namespace md::backend {

// Who the console is connected as (a Meterdesk extension, not a spec endpoint).
struct ConnectionInfo
{
    QString location;    // database path or server URL, without secrets
    QString kind;        // "embedded" or "remote"
    QString environment; // "test" or "live"
    QString orgSlug;
    QString orgName;
};

class BillingBackend
{
public:
    virtual ~BillingBackend() = default;

    // Spec endpoint: POST /v1/balances.list (billing-api.md §4.1).
    virtual QFuture<api::Result<api::ListBalancesResponse>>
    listBalances(const api::ListBalancesRequest &request) = 0;

    // Meterdesk extension: the connection's identity for the status bar.
    virtual QFuture<api::Result<ConnectionInfo>> connectionInfo() = 0;
};

} // namespace md::backend
