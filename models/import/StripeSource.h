// The import wizard's Stripe source (docs/user-guide.md, "Importing from
// Stripe"): the organization's Stripe subscriptions, read page by page
// (processors.subscriptions, 100 a page) off the GUI thread, with progress
// after each page and Cancel between pages; then the products' names, for
// mapping prices to plans (StripePriceMapping).
#pragma once

#include "services/api/StripeSubscriptions.h"
#include "services/backend/BillingBackend.h"

#include <QHash>
#include <QObject>

namespace md::models {

class StripeSource final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StripeSource)

public:
    explicit StripeSource(backend::BillingBackend *backend, QObject *parent = nullptr);

    // From the first page; what an earlier read held is dropped.
    void read(qint64 pageSize = api::StripeSubscriptionsRequest::MaxLimit);
    // Stops before the next page; what was read is dropped.
    void cancel();
    bool isReading() const { return m_reading; }
    const QList<api::StripeSubscriptionInfo> &subscriptions() const { return m_subscriptions; }
    // Product id → name.
    const QHash<QString, QString> &productNames() const { return m_products; }

Q_SIGNALS:
    void progressed(int subscriptionsRead);
    void finished();
    void canceled();
    void failed(const QString &problem);

private:
    void readPage(const std::optional<QString> &after, quint64 generation);

    backend::BillingBackend *m_backend;
    QList<api::StripeSubscriptionInfo> m_subscriptions;
    QHash<QString, QString> m_products;
    qint64 m_pageSize = api::StripeSubscriptionsRequest::MaxLimit;
    quint64 m_generation = 0;
    bool m_reading = false;
};

} // namespace md::models
