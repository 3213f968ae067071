#include "models/balances/FilterChoices.h"

#include <algorithm>

namespace md::models {

FilterChoices::FilterChoices(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

void FilterChoices::reload()
{
    m_backend->listFeatures().then(
        this, [this](const api::Result<api::Page<api::FeatureInfo>> &features) {
            if (!features)
                return Q_EMIT failed(
                    tr("The features could not be loaded: %1").arg(features.error().message));
            m_features.clear();
            for (const api::FeatureInfo &feature : features.value().list)
                m_features.append({feature.id, feature.name});
            Q_EMIT featuresChanged();
        });
    m_backend->listProducts().then(
        this, [this](const api::Result<api::Page<api::Product>> &products) {
            if (!products)
                return Q_EMIT failed(
                    tr("The plans could not be loaded: %1").arg(products.error().message));
            m_plans.clear();
            for (const api::Product &product : products.value().list) // versions share an id
                if (std::none_of(m_plans.cbegin(), m_plans.cend(),
                                 [&](const Choice &plan) { return plan.id == product.id; }))
                    m_plans.append({product.id, product.name});
            Q_EMIT plansChanged();
        });
}

void FilterChoices::searchCustomers(const QString &text)
{
    m_searched = text.trimmed();
    api::PageRequest request;
    request.search = m_searched;
    m_backend->listCustomers(request).then(
        this,
        [this, searched = m_searched](const api::Result<api::Page<api::CustomerSummary>> &page) {
            if (searched != m_searched)
                return; // typed on since
            if (!page)
                return Q_EMIT failed(
                    tr("Customers could not be searched: %1").arg(page.error().message));
            QList<Customer> found;
            for (const api::CustomerSummary &customer : page.value().list)
                found.append({customer.id, customer.name, customer.email});
            Q_EMIT customersFound(searched, found, page.value().hasMore);
        });
}

} // namespace md::models
