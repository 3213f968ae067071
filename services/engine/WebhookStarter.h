// Sending webhooks takes an HTTP client, which the engine and EngineBackend
// do not link (docs/architecture.md): whoever can send hands EngineBackend a
// WebhookStarter (server::WebhookSender::starter()). It starts sending the
// engine's outbox and answers what keeps it sending (dropping it stops).
#pragma once

#include <functional>
#include <memory>

namespace md::engine {

class Engine;

using WebhookStarter = std::function<std::shared_ptr<void>(Engine &engine)>;

} // namespace md::engine
