// BillingBackend over the embedded engine: each call runs on a small pool of
// worker threads, each with its own database connection.
#pragma once

#include "services/backend/BillingBackend.h"
#include "services/engine/Engine.h"

#include <QThreadPool>

#include <memory>

namespace md::backend {

class EngineBackend final : public BillingBackend
{
public:
    // The console acts for the first master organization, in its test environment.
    explicit EngineBackend(const QString &location, engine::Clock clock = {});
    ~EngineBackend() override;
    Q_DISABLE_COPY_MOVE(EngineBackend)

    // Migrates the database and, when asked and it is empty, loads the demo
    // workspace. Run once before other calls; reports whether the demo was loaded.
    QFuture<api::Result<bool>> prepare(bool loadDemoIfEmpty);

    QFuture<api::Result<api::ListBalancesResponse>>
    listBalances(const api::ListBalancesRequest &request) override;
    QFuture<api::Result<ConnectionInfo>> connectionInfo() override;

private:
    api::Result<engine::OrganizationInfo> actingOrganization();

    std::shared_ptr<engine::Engine> m_engine;
    QThreadPool m_pool;
};

} // namespace md::backend
