#include "views/import/ImportPreviewPage.h"

#include "models/common/AmountFormat.h"
#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::ImportOutcome;

namespace {

// Pending has no chip of its own: its id is the "All" chip's.
constexpr int AllChip = int(ImportOutcome::Pending);

QString status(const std::optional<api::PlanStatus> &status)
{
    return status ? QString(api::toWire(*status)) : QString();
}

QString amounts(const api::Decimal &remaining, const api::Decimal &granted)
{
    const QLocale locale;
    return ImportPreviewPage::tr("%1 of %2")
        .arg(models::formatAmount(remaining, locale), models::formatAmount(granted, locale));
}

// "acme-labs-0001 — Acme Labs", or the id alone when the row gives no name.
QString heading(const api::ImportCustomerRequest &request)
{
    const QString name =
        request.customerData ? request.customerData->name.value_or(QString()) : QString();
    return name.isEmpty() ? request.customerId : u"%1 — %2"_s.arg(request.customerId, name);
}

} // namespace

ImportPreviewPage::ImportPreviewPage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(this))
    , m_status(new QLabel(this))
    , m_chips(new QButtonGroup(this))
    , m_filter(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_customer(new QLabel(this))
    , m_changes(new QTreeWidget(this))
{
    setTitle(tr("Preview"));
    setSubTitle(tr("What the server would do, customer by customer. Nothing is written yet."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Commit"));

    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto *chipRow = new QHBoxLayout;
    m_chips->setExclusive(true);
    const auto addChip = [&](int id) {
        auto *chip = new QToolButton(this);
        chip->setCheckable(true);
        chip->setAutoRaise(true);
        m_chips->addButton(chip, id);
        chipRow->addWidget(chip);
    };
    addChip(AllChip);
    for (int o = int(ImportOutcome::New); o < models::ImportOutcomeCount; ++o)
        addChip(o);
    chipRow->addStretch(1);
    m_chips->button(AllChip)->setChecked(true);

    m_filter->setSourceModel(session->preview());
    m_filter->setFilterRole(models::ImportPreviewModel::OutcomeRole);
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setColumnHidden(models::ImportPreviewModel::CommitColumn, true);
    m_changes->setHeaderLabels({tr("Field, plan or feature"), tr("Before"), tr("After")});
    m_changes->setRootIsDecorated(false);
    // Plain text: a name read from the file must not be taken for markup.
    m_customer->setTextFormat(Qt::PlainText);
    m_customer->setWordWrap(true);
    auto *pane = new QWidget(this);
    auto *paneLayout = new QVBoxLayout(pane);
    paneLayout->setContentsMargins(0, 0, 0, 0);
    paneLayout->addWidget(m_customer);
    paneLayout->addWidget(m_changes, 1);
    auto *split = new QSplitter(this);
    split->addWidget(m_table);
    split->addWidget(pane);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(progressRow);
    layout->addWidget(m_status);
    layout->addLayout(chipRow);
    layout->addWidget(split, 1);

    models::ImportRunner *runner = session->runner();
    connect(m_cancel, &QPushButton::clicked, this, [this, runner] {
        if (runner->isRunning())
            runner->cancel();
        else
            start();
    });
    connect(m_chips, &QButtonGroup::idClicked, this, &ImportPreviewPage::filterOutcome);
    connect(session->preview(), &models::ImportPreviewModel::countsChanged, this,
            &ImportPreviewPage::showCounts);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ImportPreviewPage::showChanges);
    // After the view's own reset, which drops its current row without a signal.
    connect(m_filter, &QAbstractItemModel::modelReset, this, &ImportPreviewPage::selectAfterReset);
    connect(runner, &models::ImportRunner::progress, this, &ImportPreviewPage::showProgress);
    connect(runner, &models::ImportRunner::finished, this, &ImportPreviewPage::finished);
}

void ImportPreviewPage::initializePage()
{
    m_session->preview()->setItems(m_session->batch()->items());
    m_table->resizeColumnsToContents();
    start();
}

void ImportPreviewPage::cleanupPage()
{
    m_session->runner()->cancel();
}

void ImportPreviewPage::start()
{
    if (m_session->runner()->isRunning()) {
        // Back and forth while it stops: the dry run starts once it has.
        m_startWhenIdle = true;
        return;
    }
    m_startWhenIdle = false;
    m_cancel->setText(tr("Ca&ncel"));
    m_status->setText(tr("Dry run…"));
    m_session->runner()->startDryRun();
    Q_EMIT completeChanged();
}

void ImportPreviewPage::showProgress(int done, int total)
{
    if (m_session->runner()->isCommitting())
        return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
}

void ImportPreviewPage::finished(bool cancelled, const QString &error)
{
    if (m_startWhenIdle) {
        m_session->preview()->setItems(m_session->batch()->items());
        start();
        return;
    }
    if (m_session->runner()->isCommitting())
        return;
    m_table->resizeColumnToContents(models::ImportPreviewModel::OutcomeColumn);
    m_cancel->setText(tr("&Run again"));
    m_cancel->setVisible(cancelled || !error.isEmpty());
    if (!error.isEmpty())
        m_status->setText(tr("The dry run stopped: %1").arg(error));
    else if (cancelled)
        m_status->setText(tr("Cancelled: the customers not yet run show as pending. Run again "
                             "to finish the dry run before committing."));
    else
        m_status->setText(tr("Dry run complete. Commit imports every customer without an error.") +
                          resumeNote());
    Q_EMIT completeChanged();
}

QString ImportPreviewPage::resumeNote() const
{
    const models::ImportJournal *journal = m_session->journal();
    if (!m_session->resume() || !journal)
        return {};
    const models::ImportPreviewModel *preview = m_session->preview();
    int earlier = 0;
    for (int r = 0; r < preview->rowCount(); ++r)
        earlier += journal->earlier().contains(preview->entry(r).request.customerId);
    if (earlier == 0)
        return {};
    return u' ' + tr("Resuming: %n customer(s) the journal lists as imported are not sent again.",
                     nullptr, earlier);
}

void ImportPreviewPage::showCounts()
{
    const QList<int> counts = m_session->preview()->outcomeCounts();
    m_chips->button(AllChip)->setText(tr("All %1").arg(m_session->preview()->rowCount()));
    for (int o = int(ImportOutcome::New); o < models::ImportOutcomeCount; ++o)
        m_chips->button(o)->setText(
            u"%1 %2"_s.arg(models::ImportChanges::outcomeName(ImportOutcome(o))).arg(counts.at(o)));
    if (m_table->currentIndex().isValid())
        showChanges();
}

void ImportPreviewPage::filterOutcome(int outcome)
{
    m_chips->button(outcome)->setChecked(true);
    m_filter->setFilterRegularExpression(outcome == AllChip ? QString() : u"^%1$"_s.arg(outcome));
}

void ImportPreviewPage::selectAfterReset()
{
    // The customer shown before, if the new rows still have it; else the first.
    const models::ImportPreviewModel *preview = m_session->preview();
    QModelIndex row = m_filter->mapFromSource(preview->index(preview->rowOf(m_shownCustomer), 0));
    if (!row.isValid())
        row = m_filter->index(0, 0);
    if (row.isValid())
        m_table->setCurrentIndex(row);
    else
        showChanges();
}

void ImportPreviewPage::showChanges()
{
    m_changes->clear();
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    QFont headingFont = m_customer->font();
    headingFont.setBold(current.isValid());
    m_customer->setFont(headingFont);
    if (!current.isValid()) {
        m_shownCustomer.clear();
        m_customer->setText(tr("Select a customer to see what changes: its fields, plans and "
                               "balances before and after."));
        return;
    }
    const models::ImportEntry &entry = m_session->preview()->entry(current.row());
    m_shownCustomer = entry.request.customerId;
    m_customer->setText(heading(entry.request));
    QList<QTreeWidgetItem *> groups;
    // Only what the import writes over: a field it leaves alone is not listed.
    if (!entry.changes.identity.isEmpty()) {
        auto *fields = new QTreeWidgetItem(m_changes, {tr("Customer")});
        for (const models::IdentityChange &field : entry.changes.identity)
            new QTreeWidgetItem(
                fields, {models::ImportChanges::fieldName(field.field), field.before, field.after});
        groups.append(fields);
    }
    auto *plans = new QTreeWidgetItem(m_changes, {tr("Plans")});
    for (const models::PlanChange &plan : entry.changes.plans) {
        const QString after =
            plan.after ? status(plan.after) : models::ImportChanges::unchangedWords(plan.reason);
        auto *item = new QTreeWidgetItem(plans, {plan.planId, status(plan.before), after});
        if (!plan.reason.isEmpty())
            item->setToolTip(2, plan.reason);
    }
    auto *balances = new QTreeWidgetItem(m_changes, {tr("Balances (remaining of granted)")});
    for (const models::BalanceChange &balance : entry.changes.balances)
        new QTreeWidgetItem(balances, {balance.featureId,
                                       amounts(balance.remainingBefore, balance.grantedBefore),
                                       amounts(balance.remainingAfter, balance.grantedAfter)});
    if (!entry.message.isEmpty())
        new QTreeWidgetItem(m_changes, {tr("Problem"), entry.message});
    groups << plans << balances;
    for (QTreeWidgetItem *top : std::as_const(groups)) {
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
    }
    m_changes->expandAll();
    for (int c = 0; c < m_changes->columnCount(); ++c)
        m_changes->resizeColumnToContents(c);
}

bool ImportPreviewPage::isComplete() const
{
    const models::ImportPreviewModel *preview = m_session->preview();
    const QList<int> counts = preview->outcomeCounts();
    return !m_session->runner()->isRunning() && counts.at(int(ImportOutcome::Pending)) == 0 &&
           counts.at(int(ImportOutcome::Error)) < preview->rowCount();
}

} // namespace md::views
