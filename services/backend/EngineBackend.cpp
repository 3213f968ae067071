#include "services/backend/EngineBackend.h"

#include "services/engine/DemoWorkspace.h"

#include <QtConcurrent/QtConcurrentRun>

namespace md::backend {

using namespace Qt::StringLiterals;

EngineBackend::EngineBackend(const QString &location, engine::Clock clock)
    : m_engine(std::make_shared<engine::Engine>(location, std::move(clock)))
{
    // Threads stay alive so their database connections are reused.
    m_pool.setMaxThreadCount(2);
    m_pool.setExpiryTimeout(-1);
}

EngineBackend::~EngineBackend()
{
    m_pool.waitForDone();
}

QFuture<api::Result<bool>> EngineBackend::prepare(bool loadDemoIfEmpty)
{
    return QtConcurrent::run(&m_pool, [engine = m_engine, loadDemoIfEmpty]() -> api::Result<bool> {
        if (auto opened = engine->open(); !opened)
            return opened.error();
        auto empty = engine->isEmpty();
        if (!empty)
            return empty.error();
        if (!loadDemoIfEmpty || !empty.value())
            return false;
        engine::DemoOptions options;
        options.nowMs = engine->now();
        if (auto loaded = engine->loadWorkspace(engine::DemoWorkspace::build(options)); !loaded)
            return loaded.error();
        return true;
    });
}

api::Result<engine::OrganizationInfo> EngineBackend::actingOrganization()
{
    auto orgs = m_engine->organizations();
    if (!orgs)
        return orgs.error();
    for (const engine::OrganizationInfo &org : orgs.value())
        if (!org.isTenant)
            return org;
    return api::ApiError::notFound(
        u"not_found"_s,
        u"the workspace has no organization yet; load a workspace file or the demo"_s);
}

QFuture<api::Result<api::ListBalancesResponse>>
EngineBackend::listBalances(const api::ListBalancesRequest &request)
{
    return QtConcurrent::run(&m_pool, [this, request]() -> api::Result<api::ListBalancesResponse> {
        auto org = actingOrganization();
        if (!org)
            return org.error();
        return m_engine->listBalances({org.value().pk, engine::Environment::Test}, request);
    });
}

QFuture<api::Result<ConnectionInfo>> EngineBackend::connectionInfo()
{
    return QtConcurrent::run(&m_pool, [this]() -> api::Result<ConnectionInfo> {
        auto org = actingOrganization();
        if (!org)
            return org.error();
        return ConnectionInfo{m_engine->database().displayName(), u"embedded"_s, u"test"_s,
                              org.value().slug, org.value().name};
    });
}

} // namespace md::backend
