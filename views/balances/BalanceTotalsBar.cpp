#include "views/balances/BalanceTotalsBar.h"

#include "models/balances/BalanceTotalsModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

namespace md::views {

using models::BalanceTotalsModel;

BalanceTotalsBar::BalanceTotalsBar(BalanceTotalsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_summary(new QLabel(this))
    , m_groupBy(new QComboBox(this))
    , m_showGroups(new QPushButton(tr("Totals by gr&oup"), this))
    , m_retry(new QPushButton(tr("Retry totals"), this))
    , m_groups(new QTableView)
{
    m_summary->setObjectName(QStringLiteral("totalsSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_groupBy->setObjectName(QStringLiteral("totalsGroupBy"));
    m_groupBy->setToolTip(tr("What the grouped totals add up by"));
    // Whole phrases: "By %1" with a lower-cased noun reads wrong in German.
    m_groupBy->addItem(tr("By feature"), int(api::TotalsGroupBy::Feature));
    m_groupBy->addItem(tr("By plan"), int(api::TotalsGroupBy::Plan));
    m_groupBy->addItem(tr("By customer"), int(api::TotalsGroupBy::Customer));
    m_groupBy->addItem(tr("By month of next reset"), int(api::TotalsGroupBy::ResetMonth));
    m_showGroups->setObjectName(QStringLiteral("showTotals"));
    m_showGroups->setCheckable(true);
    m_showGroups->setToolTip(
        tr("Show what each feature, plan, customer or month of next reset of the filter adds "
           "up to (Alt+O)"));
    m_retry->hide();

    m_groups->setObjectName(QStringLiteral("totalsTable"));
    m_groups->setModel(model);
    m_groups->verticalHeader()->hide();
    m_groups->setAlternatingRowColors(true);
    m_groups->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Numbers sit beside their headers, not pushed to the far edge.
    m_groups->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_groups->horizontalHeader()->setStretchLastSection(false);
    // Shown, the pane has room for its header and five groups: a splitter
    // gives a widget it kept hidden only its minimum (two rows, before).
    m_groups->setMinimumHeight(m_groups->horizontalHeader()->sizeHint().height() +
                               5 * m_groups->verticalHeader()->defaultSectionSize() +
                               2 * m_groups->frameWidth());
    m_groups->hide();

    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 6, 2);
    row->addWidget(m_summary, 1);
    row->addWidget(m_retry);
    row->addWidget(m_groupBy);
    row->addWidget(m_showGroups);

    connect(m_groupBy, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setGroupBy(api::TotalsGroupBy(m_groupBy->currentData().toInt())); });
    connect(m_showGroups, &QPushButton::toggled, m_groups, &QWidget::setVisible);
    connect(m_retry, &QPushButton::clicked, m_model, &BalanceTotalsModel::reload);
    connect(m_model, &BalanceTotalsModel::loadingChanged, this, &BalanceTotalsBar::update);
    update();
}

void BalanceTotalsBar::update()
{
    m_retry->setVisible(m_model->lastError().has_value());
    // Why the line shows no amounts, when it shows none.
    const auto &totals = m_model->totals();
    m_summary->setToolTip(totals ? BalanceTotalsModel::unitNote(m_model->request(), *totals)
                                 : QString());
    if (const auto &error = m_model->lastError())
        m_summary->setText(tr("Totals could not be added up: %1").arg(error->message));
    else if (m_model->isLoading())
        m_summary->setText(tr("Adding up the filter…"));
    else
        m_summary->setText(m_model->summary());
}

} // namespace md::views
