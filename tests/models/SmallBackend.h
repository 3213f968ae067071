// What the model tests share: the small fixture workspace in a SQLite file of
// the test's own behind an EngineBackend on a fixed clock (10 s), and a wait
// for a loading model to settle, on its own signal.
#pragma once

#include "services/embedded/EngineBackend.h"
#include "tests/engine/EngineFixture.h"

#include <QSignalSpy>

namespace md::test {

// Null when the workspace could not be made.
inline std::unique_ptr<embedded::EngineBackend> smallBackend(const QString &location)
{
    const engine::Clock at10s = [] { return qint64(10000); };
    {
        // Loaded on the same clock: a load applies what has fallen due.
        engine::Engine engine(location, at10s);
        if (!engine.open().ok() || !engine.loadWorkspace(smallWorkspace()).ok())
            return nullptr;
    }
    auto backend = std::make_unique<embedded::EngineBackend>(location, at10s);
    auto prepared = backend->prepare(false);
    prepared.waitForFinished();
    return prepared.result().ok() ? std::move(backend) : nullptr;
}

template <typename Model> bool waitIdle(Model &model)
{
    QSignalSpy done(&model, &Model::loadingChanged);
    while (model.isLoading())
        if (!done.wait(5000))
            return false;
    return true;
}

} // namespace md::test
