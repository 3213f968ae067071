// A webhook endpoint's form: its URL, the events it hears (each, or all),
// a description and, for one that exists, whether it is sent to; with the
// review of what changes before anything is saved. A new endpoint's secret
// comes back in `saved`, for SecretDialog to show once.
#pragma once

#include "models/operator/WebhookEndpointModel.h"
#include "views/common/FormDialog.h"

class QCheckBox;
class QLineEdit;
class QListWidget;

namespace md::views {

class WebhookEndpointDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookEndpointDialog)

public:
    // `before`: the endpoint to edit; none to make a new one.
    WebhookEndpointDialog(models::WebhookEndpointModel *endpoints,
                          std::optional<api::WebhookEndpoint> before, QWidget *parent = nullptr);

    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *descriptionEdit() const { return m_description; }
    QCheckBox *everyEvent() const { return m_every; }
    QListWidget *events() const { return m_events; }
    QCheckBox *enabledBox() const { return m_enabled; }
    models::WebhookForm form() const;

Q_SIGNALS:
    void saved(const md::api::WebhookEndpoint &endpoint);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;

private:
    models::WebhookEndpointModel *m_endpoints;
    std::optional<api::WebhookEndpoint> m_before;
    QLineEdit *m_url;
    QLineEdit *m_description;
    QCheckBox *m_every;
    QListWidget *m_events;
    QCheckBox *m_enabled;
};

} // namespace md::views
