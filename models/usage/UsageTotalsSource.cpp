#include "models/usage/UsageTotalsSource.h"

namespace md::models {

UsageTotalsSource::UsageTotalsSource(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{
    m_request.top = Groups;
    m_request.groupBy = api::UsageGroupBy::Model;
}

void UsageTotalsSource::setFilter(const api::PageRequest &filter, bool force)
{
    api::UsageTotalsRequest request = m_request;
    request.customerId = filter.customerId;
    request.featureId = filter.featureId;
    request.modelId = filter.modelId;
    request.from = filter.from;
    request.to = filter.to;
    if (!force && request == m_request && (m_totals || m_loading))
        return;
    m_request = request;
    reload();
}

void UsageTotalsSource::setGroupBy(api::UsageGroupBy groupBy)
{
    if (groupBy == m_request.groupBy)
        return;
    m_request.groupBy = groupBy;
    reload();
}

void UsageTotalsSource::reload()
{
    m_loading = true;
    // A request in flight is for an older filter: its answer is not shown,
    // and the newest filter is asked for once it has ended.
    if (m_inFlight) {
        m_askAgain = true;
        m_reply.cancel();
    } else {
        ask();
    }
}

void UsageTotalsSource::ask()
{
    m_inFlight = true;
    m_reply = m_backend->usageTotals(m_request);
    m_reply
        .then(this,
              [this](const api::Result<api::UsageTotals> &totals) {
                  m_inFlight = false;
                  if (std::exchange(m_askAgain, false))
                      return ask();
                  m_loading = false;
                  // On a failure the chart is emptied, not left showing another filter.
                  m_totals = totals ? std::optional(totals.value()) : std::nullopt;
                  Q_EMIT changed();
                  if (!totals)
                      Q_EMIT failed(totals.error());
              })
        .onCanceled(this, [this] {
            m_inFlight = false;
            if (std::exchange(m_askAgain, false))
                ask();
        });
}

} // namespace md::models
