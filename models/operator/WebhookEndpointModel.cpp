#include "models/operator/WebhookEndpointModel.h"

#include "models/common/AmountFormat.h"

#include <QColor>
#include <QUrl>

namespace md::models {

using namespace Qt::StringLiterals;

WebhookForm WebhookForm::of(const api::WebhookEndpoint &endpoint)
{
    return {endpoint.url, endpoint.events, endpoint.description.value_or(QString()),
            endpoint.enabled};
}

std::optional<QString> WebhookForm::problem() const
{
    const QUrl parsed(url.trimmed(), QUrl::StrictMode);
    if (url.trimmed().isEmpty())
        return QObject::tr("Enter the URL the events are sent to.");
    if (!parsed.isValid() || parsed.host().isEmpty() ||
        (parsed.scheme() != "https"_L1 && parsed.scheme() != "http"_L1))
        return QObject::tr("The URL must start with https:// and name a host.");
    if (events.isEmpty())
        return QObject::tr("Choose at least one event, or all events.");
    if (description.size() > api::WebhookEndpoint::MaxDescription)
        return QObject::tr("The description is longer than %1 characters.")
            .arg(api::WebhookEndpoint::MaxDescription);
    return std::nullopt;
}

WebhookEndpointModel::WebhookEndpointModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

void WebhookEndpointModel::reload()
{
    load(m_backend->listWebhookEndpoints(), [this](const api::Page<api::WebhookEndpoint> &page) {
        replaceRows([&] { m_rows = page.list; });
    });
}

int WebhookEndpointModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).id == id)
            return row;
    return -1;
}

template <typename T> backend::Reply<T> WebhookEndpointModel::reloading(backend::Reply<T> reply)
{
    return reply.then(this, [this](const api::Result<T> &result) {
        if (result)
            reload();
        return result;
    });
}

backend::Reply<api::WebhookEndpoint> WebhookEndpointModel::create(const WebhookForm &form)
{
    api::WebhookEndpointCreate request{form.url.trimmed(), form.events,
                                       form.description.trimmed().isEmpty()
                                           ? std::nullopt
                                           : std::optional(form.description.trimmed())};
    return reloading(m_backend->createWebhookEndpoint(request));
}

std::optional<backend::Reply<api::WebhookEndpoint>>
WebhookEndpointModel::update(const api::WebhookEndpoint &before, const WebhookForm &form)
{
    const WebhookForm was = WebhookForm::of(before);
    api::WebhookEndpointUpdate request;
    request.id = before.id;
    if (form.url.trimmed() != was.url)
        request.url = form.url.trimmed();
    if (form.events != was.events)
        request.events = form.events;
    if (form.description.trimmed() != was.description)
        request.description = form.description.trimmed().isEmpty()
                                  ? std::nullopt
                                  : std::optional(form.description.trimmed());
    if (form.enabled != was.enabled)
        request.enabled = form.enabled;
    if (!request.url && !request.events && !request.description && !request.enabled)
        return std::nullopt;
    return reloading(m_backend->updateWebhookEndpoint(request));
}

backend::Reply<api::WebhookEndpointDeleted> WebhookEndpointModel::remove(const QString &id)
{
    return reloading(m_backend->deleteWebhookEndpoint({id}));
}

backend::Reply<api::WebhookEndpoint> WebhookEndpointModel::rotateSecret(const QString &id)
{
    return reloading(m_backend->rotateWebhookSecret({id}));
}

backend::Reply<api::WebhookDelivery> WebhookEndpointModel::sendTest(const QString &id)
{
    return reloading(m_backend->sendTestWebhook({id}));
}

QList<FieldChange> WebhookEndpointModel::changes(const api::WebhookEndpoint *before,
                                                 const WebhookForm &form)
{
    const WebhookForm was = before ? WebhookForm::of(*before) : WebhookForm{{}, {}, {}, true};
    QList<FieldChange> changed;
    const auto note = [&](const QString &field, const QString &from, const QString &to) {
        if (from != to)
            changed.append({field, from, to});
    };
    note(tr("URL"), was.url, form.url.trimmed());
    note(tr("Events"), before ? eventsText(was.events) : QString(), eventsText(form.events));
    note(tr("Description"), was.description, form.description.trimmed());
    if (before)
        note(tr("Sending"), was.enabled ? tr("on") : tr("off"),
             form.enabled ? tr("on") : tr("off"));
    return changed;
}

QString WebhookEndpointModel::eventWords(const QString &type)
{
    static const QHash<QString, const char *> words{
        {u"*"_s, QT_TR_NOOP("Every event")},
        {u"balances.usage_alert_triggered"_s, QT_TR_NOOP("A usage alert fired")},
        {u"balances.limit_reached"_s, QT_TR_NOOP("A spend or usage limit refused a call")},
        {u"balances.reset"_s, QT_TR_NOOP("A balance was reset")},
        {u"balances.expired"_s, QT_TR_NOOP("A balance expired")},
        {u"track_queue.failed"_s, QT_TR_NOOP("An accepted async call failed")},
        {u"customer.imported"_s, QT_TR_NOOP("A customer was imported")},
        {u"product.updated"_s, QT_TR_NOOP("A product changed")},
        {u"reward.updated"_s, QT_TR_NOOP("A reward changed")},
        {u"environment.promoted"_s, QT_TR_NOOP("The sandbox was promoted to production")},
        {u"balance.adjusted"_s, QT_TR_NOOP("A balance was adjusted by hand")},
        {u"balance.created"_s, QT_TR_NOOP("A balance was made by hand")},
        {u"webhook_endpoint.test"_s, QT_TR_NOOP("A test event")},
    };
    const auto it = words.constFind(type);
    return it == words.cend() ? type : tr(it.value());
}

QString WebhookEndpointModel::eventsText(const QStringList &events)
{
    if (events.contains(u"*"_s))
        return tr("every event");
    return events.join(u", "_s);
}

QString WebhookEndpointModel::healthText(const api::WebhookEndpoint &endpoint)
{
    if (!endpoint.enabled)
        return endpoint.disabledReason ? tr("Off: %1").arg(*endpoint.disabledReason) : tr("Off");
    if (endpoint.failingSince)
        return tr("Failing since %1").arg(formatShortTimestamp(*endpoint.failingSince));
    return tr("Healthy");
}

int WebhookEndpointModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant WebhookEndpointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return ListTableModel::headerData(section, orientation, role);
    switch (section) {
    case UrlColumn:
        return tr("URL");
    case EventsColumn:
        return tr("Events");
    case HealthColumn:
        return tr("Health");
    case PendingColumn:
        return tr("Waiting");
    default:
        return {};
    }
}

QVariant WebhookEndpointModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::WebhookEndpoint &endpoint = m_rows.at(index.row());
    if (role == Qt::ToolTipRole)
        return endpoint.description.value_or(endpoint.url);
    if (role == Qt::ForegroundRole && index.column() == HealthColumn &&
        (!endpoint.enabled || endpoint.failingSince))
        return QColor(220, 50, 50); // read on light and dark palettes alike
    if (role == Qt::TextAlignmentRole && index.column() == PendingColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case UrlColumn:
        return endpoint.url;
    case EventsColumn:
        return eventsText(endpoint.events);
    case HealthColumn:
        return healthText(endpoint);
    case PendingColumn:
        return endpoint.pending;
    default:
        return {};
    }
}

} // namespace md::models
