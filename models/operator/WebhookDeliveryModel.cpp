#include "models/operator/WebhookDeliveryModel.h"

#include "models/common/AmountFormat.h"

#include <QColor>

namespace md::models {

using namespace Qt::StringLiterals;

WebhookDeliveryModel::WebhookDeliveryModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void WebhookDeliveryModel::setFilter(const api::WebhookDeliveriesRequest &filter)
{
    m_filter = {filter.endpointId, filter.status, filter.type, 100, {}};
    restart();
}

void WebhookDeliveryModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::WebhookDeliveriesRequest request = m_filter;
    request.startCursor = cursor;
    m_backend->listWebhookDeliveries(request).then(
        this, [this, generation](const api::Result<api::Page<api::WebhookDelivery>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

backend::Reply<api::WebhookDelivery> WebhookDeliveryModel::redeliver(const QString &id)
{
    return m_backend->redeliverWebhook({id}).then(
        this, [this](const api::Result<api::WebhookDelivery> &result) {
            if (result)
                restart();
            return result;
        });
}

QString WebhookDeliveryModel::payloadText(const api::WebhookDelivery &delivery)
{
    return QString::fromUtf8(delivery.payload.toJson(true));
}

QString WebhookDeliveryModel::answerText(const api::WebhookDelivery &delivery)
{
    if (delivery.attempts == 0)
        return tr("Not sent yet.");
    QString text;
    if (delivery.lastStatusCode)
        text = tr("The receiver answered %1.").arg(*delivery.lastStatusCode);
    if (delivery.lastError && !delivery.lastError->isEmpty())
        text += (text.isEmpty() ? QString() : u" "_s) + *delivery.lastError;
    if (delivery.lastAnswer && !delivery.lastAnswer->isEmpty())
        text += u"\n\n"_s + *delivery.lastAnswer;
    return text;
}

QString WebhookDeliveryModel::statusWords(api::DeliveryStatus status)
{
    switch (status) {
    case api::DeliveryStatus::Pending:
        return tr("Waiting");
    case api::DeliveryStatus::Succeeded:
        return tr("Delivered");
    case api::DeliveryStatus::Failed:
        return tr("Failed");
    }
    return {};
}

int WebhookDeliveryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WebhookDeliveryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case CreatedColumn:
        return tr("Event at");
    case TypeColumn:
        return tr("Event");
    case StatusColumn:
        return tr("Status");
    case AttemptsColumn:
        return tr("Attempts");
    case AnswerColumn:
        return tr("Last answer");
    case NextColumn:
        return tr("Next attempt");
    default:
        return {};
    }
}

QVariant WebhookDeliveryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::WebhookDelivery &delivery = m_rows.at(index.row());
    if (role == Qt::ForegroundRole && index.column() == StatusColumn &&
        delivery.status == api::DeliveryStatus::Failed)
        return QColor(220, 50, 50);
    if (role == Qt::TextAlignmentRole && index.column() == AttemptsColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == AnswerColumn)
        return answerText(delivery);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case CreatedColumn:
        return formatShortTimestamp(delivery.createdAt);
    case TypeColumn:
        return delivery.type;
    case StatusColumn:
        return statusWords(delivery.status);
    case AttemptsColumn:
        return delivery.attempts;
    case AnswerColumn:
        if (delivery.lastStatusCode)
            return QString::number(*delivery.lastStatusCode);
        return delivery.lastError.value_or(QString());
    case NextColumn:
        return delivery.nextAttemptAt
                   ? (*delivery.nextAttemptAt == 0 ? tr("now")
                                                   : formatShortTimestamp(*delivery.nextAttemptAt))
                   : QString();
    default:
        return {};
    }
}

} // namespace md::models
