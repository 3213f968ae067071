// The Price a call dialog: the models a call may name, what a call would
// cost without recording it, and recording it for real.
#pragma once

#include "services/backend/BillingBackend.h"

namespace md::models {

class CallPricer final
{
public:
    explicit CallPricer(backend::BillingBackend *backend)
        : m_backend(backend)
    {}

    backend::Reply<api::Page<api::ModelInfo>> models() { return m_backend->listModels(); }
    backend::Reply<api::CallQuote> quote(const api::TrackTokensRequest &call)
    {
        return m_backend->priceCall(call);
    }
    backend::Reply<api::TrackTokensResponse> track(const api::TrackTokensRequest &call)
    {
        return m_backend->trackTokens(call);
    }

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
