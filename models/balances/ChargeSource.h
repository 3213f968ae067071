// What a balance row has come to in its open billing period so far
// (docs/billing.md): the row's line of its customer's charges.preview, for
// the balance detail. Only usage-based rows with a price have one.
#pragma once

#include "services/backend/BillingBackend.h"

#include <optional>

namespace md::models {

class ChargeSource final
{
public:
    explicit ChargeSource(backend::BillingBackend *backend)
        : m_backend(backend)
    {}

    static bool charged(const api::BalanceRow &row)
    {
        return row.price && !row.unlimited && row.status == api::BalanceStatus::Active &&
               row.price->billingMethod == api::BillingMethod::UsageBased;
    }

    // The customer's preview, to be searched for the row's line.
    backend::Reply<api::ChargesPreview> preview(const api::BalanceRow &row)
    {
        return m_backend->chargesPreview({row.customerId});
    }

    static std::optional<api::ChargeLine> lineOf(const api::ChargesPreview &preview,
                                                 const QString &balanceId)
    {
        for (const api::ChargeLine &line : preview.lines)
            if (line.balanceId == balanceId)
                return line;
        return std::nullopt;
    }

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
