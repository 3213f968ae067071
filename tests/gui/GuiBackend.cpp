#include "tests/gui/GuiBackend.h"

#include "services/embedded/EngineBackend.h"
#include "services/remote/RemoteBackend.h"
#include "services/server/PortalServer.h"

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

} // namespace md::test
