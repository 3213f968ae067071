// The Webhooks page's deliveries (docs/api.md, "webhook_deliveries.list"),
// newest first, paged on demand, narrowed by endpoint, status and event
// type; the selected one's payload and the receiver's last answer in words;
// a delivery sent again.
#pragma once

#include "models/common/PagedTableModel.h"
#include "services/api/Webhook.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

class WebhookDeliveryModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookDeliveryModel)

public:
    enum Column {
        CreatedColumn,
        TypeColumn,
        StatusColumn,
        AttemptsColumn,
        AnswerColumn,
        NextColumn,
        ColumnCount
    };

    explicit WebhookDeliveryModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Only endpoint, status and type are used.
    void setFilter(const api::WebhookDeliveriesRequest &filter);
    const api::WebhookDeliveriesRequest &filter() const { return m_filter; }
    void reload() { restart(); }
    const api::WebhookDelivery &delivery(int row) const { return m_rows.at(row); }
    backend::Reply<api::WebhookDelivery> redeliver(const QString &id);

    // The event as sent, indented.
    static QString payloadText(const api::WebhookDelivery &delivery);
    // The last attempt in words: the receiver's status and answer, or why there was none.
    static QString answerText(const api::WebhookDelivery &delivery);
    static QString statusWords(api::DeliveryStatus status);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    api::WebhookDeliveriesRequest m_filter;
    QList<api::WebhookDelivery> m_rows;
};

} // namespace md::models
