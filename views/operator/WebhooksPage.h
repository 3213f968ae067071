// Webhooks, for admins (docs/user-guide.md, "Webhooks"): the environment's
// endpoints with their health; new and edited ones through a form with its
// review; a new or rotated secret shown once with a copy button; a test
// event; and the selected endpoint's deliveries, narrowed by status and
// event, with the selected one's payload, its attempts and the receiver's
// last answer, and Redeliver.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTextBrowser;
class QTimer;

namespace md::api {
struct WebhookEndpoint;
}
namespace md::backend {
class BillingBackend;
}
namespace md::models {
class WebhookDeliveryModel;
class WebhookEndpointModel;
} // namespace md::models

namespace md::views {

class WebhookEndpointDialog;

class WebhooksPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhooksPage)

public:
    explicit WebhooksPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::WebhookEndpointModel *endpoints() const { return m_endpoints; }
    models::WebhookDeliveryModel *deliveries() const { return m_deliveries; }
    QTableView *endpointTable() const { return m_endpointTable; }
    QTableView *deliveryTable() const { return m_deliveryTable; }
    QTextBrowser *detail() const { return m_detail; }
    QComboBox *statusFilter() const { return m_status; }
    QPushButton *redeliverButton() const { return m_redeliver; }
    QPushButton *testButton() const { return m_test; }
    void refresh();
    // While shown, deliveries still waiting are read again this often, so
    // "Waiting, 0 attempts" moves on without F5.
    static constexpr int LiveMs = 2000;

    // The forms, opened (non-modal) and returned, for the buttons and the tests.
    WebhookEndpointDialog *newEndpoint();
    WebhookEndpointDialog *editEndpoint();
    void sendTest();
    void rotateSecret();
    void deleteEndpoint();
    void redeliver();

Q_SIGNALS:
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void applyFilter();
    void showDelivery();
    void updateState();
    void showSecret(const api::WebhookEndpoint &endpoint, bool rotated);
    int currentEndpoint() const;
    // Reads the deliveries again when one shown is still waiting, keeping
    // the selected one selected.
    void followDeliveries();

    models::WebhookEndpointModel *m_endpoints;
    models::WebhookDeliveryModel *m_deliveries;
    QTableView *m_endpointTable;
    QPushButton *m_new;
    QPushButton *m_edit;
    QPushButton *m_test;
    QPushButton *m_rotate;
    QPushButton *m_delete;
    QLabel *m_empty;
    QComboBox *m_status;
    QComboBox *m_type;
    QTableView *m_deliveryTable;
    QLabel *m_answer;
    QTextBrowser *m_detail;
    QPushButton *m_redeliver;
    QString m_reselect; // the endpoint current before a reload
    QTimer *m_live;
    QString m_keptDelivery; // the delivery selected before a live reload
};

} // namespace md::views
