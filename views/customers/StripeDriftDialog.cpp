#include "views/customers/StripeDriftDialog.h"

#include "models/customers/StripeDriftModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

StripeDriftDialog::StripeDriftDialog(backend::BillingBackend *backend,
                                     std::optional<QString> customerId, QWidget *parent)
    : QDialog(parent)
    , m_customer(std::move(customerId))
    , m_model(new models::StripeDriftModel(backend, this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
    , m_again(new QPushButton(tr("Check &again"), this))
{
    setWindowTitle(m_customer ? tr("Check %1 against Stripe").arg(*m_customer)
                              : tr("Check imported customers against Stripe"));
    m_summary->setObjectName(QStringLiteral("driftSummary"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("driftTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_again, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Each plan imported from a Stripe subscription is compared "
                                    "with that subscription now: status, current period, "
                                    "quantity and plan. Nothing is changed."),
                                 this));
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(820, 420);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_again, &QPushButton::clicked, this, [this] {
        m_model->check(m_customer ? std::optional(QStringList{*m_customer}) : std::nullopt);
    });
    connect(m_model, &models::StripeDriftModel::stateChanged, this, &StripeDriftDialog::showState);
    m_model->check(m_customer ? std::optional(QStringList{*m_customer}) : std::nullopt);
}

void StripeDriftDialog::showState()
{
    m_summary->setText(m_model->summary());
    m_again->setEnabled(!m_model->busy());
    if (!m_model->busy())
        m_table->resizeColumnsToContents();
}

} // namespace md::views
