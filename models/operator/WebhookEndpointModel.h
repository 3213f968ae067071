// The Webhooks page's endpoints (docs/api.md, "Webhooks"): each with its
// URL, events and health, made, changed, deleted, its secret rotated and a
// test event sent through the backend; and the form's draft, what it would
// change and the request that changes it, so a form saved unchanged sends
// nothing.
#pragma once

#include "models/common/FieldChange.h"
#include "models/common/ListTableModel.h"
#include "services/api/Webhook.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

// What the endpoint form holds.
struct WebhookForm
{
    QString url;
    QStringList events; // types, or {"*"}
    QString description;
    bool enabled = true;

    static WebhookForm of(const api::WebhookEndpoint &endpoint);
    // What is wrong with it, in words (nullopt when it may be sent).
    std::optional<QString> problem() const;
    friend bool operator==(const WebhookForm &, const WebhookForm &) = default;
};

class WebhookEndpointModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookEndpointModel)

public:
    enum Column { UrlColumn, EventsColumn, HealthColumn, PendingColumn, ColumnCount };

    explicit WebhookEndpointModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload();
    const api::WebhookEndpoint &endpoint(int row) const { return m_rows.at(row); }
    // The row of an endpoint by id, or -1.
    int rowOf(const QString &id) const;

    // Each reloads the list once the server answered.
    backend::Reply<api::WebhookEndpoint> create(const WebhookForm &form);
    // nullopt: nothing to send (the form is the endpoint as it is).
    std::optional<backend::Reply<api::WebhookEndpoint>> update(const api::WebhookEndpoint &before,
                                                               const WebhookForm &form);
    backend::Reply<api::WebhookEndpointDeleted> remove(const QString &id);
    backend::Reply<api::WebhookEndpoint> rotateSecret(const QString &id);
    backend::Reply<api::WebhookDelivery> sendTest(const QString &id);

    // The form's changes against `before` (none: a new endpoint), field by field.
    static QList<FieldChange> changes(const api::WebhookEndpoint *before, const WebhookForm &form);
    static QString eventsText(const QStringList &events);
    static QString healthText(const api::WebhookEndpoint &endpoint);
    // An event type in words, for the form's list ("*": every event).
    static QString eventWords(const QString &type);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    template <typename T> backend::Reply<T> reloading(backend::Reply<T> reply);

    backend::BillingBackend *m_backend;
    QList<api::WebhookEndpoint> m_rows;
};

} // namespace md::models
