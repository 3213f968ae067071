#include "views/import/StripeSourcePanel.h"

#include "models/import/ImportSession.h"
#include "models/import/StripePriceMapping.h"
#include "models/import/StripeSource.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

namespace {

QString matchInWords(models::StripePrice::Match match)
{
    switch (match) {
    case models::StripePrice::Match::Metadata:
        return StripeSourcePanel::tr("its metadata.meterdesk_plan_id");
    case models::StripePrice::Match::LookupKey:
        return StripeSourcePanel::tr("its lookup key");
    case models::StripePrice::Match::Saved:
        return StripeSourcePanel::tr("as mapped last time");
    case models::StripePrice::Match::ProductName:
        return StripeSourcePanel::tr("offered: the plan named as its product");
    case models::StripePrice::Match::None:
        break;
    }
    return StripeSourcePanel::tr("no plan matches: choose one, or leave it out");
}

} // namespace

StripeSourcePanel::StripeSourcePanel(models::ImportSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_read(new QPushButton(tr("&Read Stripe"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_prices(new QTableWidget(0, ColumnCount, this))
{
    m_read->setObjectName(QStringLiteral("readStripe"));
    m_cancel->setObjectName(QStringLiteral("cancelStripe"));
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 0); // pages come until Stripe says no more
    m_progress->hide();
    m_status->setWordWrap(true);
    m_status->setText(tr("Reads the subscriptions of the Stripe account this connection's "
                         "organization has connected, then asks which plan each price is."));
    m_prices->setObjectName(QStringLiteral("stripePrices"));
    m_prices->setHorizontalHeaderLabels(
        {tr("Stripe price"), tr("Product"), tr("Subscriptions"), tr("Meterdesk plan")});
    m_prices->verticalHeader()->hide();
    m_prices->horizontalHeader()->setStretchLastSection(true);
    m_prices->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *row = new QHBoxLayout;
    row->addWidget(m_read);
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(m_prices, 1);

    models::StripeSource *source = m_session->stripe();
    connect(m_read, &QPushButton::clicked, this, [this, source] {
        m_read->setEnabled(false);
        m_cancel->setEnabled(true);
        m_progress->show();
        m_prices->setRowCount(0);
        m_status->setText(tr("Reading Stripe…"));
        source->read();
    });
    connect(m_cancel, &QPushButton::clicked, source, &models::StripeSource::cancel);
    const auto stopped = [this](const QString &said) {
        m_read->setEnabled(true);
        m_cancel->setEnabled(false);
        m_progress->hide();
        m_status->setText(said);
    };
    connect(source, &models::StripeSource::progressed, this,
            [this](int read) { m_status->setText(tr("%n subscription(s) read…", "", read)); });
    connect(source, &models::StripeSource::canceled, this, [this, stopped] {
        stopped(tr("Canceled: nothing was read."));
        Q_EMIT bodiesReady({}, {});
    });
    connect(source, &models::StripeSource::failed, this,
            [stopped](const QString &problem) { stopped(problem); });
    connect(source, &models::StripeSource::finished, this, [this, stopped] {
        stopped(QString());
        showPrices();
    });
}

void StripeSourcePanel::showPrices()
{
    const models::StripeSource *source = m_session->stripe();
    const QList<models::StripePrice> prices = models::StripePriceMapping::prices(
        source->subscriptions(), source->productNames(), m_session->planNames(),
        models::StripePriceMapping::saved());
    m_prices->setRowCount(int(prices.size()));
    m_priceIds.clear();
    for (int i = 0; i < prices.size(); ++i) {
        const models::StripePrice &price = prices.at(i);
        m_priceIds.append(price.priceId);
        m_prices->setItem(i, PriceColumn, new QTableWidgetItem(price.priceId));
        m_prices->setItem(i, ProductColumn, new QTableWidgetItem(price.productName));
        m_prices->setItem(i, SubscriptionsColumn,
                          new QTableWidgetItem(QString::number(price.subscriptions)));
        auto *plan = new QComboBox(m_prices);
        plan->addItem(tr("(leave out)"), QString());
        QStringList plans = m_session->planNames().keys();
        plans.sort();
        for (const QString &id : std::as_const(plans))
            plan->addItem(QStringLiteral("%1 (%2)").arg(m_session->planNames().value(id), id), id);
        plan->setCurrentIndex(std::max(0, plan->findData(price.plan)));
        plan->setToolTip(matchInWords(price.match));
        connect(plan, &QComboBox::currentIndexChanged, this, [this] { rebuild(true); });
        m_prices->setCellWidget(i, PlanColumn, plan);
    }
    m_prices->resizeColumnsToContents();
    rebuild(false);
}

void StripeSourcePanel::mapPrice(const QString &priceId, const QString &plan)
{
    const int row = int(m_priceIds.indexOf(priceId));
    if (auto *combo = qobject_cast<QComboBox *>(m_prices->cellWidget(row, PlanColumn)))
        combo->setCurrentIndex(combo->findData(plan));
}

void StripeSourcePanel::rebuild(bool remember)
{
    QHash<QString, QString> mapping;
    QList<models::StripePrice> chosen;
    int unmapped = 0;
    for (int row = 0; row < m_prices->rowCount(); ++row) {
        const auto *combo = qobject_cast<QComboBox *>(m_prices->cellWidget(row, PlanColumn));
        const QString plan = combo->currentData().toString();
        mapping.insert(m_priceIds.at(row), plan);
        chosen.append({m_priceIds.at(row), QString(), plan, models::StripePrice::Match::Saved, 0});
        unmapped += plan.isEmpty() ? 1 : 0;
    }
    if (remember) // the user's choice, kept for the next import
        models::StripePriceMapping::save(chosen);
    const models::StripeSource *source = m_session->stripe();
    const auto bodies = models::StripePriceMapping::bodies(source->subscriptions(), mapping,
                                                           QDateTime::currentMSecsSinceEpoch());
    m_status->setText(
        tr("%n customer(s) to import from %1 subscription(s); %2 left out (ended, or no "
           "plan for their price); %3 price(s) without a plan; %4 to review.",
           "", bodies.customers)
            .arg(source->subscriptions().size())
            .arg(bodies.leftOut)
            .arg(unmapped)
            .arg(bodies.review.size()));
    Q_EMIT bodiesReady(bodies.jsonLines, bodies.review);
}

} // namespace md::views
