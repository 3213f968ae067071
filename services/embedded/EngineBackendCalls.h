// How EngineBackend runs an operation: on its pools, as the acting key,
// with the request encoded and decoded as the wire would. Shared by the
// files that implement EngineBackend's methods.
#pragma once

#include "services/api/WireCodec.h"
#include "services/embedded/EngineBackend.h"

#include <QtConcurrent/QtConcurrentRun>

namespace md::embedded {

namespace calls {

// The request as a server would see it: encoded and decoded again, so the
// embedded path rejects exactly what the wire rejects.
template <typename R> inline api::Result<R> asReceived(const R &request)
{
    return api::decodeBody<R>(api::toJsonText(request));
}

} // namespace calls

template <typename T, typename F> Reply<T> EngineBackend::run(F &&call)
{
    return QtConcurrent::run(&m_pool, [this, call = std::forward<F>(call)]() -> api::Result<T> {
        auto key = actingKey();
        if (!key)
            return key.error();
        return call(m_service, key.value());
    });
}

template <typename T, typename R, typename F>
Reply<T> EngineBackend::runReceived(const R &request, F &&call)
{
    return run<T>([request, call = std::forward<F>(call)](
                      engine::ApiOperations &s, const engine::KeyContext &k) -> api::Result<T> {
        auto received = calls::asReceived(request);
        if (!received)
            return received.error();
        return call(s, k, received.value());
    });
}

template <typename T, typename R, typename F>
Reply<T> EngineBackend::runScan(const R &request, F &&call)
{
    return QtConcurrent::run(&m_scanPool, [this, request, call = std::forward<F>(call)](
                                              QPromise<api::Result<T>> &promise) {
        promise.addResult([&]() -> api::Result<T> {
            auto key = actingKey();
            if (!key)
                return key.error();
            auto received = calls::asReceived(request);
            if (!received)
                return received.error();
            return call(m_service, key.value(), received.value(),
                        [&promise] { return promise.isCanceled(); });
        }());
    });
}

} // namespace md::embedded
