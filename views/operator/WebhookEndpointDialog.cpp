#include "views/operator/WebhookEndpointDialog.h"

#include "views/common/ChangeReview.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::WebhookEndpointModel;

WebhookEndpointDialog::WebhookEndpointDialog(models::WebhookEndpointModel *endpoints,
                                             std::optional<api::WebhookEndpoint> before,
                                             QWidget *parent)
    : FormDialog(parent)
    , m_endpoints(endpoints)
    , m_before(std::move(before))
    , m_url(new QLineEdit(this))
    , m_description(new QLineEdit(this))
    , m_every(new QCheckBox(tr("&All events, also those added later"), this))
    , m_events(new QListWidget(this))
    , m_enabled(new QCheckBox(tr("Se&nd events to this endpoint"), this))
{
    setWindowTitle(m_before ? tr("Edit webhook endpoint") : tr("New webhook endpoint"));
    resize(640, 470);
    const models::WebhookForm form =
        m_before ? models::WebhookForm::of(*m_before) : models::WebhookForm{{}, {}, {}, true};
    m_url->setObjectName(u"webhookUrl"_s);
    m_url->setPlaceholderText(u"https://hooks.example.com/meterdesk"_s);
    m_url->setText(form.url);
    m_description->setObjectName(u"webhookDescription"_s);
    m_description->setPlaceholderText(tr("what receives them, for the people who read this"));
    m_description->setMaxLength(int(api::WebhookEndpoint::MaxDescription));
    m_description->setText(form.description);
    m_every->setObjectName(u"webhookEveryEvent"_s);
    m_every->setChecked(form.events.contains(u"*"_s));
    m_events->setObjectName(u"webhookEvents"_s);
    for (const QString &type : api::webhookEventTypes()) {
        auto *item = new QListWidgetItem(
            u"%1  (%2)"_s.arg(WebhookEndpointModel::eventWords(type), type), m_events);
        item->setData(Qt::UserRole, type);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(form.events.contains(type) ? Qt::Checked : Qt::Unchecked);
    }
    m_events->setEnabled(!m_every->isChecked());
    m_enabled->setObjectName(u"webhookEnabled"_s);
    m_enabled->setChecked(form.enabled);
    m_enabled->setVisible(m_before.has_value());
    if (m_before && m_before->disabledReason)
        m_enabled->setToolTip(*m_before->disabledReason);

    auto *fields = new QFormLayout;
    fields->addRow(tr("&URL:"), m_url);
    fields->addRow(tr("&Description:"), m_description);
    auto *eventsLabel = new QLabel(tr("Events it &hears:"), this);
    eventsLabel->setBuddy(m_events);
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(fields);
    layout->addWidget(eventsLabel);
    layout->addWidget(m_every);
    layout->addWidget(m_events, 1);
    layout->addWidget(m_enabled);
    setForm(page);
    review()->setTitles(m_before ? tr("What changes on %1:").arg(m_before->url)
                                 : tr("The endpoint to make:"),
                        tr("Before"), tr("After"));

    connect(m_url, &QLineEdit::textChanged, this, &WebhookEndpointDialog::check);
    connect(m_description, &QLineEdit::textChanged, this, &WebhookEndpointDialog::check);
    connect(m_every, &QCheckBox::toggled, this, [this](bool every) {
        m_events->setEnabled(!every);
        check();
    });
    connect(m_events, &QListWidget::itemChanged, this, &WebhookEndpointDialog::check);
    connect(m_enabled, &QCheckBox::toggled, this, &WebhookEndpointDialog::check);
    check();
}

models::WebhookForm WebhookEndpointDialog::form() const
{
    models::WebhookForm form{m_url->text(), {}, m_description->text(), m_enabled->isChecked()};
    if (m_every->isChecked()) {
        form.events = {u"*"_s};
    } else {
        for (int row = 0; row < m_events->count(); ++row)
            if (m_events->item(row)->checkState() == Qt::Checked)
                form.events.append(m_events->item(row)->data(Qt::UserRole).toString());
    }
    // The order the endpoint keeps, so that ticking and unticking is no change.
    if (m_before && QSet<QString>(form.events.cbegin(), form.events.cend()) ==
                        QSet<QString>(m_before->events.cbegin(), m_before->events.cend()))
        form.events = m_before->events;
    return form;
}

QString WebhookEndpointDialog::changes(QList<models::FieldChange> *changes)
{
    const models::WebhookForm now = form();
    if (const auto problem = now.problem())
        return *problem;
    *changes = WebhookEndpointModel::changes(m_before ? &*m_before : nullptr, now);
    return {};
}

void WebhookEndpointDialog::submit()
{
    const auto finish = [this](const api::Result<api::WebhookEndpoint> &saved) {
        if (!saved) {
            saveFailed(saved.error());
            return;
        }
        Q_EMIT this->saved(saved.value());
        accept();
    };
    if (!m_before) {
        m_endpoints->create(form()).then(this, finish);
        return;
    }
    auto sent = m_endpoints->update(*m_before, form());
    if (!sent) {
        accept(); // nothing changed: nothing is written
        return;
    }
    sent->then(this, finish);
}

} // namespace md::views
