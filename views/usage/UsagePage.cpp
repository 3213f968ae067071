#include "views/usage/UsagePage.h"

#include "models/common/PagedExport.h"
#include "models/usage/UsageEventModel.h"
#include "models/usage/UsageTotalsSource.h"
#include "views/common/ExportButton.h"
#include "views/usage/FailedEventsPanel.h"
#include "views/usage/PriceCallDialog.h"
#include "views/usage/UsageChart.h"
#include "views/usage/UsageImportWizard.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

std::optional<QString> textOf(const QLineEdit *edit)
{
    const QString text = edit->text().trimmed();
    return text.isEmpty() ? std::nullopt : std::optional<QString>(text);
}

} // namespace

UsagePage::UsagePage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_backend(backend)
    , m_model(new models::UsageEventModel(backend, this))
    , m_totals(new models::UsageTotalsSource(backend, this))
    , m_customer(new QLineEdit(this))
    , m_feature(new QLineEdit(this))
    , m_modelFilter(new QLineEdit(this))
    , m_period(new QComboBox(this))
    , m_table(new QTableView(this))
    , m_chart(new UsageChart(this))
    , m_failed(new FailedEventsPanel(backend, this))
    , m_status(new QLabel(this))
    , m_debounce(new QTimer(this))
{
    m_customer->setPlaceholderText(tr("Customer id"));
    m_feature->setPlaceholderText(tr("Feature id"));
    m_modelFilter->setPlaceholderText(tr("Model, e.g. openai/gpt-4o"));
    for (QLineEdit *edit : {m_customer, m_feature, m_modelFilter}) {
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
        connect(edit, &QLineEdit::returnPressed, this, [this] { applyFilter(); });
    }
    m_customer->setAccessibleName(tr("Customer filter"));
    m_feature->setAccessibleName(tr("Feature filter"));
    m_modelFilter->setAccessibleName(tr("Model filter"));
    m_period->addItem(tr("Last 7 days"), 7);
    m_period->addItem(tr("Last 30 days"), 30);
    m_period->addItem(tr("Last 90 days"), 90);
    m_period->addItem(tr("All time"), 0);
    m_period->setCurrentIndex(1);
    connect(m_period, &QComboBox::currentIndexChanged, this, [this] { applyFilter(); });
    auto *importButton = new QPushButton(tr("&Import usage…"), this);
    importButton->setObjectName(QStringLiteral("importUsage"));
    importButton->setToolTip(tr("Record past usage from a CSV or JSON file, after a dry run"));
    connect(importButton, &QPushButton::clicked, this, &UsagePage::importUsage);
    auto *price = new QPushButton(tr("&Price a call…"), this);
    price->setToolTip(tr("What a model call costs with a customer's markups"));
    connect(price, &QPushButton::clicked, this, &UsagePage::priceCall);

    auto *exportState = new QLabel(this);
    auto *exportEvents = new ExportButton(
        tr("E&xport events…"),
        new models::PagedExport(
            m_model, models::UsageEventModel::columns(),
            [model = m_model](int row) {
                return models::UsageEventModel::cells(model->events().at(row));
            },
            tr("Usage events"), this),
        tr("Export usage events"), [] { return tr("usage-events.csv"); }, exportState, this);
    exportEvents->setObjectName(QStringLiteral("exportUsage"));

    auto *filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Filter:"), this));
    filters->addWidget(m_customer, 1);
    filters->addWidget(m_feature, 1);
    filters->addWidget(m_modelFilter, 1);
    filters->addWidget(m_period);
    filters->addWidget(importButton);
    filters->addWidget(price);
    filters->addWidget(exportEvents);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(models::UsageEventModel::TimeColumn, 170);
    m_table->setColumnWidth(models::UsageEventModel::CustomerColumn, 160);
    m_table->setColumnWidth(models::UsageEventModel::ModelColumn, 260);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_failed);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 1);
    connect(m_failed, &FailedEventsPanel::changed, this, &UsagePage::failedEventsChanged);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(exportState);
    layout->addLayout(statusRow);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, [this] { applyFilter(); });
    // The table pages through the events as it is scrolled; the chart adds
    // up every one of them where they are stored.
    m_totals->setGroupBy(m_chart->groupBy());
    connect(m_chart, &UsageChart::groupByChanged, m_totals, &models::UsageTotalsSource::setGroupBy);
    connect(m_totals, &models::UsageTotalsSource::changed, this, &UsagePage::showTotals);
    connect(m_totals, &models::UsageTotalsSource::failed, this, [this](const api::ApiError &error) {
        m_status->setText(tr("Usage could not be added up: %1").arg(error.message));
    });
    connect(m_model, &models::UsageEventModel::failed, this, [this](const api::ApiError &error) {
        m_status->setText(tr("Usage events could not be read: %1").arg(error.message));
    });
}

void UsagePage::refresh()
{
    applyFilter(true);
    if (m_failed->isVisibleTo(this))
        m_failed->refresh();
}

void UsagePage::showFailedEvents()
{
    m_failed->refresh();
    m_failed->table()->setFocus(Qt::OtherFocusReason);
}

void UsagePage::showOnlyCustomer(const QString &customerId)
{
    m_customer->hide();
    m_failed->hide();
    {
        const QSignalBlocker quiet(m_customer); // no filter run for the text alone
        m_customer->setText(customerId);
    }
    if (customerId.isEmpty())
        return;
    applyFilter();
}

void UsagePage::applyFilter(bool force)
{
    m_debounce->stop();
    api::PageRequest filter;
    filter.customerId = textOf(m_customer);
    filter.featureId = textOf(m_feature);
    filter.modelId = textOf(m_modelFilter);
    if (const int days = m_period->currentData().toInt(); days > 0)
        filter.from = QDateTime::currentMSecsSinceEpoch() - qint64(days) * 24 * 60 * 60 * 1000;
    m_model->setFilter(filter);
    m_status->setText(tr("Adding up usage…"));
    m_totals->setFilter(filter, force);
}

void UsagePage::showTotals()
{
    m_chart->setTotals(m_totals->totals());
    if (const auto &totals = m_totals->totals())
        m_status->setText(tr("%Ln events", "", int(qMin<qint64>(totals->total.events, INT_MAX))));
}

void UsagePage::priceCall()
{
    auto *dialog = new PriceCallDialog(m_backend, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (const auto customer = textOf(m_customer))
        dialog->setCustomer(*customer);
    if (const QModelIndex current = m_table->currentIndex(); current.isValid()) {
        const api::UsageEvent &event = m_model->events().at(current.row());
        dialog->setCustomer(event.customerId);
        dialog->setModel(event.modelId.value_or(QString()));
    }
    connect(dialog, &PriceCallDialog::recorded, this, &UsagePage::refresh);
    Q_EMIT priceCallOpened(dialog);
    dialog->open();
}

UsageImportWizard *UsagePage::importUsage()
{
    auto *wizard = new UsageImportWizard(m_backend, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::finished, this, [this, wizard] {
        if (!wizard->committedAny())
            return;
        refresh();
        Q_EMIT usageImported();
    });
    wizard->open();
    return wizard;
}

} // namespace md::views
