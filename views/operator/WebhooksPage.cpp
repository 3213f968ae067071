#include "views/operator/WebhooksPage.h"

#include "models/operator/WebhookDeliveryModel.h"
#include "models/operator/WebhookEndpointModel.h"
#include "views/operator/SecretDialog.h"
#include "views/operator/WebhookEndpointDialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::WebhookDeliveryModel;
using models::WebhookEndpointModel;

namespace {

QTableView *tableOf(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    return table;
}

} // namespace

WebhooksPage::WebhooksPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_endpoints(new WebhookEndpointModel(backend, this))
    , m_deliveries(new WebhookDeliveryModel(backend, this))
    , m_endpointTable(tableOf(m_endpoints, u"webhookEndpoints"_s, this))
    , m_new(new QPushButton(tr("&New endpoint…"), this))
    , m_edit(new QPushButton(tr("Ed&it…"), this))
    , m_test(new QPushButton(tr("Send te&st event"), this))
    , m_rotate(new QPushButton(tr("R&otate secret…"), this))
    , m_delete(new QPushButton(tr("&Delete…"), this))
    , m_empty(new QLabel(this))
    , m_status(new QComboBox(this))
    , m_type(new QComboBox(this))
    , m_deliveryTable(tableOf(m_deliveries, u"webhookDeliveries"_s, this))
    , m_answer(new QLabel(this))
    , m_detail(new QTextBrowser(this))
    , m_redeliver(new QPushButton(tr("&Redeliver"), this))
    , m_live(new QTimer(this))
{
    auto *endpointBar = new QHBoxLayout;
    auto *title = new QLabel(u"<b>%1</b>"_s.arg(tr("Endpoints")), this);
    title->setBuddy(m_endpointTable);
    endpointBar->addWidget(title);
    endpointBar->addStretch(1);
    for (QPushButton *button : {m_new, m_edit, m_test, m_rotate, m_delete})
        endpointBar->addWidget(button);
    m_new->setObjectName(u"newEndpoint"_s);
    m_edit->setObjectName(u"editEndpoint"_s);
    m_test->setObjectName(u"testEndpoint"_s);
    m_rotate->setObjectName(u"rotateSecret"_s);
    m_delete->setObjectName(u"deleteEndpoint"_s);
    m_redeliver->setObjectName(u"redeliver"_s);
    m_empty->setObjectName(u"webhooksEmpty"_s);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No endpoint hears this environment's events yet. New endpoint… adds "
                        "one: an https URL, the events it wants, and a secret to check them."));

    m_status->setObjectName(u"webhookStatus"_s);
    m_status->addItem(tr("Any status"));
    for (const api::DeliveryStatus status :
         {api::DeliveryStatus::Pending, api::DeliveryStatus::Succeeded,
          api::DeliveryStatus::Failed})
        m_status->addItem(WebhookDeliveryModel::statusWords(status), int(status));
    m_type->setObjectName(u"webhookType"_s);
    m_type->addItem(tr("Any event"));
    for (const QString &type : api::webhookEventTypes())
        m_type->addItem(type, type);
    auto *deliveryBar = new QHBoxLayout;
    auto *deliveriesTitle = new QLabel(u"<b>%1</b>"_s.arg(tr("Deliveries")), this);
    deliveriesTitle->setBuddy(m_deliveryTable);
    deliveryBar->addWidget(deliveriesTitle);
    deliveryBar->addStretch(1);
    const auto labelled = [&](const QString &text, QWidget *field) {
        auto *label = new QLabel(text, this);
        label->setBuddy(field);
        deliveryBar->addWidget(label);
        deliveryBar->addWidget(field);
    };
    labelled(tr("St&atus"), m_status);
    labelled(tr("Event t&ype"), m_type);
    deliveryBar->addWidget(m_redeliver);

    m_answer->setObjectName(u"webhookAnswer"_s);
    m_answer->setWordWrap(true);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setObjectName(u"webhookPayload"_s);
    m_detail->setPlaceholderText(tr("Select a delivery to see the event as it was sent."));
    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_answer);
    detailLayout->addWidget(m_detail, 1);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(m_deliveryTable);
    lower->addWidget(detail);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);

    auto *upper = new QWidget(this);
    auto *upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addLayout(endpointBar);
    upperLayout->addWidget(m_empty);
    upperLayout->addWidget(m_endpointTable, 1);
    auto *lowerBox = new QWidget(this);
    auto *lowerLayout = new QVBoxLayout(lowerBox);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addLayout(deliveryBar);
    lowerLayout->addWidget(lower, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(lowerBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(split);

    connect(m_new, &QPushButton::clicked, this, &WebhooksPage::newEndpoint);
    connect(m_edit, &QPushButton::clicked, this, &WebhooksPage::editEndpoint);
    connect(m_endpointTable, &QTableView::activated, this, [this] {
        if (m_edit->isEnabled()) // not for a key without webhooks:write
            editEndpoint();
    });
    connect(m_test, &QPushButton::clicked, this, &WebhooksPage::sendTest);
    connect(m_rotate, &QPushButton::clicked, this, &WebhooksPage::rotateSecret);
    connect(m_delete, &QPushButton::clicked, this, &WebhooksPage::deleteEndpoint);
    connect(m_redeliver, &QPushButton::clicked, this, &WebhooksPage::redeliver);
    connect(m_status, &QComboBox::currentIndexChanged, this, &WebhooksPage::applyFilter);
    connect(m_type, &QComboBox::currentIndexChanged, this, &WebhooksPage::applyFilter);
    connect(m_endpointTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] {
                applyFilter();
                updateState();
            });
    connect(m_deliveryTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WebhooksPage::showDelivery);
    connect(m_endpoints, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const int row = currentEndpoint();
        m_reselect = row >= 0 ? m_endpoints->endpoint(row).id : QString();
    });
    connect(m_endpoints, &models::ListTableModel::loaded, this, [this] {
        m_endpointTable->resizeColumnsToContents();
        const int row = m_reselect.isEmpty() ? 0 : std::max(0, m_endpoints->rowOf(m_reselect));
        if (row < m_endpoints->rowCount())
            m_endpointTable->setCurrentIndex(m_endpoints->index(row, 0));
        applyFilter();
        updateState();
    });
    connect(m_endpoints, &models::ListTableModel::failed, this, [this](const api::ApiError &e) {
        Q_EMIT statusMessage(tr("The webhook endpoints could not be loaded: %1").arg(e.message));
    });
    connect(m_deliveries, &QAbstractItemModel::modelReset, this, &WebhooksPage::showDelivery);
    connect(m_deliveries, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first) {
                if (first != 0)
                    return;
                int row = 0;
                for (int r = 0; !m_keptDelivery.isEmpty() && r < m_deliveries->rowCount(); ++r)
                    if (m_deliveries->delivery(r).id == m_keptDelivery)
                        row = r;
                if (m_keptDelivery.isEmpty())
                    m_deliveryTable->resizeColumnsToContents();
                m_keptDelivery.clear();
                m_deliveryTable->setCurrentIndex(m_deliveries->index(row, 0));
            });
    m_live->setObjectName(u"liveDeliveries"_s);
    m_live->setInterval(LiveMs);
    connect(m_live, &QTimer::timeout, this, &WebhooksPage::followDeliveries);
    connect(m_deliveries, &models::PagedTableModel::failed, this, [this](const api::ApiError &e) {
        Q_EMIT statusMessage(tr("The deliveries could not be loaded: %1").arg(e.message));
    });
    updateState();
}

void WebhooksPage::refresh()
{
    m_endpoints->reload();
}

void WebhooksPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh(); // deliveries move on their own: what is shown is read again
    m_live->start();
}

void WebhooksPage::hideEvent(QHideEvent *event)
{
    m_live->stop();
    QWidget::hideEvent(event);
}

void WebhooksPage::followDeliveries()
{
    if (m_deliveries->isLoading())
        return;
    bool waiting = false;
    for (int row = 0; row < m_deliveries->rowCount() && !waiting; ++row)
        waiting = m_deliveries->delivery(row).status == api::DeliveryStatus::Pending;
    for (int row = 0; row < m_endpoints->rowCount() && !waiting; ++row)
        waiting = m_endpoints->endpoint(row).pending > 0;
    if (!waiting)
        return;
    // The endpoints' Waiting and Health move with their deliveries: both are
    // read again (the endpoints' answer reads the deliveries), the selection kept.
    const QModelIndex current = m_deliveryTable->currentIndex();
    m_keptDelivery = current.isValid() ? m_deliveries->delivery(current.row()).id : QString();
    m_endpoints->reload();
}

int WebhooksPage::currentEndpoint() const
{
    const QModelIndex current = m_endpointTable->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void WebhooksPage::applyFilter()
{
    api::WebhookDeliveriesRequest filter;
    if (const int row = currentEndpoint(); row >= 0)
        filter.endpointId = m_endpoints->endpoint(row).id;
    if (m_status->currentIndex() > 0)
        filter.status = api::DeliveryStatus(m_status->currentData().toInt());
    if (m_type->currentIndex() > 0)
        filter.type = m_type->currentData().toString();
    m_deliveries->setFilter(filter);
}

void WebhooksPage::showDelivery()
{
    const QModelIndex current = m_deliveryTable->selectionModel()->currentIndex();
    m_redeliver->setEnabled(current.isValid());
    if (!current.isValid()) {
        m_answer->clear();
        m_detail->clear();
        return;
    }
    const api::WebhookDelivery &delivery = m_deliveries->delivery(current.row());
    m_answer->setText(tr("%1, %2 (%Ln attempt(s)), webhook-id %3", nullptr, int(delivery.attempts))
                          .arg(delivery.type, WebhookDeliveryModel::statusWords(delivery.status),
                               delivery.eventId) +
                      u"\n"_s + WebhookDeliveryModel::answerText(delivery));
    m_detail->setPlainText(WebhookDeliveryModel::payloadText(delivery));
}

void WebhooksPage::updateState()
{
    const bool chosen = currentEndpoint() >= 0;
    for (QPushButton *button : {m_edit, m_test, m_rotate, m_delete})
        button->setEnabled(chosen);
    m_empty->setVisible(m_endpoints->rowCount() == 0);
    if (chosen)
        m_test->setEnabled(m_endpoints->endpoint(currentEndpoint()).enabled);
}

WebhookEndpointDialog *WebhooksPage::newEndpoint()
{
    auto *dialog = new WebhookEndpointDialog(m_endpoints, std::nullopt, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &WebhookEndpointDialog::saved, this, [this](const api::WebhookEndpoint &made) {
        m_reselect = made.id;
        Q_EMIT statusMessage(tr("Webhook endpoint %1 made.").arg(made.url));
        showSecret(made, false);
    });
    dialog->open();
    return dialog;
}

WebhookEndpointDialog *WebhooksPage::editEndpoint()
{
    const int row = currentEndpoint();
    if (row < 0)
        return nullptr;
    auto *dialog = new WebhookEndpointDialog(m_endpoints, m_endpoints->endpoint(row), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &WebhookEndpointDialog::saved, this, [this](const api::WebhookEndpoint &e) {
        Q_EMIT statusMessage(tr("Webhook endpoint %1 saved.").arg(e.url));
    });
    dialog->open();
    return dialog;
}

void WebhooksPage::showSecret(const api::WebhookEndpoint &endpoint, bool rotated)
{
    if (!endpoint.secret)
        return;
    const QString url = endpoint.url.toHtmlEscaped();
    auto *shown = new SecretDialog(
        tr("Signing secret"),
        rotated ? tr("The new signing secret of %1. The previous one keeps signing beside it "
                     "for 24 hours, so the receiver can switch without refusing a delivery.")
                      .arg(url)
                : tr("The signing secret of %1. Give it to the receiver, which checks every "
                     "delivery's webhook-signature with it (Standard Webhooks).")
                      .arg(url),
        *endpoint.secret, this);
    shown->setAttribute(Qt::WA_DeleteOnClose);
    shown->open();
}

void WebhooksPage::sendTest()
{
    const int row = currentEndpoint();
    if (row < 0)
        return;
    const QString url = m_endpoints->endpoint(row).url;
    m_endpoints->sendTest(m_endpoints->endpoint(row).id)
        .then(this, [this, url](const api::Result<api::WebhookDelivery> &sent) {
            Q_EMIT statusMessage(
                sent ? tr("A test event is on its way to %1.").arg(url)
                     : tr("The test event was not sent: %1").arg(sent.error().message));
        });
}

void WebhooksPage::rotateSecret()
{
    const int row = currentEndpoint();
    if (row < 0)
        return;
    const api::WebhookEndpoint endpoint = m_endpoints->endpoint(row);
    if (QMessageBox::question(
            this, tr("Rotate the signing secret"),
            tr("Make a new signing secret for %1? The current one keeps signing beside it for "
               "24 hours; the receiver should switch within that day.")
                .arg(endpoint.url)) != QMessageBox::Yes)
        return;
    m_endpoints->rotateSecret(endpoint.id)
        .then(this, [this](const api::Result<api::WebhookEndpoint> &rotated) {
            if (!rotated) {
                QMessageBox::warning(this, tr("Secret not rotated"), rotated.error().message);
                return;
            }
            showSecret(rotated.value(), true);
        });
}

void WebhooksPage::deleteEndpoint()
{
    const int row = currentEndpoint();
    if (row < 0)
        return;
    const api::WebhookEndpoint endpoint = m_endpoints->endpoint(row);
    if (QMessageBox::question(
            this, tr("Delete the webhook endpoint"),
            tr("Delete %1? Its %Ln waiting delivery(s) and its history go with it; nothing more "
               "is sent there.",
               nullptr, int(endpoint.pending))
                .arg(endpoint.url)) != QMessageBox::Yes)
        return;
    m_endpoints->remove(endpoint.id)
        .then(this, [this, url = endpoint.url](const api::Result<api::WebhookEndpointDeleted> &r) {
            Q_EMIT statusMessage(r ? tr("Webhook endpoint %1 deleted.").arg(url)
                                   : tr("%1 was not deleted: %2").arg(url, r.error().message));
        });
}

void WebhooksPage::redeliver()
{
    const QModelIndex current = m_deliveryTable->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const api::WebhookDelivery delivery = m_deliveries->delivery(current.row());
    m_deliveries->redeliver(delivery.id)
        .then(this, [this, delivery](const api::Result<api::WebhookDelivery> &again) {
            Q_EMIT statusMessage(
                again ? tr("%1 will be sent again now, as %2.").arg(delivery.type, delivery.eventId)
                      : tr("Not sent again: %1").arg(again.error().message));
        });
}

} // namespace md::views
