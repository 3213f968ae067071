#include "models/import/StripeSource.h"

#include "models/common/FieldWords.h"
#include "models/common/WhenDone.h"

namespace md::models {

StripeSource::StripeSource(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

void StripeSource::read(qint64 pageSize)
{
    m_subscriptions.clear();
    m_products.clear();
    m_pageSize = pageSize;
    m_reading = true;
    readPage(std::nullopt, ++m_generation);
}

void StripeSource::cancel()
{
    if (!m_reading)
        return;
    ++m_generation; // the page in flight is dropped when it comes
    m_reading = false;
    m_subscriptions.clear();
    m_products.clear();
    Q_EMIT canceled();
}

void StripeSource::readPage(const std::optional<QString> &after, quint64 generation)
{
    whenDone(m_backend->stripeSubscriptions({after, m_pageSize}), this,
             [this, generation](const api::Result<api::StripeSubscriptionsPage> &page) {
                 if (generation != m_generation)
                     return;
                 if (!page) {
                     m_reading = false;
                     Q_EMIT failed(FieldWords::sentence(page.error()));
                     return;
                 }
                 for (const api::StripeProductName &product : page.value().products)
                     m_products.insert(product.id, product.name);
                 m_subscriptions += page.value().data;
                 Q_EMIT progressed(int(m_subscriptions.size()));
                 if (generation != m_generation) // canceled meanwhile
                     return;
                 if (page.value().hasMore && !page.value().data.isEmpty()) {
                     readPage(page.value().data.last().id, generation);
                     return;
                 }
                 m_reading = false;
                 Q_EMIT finished();
             });
}

} // namespace md::models
