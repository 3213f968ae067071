// A customer's or entity's billing controls (docs/billing-controls.md), read
// for the Controls tab and saved from its dialog, and the balances its
// usage alerts watch.
#pragma once

#include "models/customers/BillingControlsEdit.h"
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
    // The owner's active balance rows, every page (BillingControlsEdit::rowsOf).
    backend::Reply<QList<api::BalanceRow>> rows(const api::ControlsOwner &owner, QObject *context)
    {
        return BillingControlsEdit::rowsOf(m_backend, owner, context);
    }

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
