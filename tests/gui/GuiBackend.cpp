#include "tests/gui/GuiBackend.h"

#include "services/embedded/EngineBackend.h"
#include "services/engine/ApiOperations.h"
#include "services/engine/Engine.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "services/remote/RemoteBackend.h"
#include "services/server/PortalServer.h"
#include "tests/support/JsonEdit.h"

#include <QDateTime>

namespace md::test {

using namespace Qt::StringLiterals;

std::unique_ptr<backend::BillingBackend> openGuiBackend(const QString &location, const QString &key,
                                                        ServerProcess &server, QString *problem)
{
    if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1) {
        *problem = server.start(location);
        if (!problem->isEmpty())
            return nullptr;
        return std::make_unique<remote::RemoteBackend>(server.url(), key);
    }
    auto engine = std::make_unique<embedded::EngineBackend>(location, engine::Clock(), key,
                                                            server::PortalServer::starter());
    auto prepared = engine->prepare(false);
    prepared.waitForFinished();
    if (!prepared.result().ok()) {
        *problem = prepared.result().error().message;
        return nullptr;
    }
    return engine;
}

std::unique_ptr<backend::BillingBackend> openLoadedBackend(const QString &location,
                                                           const QString &file, const QString &key,
                                                           ServerProcess &server, QString *problem)
{
    {
        engine::Engine setup(location);
        auto loaded = setup.open();
        if (loaded)
            if (auto workspace = setup.loadWorkspaceFile(file); !workspace)
                loaded = workspace.error();
        if (!loaded) {
            *problem = loaded.error().message;
            return nullptr;
        }
    }
    return openGuiBackend(location, key, server, problem);
}

QJsonObject loadDemo(const QString &location, const QString &key, int customers, QString *problem)
{
    engine::Engine setup(location);
    if (auto opened = setup.open(); !opened) {
        *problem = opened.error().message;
        return {};
    }
    engine::DemoOptions options;
    options.customers = customers;
    options.nowMs = QDateTime::currentMSecsSinceEpoch();
    options.testSecret = key;
    const QJsonObject demo = toQt(engine::DemoWorkspace::build(options));
    if (auto loaded = setup.loadWorkspace(fromQt(demo)); !loaded) {
        *problem = loaded.error().message;
        return {};
    }
    return demo;
}

qsizetype activeRows(const QString &location, const QString &key)
{
    engine::Engine engine(location);
    if (!engine.open().ok())
        return -1;
    auto caller = engine.authenticate(key);
    if (!caller)
        return -1;
    api::ListBalancesRequest all;
    all.limit = api::ListBalancesRequest::MaxLimit;
    qsizetype rows = 0;
    for (;;) {
        auto page = engine::ApiOperations(engine).listBalances(caller.value(), all);
        if (!page)
            return -1;
        rows += page.value().list.size();
        if (!page.value().hasMore)
            return rows;
        all.startCursor = *page.value().nextCursor;
    }
}

} // namespace md::test
