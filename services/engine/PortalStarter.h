// Serving an engine's billing portal pages takes an HTTP server, which the
// engine and EngineBackend do not link (docs/architecture.md): whoever can run
// one hands EngineBackend a PortalStarter. It starts serving the engine's
// portal pages, points the engine's portal links there, and answers what
// keeps them served (dropping it stops the server).
#pragma once

#include "services/api/Result.h"

#include <functional>
#include <memory>

namespace md::engine {

class Engine;

using PortalStarter = std::function<api::Result<std::shared_ptr<void>>(Engine &engine)>;

} // namespace md::engine
