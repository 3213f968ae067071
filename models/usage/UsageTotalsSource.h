// The Usage chart's figures (usage_events.totals): the page's filter added
// up per day by the server or engine, over every event, grouped as the
// chart stacks them. Follows the filter with at most one request running:
// changes made meanwhile are asked for once it ends, the newest only, and
// its answer is dropped.
#pragma once

#include "services/api/UsageTotals.h"
#include "services/backend/BillingBackend.h"

#include <QObject>

#include <optional>

namespace md::models {

class UsageTotalsSource final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageTotalsSource)

public:
    // The chart names this many groups; the rest are one, "Other".
    static constexpr qint64 Groups = 6;

    explicit UsageTotalsSource(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Asks again when the filter (limit, cursor and search aside) or the
    // grouping changed, or always when `force`.
    void setFilter(const api::PageRequest &filter, bool force = false);
    void setGroupBy(api::UsageGroupBy groupBy);
    const api::UsageTotalsRequest &request() const { return m_request; }
    void reload();

    // The newest answer for the current request, once it came.
    const std::optional<api::UsageTotals> &totals() const { return m_totals; }
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    void changed();
    void failed(const api::ApiError &error);

private:
    void ask();

    backend::BillingBackend *m_backend;
    api::UsageTotalsRequest m_request;
    std::optional<api::UsageTotals> m_totals;
    bool m_loading = false;
    bool m_inFlight = false;
    bool m_askAgain = false;
    backend::Reply<api::UsageTotals> m_reply;
};

} // namespace md::models
