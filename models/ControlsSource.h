// A customer's or entity's billing controls (docs/billing-controls.md), read
// for the Controls tab and saved from its dialog.
#pragma once

#include "services/backend/BillingBackend.h"

namespace md::models {

class ControlsSource final
{
public:
    explicit ControlsSource(backend::BillingBackend *backend)
        : m_backend(backend)
    {}

    backend::Reply<api::BillingControlsAnswer> read(const api::ControlsOwner &owner)
    {
        return m_backend->billingControls(owner);
    }
    backend::Reply<api::BillingControlsAnswer>
    save(const api::UpdateBillingControlsRequest &request)
    {
        return m_backend->updateBillingControls(request);
    }

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
