#include "views/BalancesPage.h"

#include "models/BalanceListModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStackedLayout>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

BalancesPage::BalancesPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new models::BalanceListModel(backend, this))
    , m_table(new QTableView(this))
    , m_states(new QStackedLayout)
    , m_message(new QLabel(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
{
    m_table->setObjectName(QStringLiteral("balancesTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->setWordWrap(false);

    auto *messagePanel = new QWidget(this);
    auto *messageLayout = new QVBoxLayout(messagePanel);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    messageLayout->addStretch();
    messageLayout->addWidget(m_message);
    messageLayout->addWidget(m_retry, 0, Qt::AlignHCenter);
    messageLayout->addStretch();

    m_states->addWidget(m_table);
    m_states->addWidget(messagePanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_states);

    connect(m_retry, &QPushButton::clicked, this, &BalancesPage::refresh);
    connect(m_model, &models::BalanceListModel::loadingChanged, this, &BalancesPage::updateState);
    connect(m_model, &models::BalanceListModel::failed, this, &BalancesPage::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &BalancesPage::updateState);
    // Size columns to the first page only: later pages must not make them jump.
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first) {
                if (first == 0 && !m_columnsSized) {
                    m_table->resizeColumnsToContents();
                    m_columnsSized = true;
                }
            });
    connect(m_model, &QAbstractItemModel::modelReset, this, &BalancesPage::updateState);
    updateState();
}

BalancesPage::~BalancesPage() = default;

void BalancesPage::refresh()
{
    m_model->refresh();
}

void BalancesPage::updateState()
{
    const int rows = m_model->rowCount();
    if (const auto &error = m_model->lastError(); error && rows == 0) {
        m_message->setText(tr("Balances could not be loaded: %1").arg(error->message));
        m_retry->show();
        m_states->setCurrentIndex(1);
    } else if (rows == 0 && !m_model->isLoading() && !m_model->hasMore()) {
        m_message->setText(tr("No balances match. Load a workspace or clear the filters."));
        m_retry->hide();
        m_states->setCurrentIndex(1);
    } else {
        m_states->setCurrentIndex(0);
    }
    if (m_model->isLoading())
        Q_EMIT statusMessage(tr("Loading balances… %n row(s) so far", nullptr, rows));
    else if (m_model->hasMore())
        Q_EMIT statusMessage(tr("%n row(s), more on scroll", nullptr, rows));
    else
        Q_EMIT statusMessage(tr("%n row(s)", nullptr, rows));
}

} // namespace md::views
