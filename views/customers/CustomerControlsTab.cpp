#include "views/customers/CustomerControlsTab.h"

#include "models/customers/BillingControlsEdit.h"
#include "models/customers/ControlsSource.h"
#include "models/customers/UsageAlertModel.h"
#include "views/customers/BillingControlsDialog.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

CustomerControlsTab::CustomerControlsTab(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_controls(std::make_unique<models::ControlsSource>(backend))
    , m_entity(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_edit(new QPushButton(tr("&Edit billing controls…"), this))
    , m_alerts(new models::UsageAlertModel(backend, this))
    , m_alertTable(new QTableView(this))
{
    m_entity->setPlaceholderText(tr("the customer itself"));
    m_entity->setClearButtonEnabled(true);
    m_entity->setAccessibleName(tr("Entity"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_edit->setObjectName(QStringLiteral("editControls"));
    m_edit->setEnabled(false);
    m_alertTable->setModel(m_alerts);
    m_alertTable->verticalHeader()->hide();
    // The alert's words take the room left; time, feature and value fit their text.
    QHeaderView *columns = m_alertTable->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::ResizeToContents);
    columns->setSectionResizeMode(models::UsageAlertModel::AlertColumn, QHeaderView::Stretch);
    auto *show = new QPushButton(tr("S&how"), this);
    auto *owner = new QHBoxLayout;
    owner->addWidget(new QLabel(tr("Controls of entity:"), this));
    owner->addWidget(m_entity, 1);
    owner->addWidget(show);
    owner->addWidget(m_edit);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(owner);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("<b>Usage alerts</b> that fired, newest first:"), this));
    layout->addWidget(m_alertTable, 1);

    connect(show, &QPushButton::clicked, this, &CustomerControlsTab::load);
    connect(m_entity, &QLineEdit::returnPressed, this, &CustomerControlsTab::load);
    connect(m_edit, &QPushButton::clicked, this, &CustomerControlsTab::edit);
}

CustomerControlsTab::~CustomerControlsTab() = default;

void CustomerControlsTab::setCustomer(const QString &customerId)
{
    m_customer = customerId;
    m_entity->clear();
    m_alerts->setCustomer(customerId);
    load();
}

void CustomerControlsTab::load()
{
    const quint64 request = ++m_request;
    m_shown.reset();
    m_edit->setEnabled(false);
    const QString entity = m_entity->text().trimmed();
    m_summary->setText(tr("Loading…"));
    m_controls->read({m_customer, entity.isEmpty() ? std::nullopt : std::optional(entity)})
        .then(this, [this, request](const api::Result<api::BillingControlsAnswer> &answer) {
            if (request != m_request)
                return;
            if (!answer) {
                m_summary->setText(
                    tr("The controls could not be read: %1").arg(answer.error().message));
                return;
            }
            m_shown = answer.value();
            const QStringList lines =
                models::BillingControlsEdit::describe(answer.value().billingControls);
            m_summary->setText(
                lines.isEmpty() ? tr("No billing controls: usage is limited only by the balances.")
                                : lines.join(QLatin1Char('\n')));
            m_edit->setEnabled(true);
        });
}

void CustomerControlsTab::edit()
{
    if (!m_shown)
        return;
    auto *dialog = new BillingControlsDialog(m_controls.get(), *m_shown, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &BillingControlsDialog::saved, this, &CustomerControlsTab::load);
    dialog->open();
}

} // namespace md::views
