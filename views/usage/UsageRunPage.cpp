#include "views/usage/UsageRunPage.h"

#include "models/usage/UsageBackfill.h"
#include "models/usage/UsageChangeModel.h"
#include "models/usage/UsageImportSession.h"
#include "models/usage/UsageJournal.h"
#include "models/usage/UsageRefusalModel.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

QTableView *tableOf(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setModel(model);
    table->setWordWrap(false);
    // Each column as wide as what it shows, once the run has answered.
    QObject::connect(model, &QAbstractItemModel::modelReset, table,
                     &QTableView::resizeColumnsToContents);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setAccessibleName(name);
    return table;
}

} // namespace

UsageRunPage::UsageRunPage(models::UsageImportSession *session, Mode mode)
    : QWizardPage()
    , m_session(session)
    , m_mode(mode)
    , m_changes(new models::UsageChangeModel(session->backfill(), this))
    , m_noBalance(new models::UsageNoBalanceModel(session->backfill(), this))
    , m_refusals(new models::UsageRefusalModel(session->backfill(), this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_cancel(new QPushButton(tr("&Stop run"), this))
    , m_again(new QPushButton(tr("Run a&gain"), this))
{
    const bool dryRun = mode == Mode::DryRun;
    setTitle(dryRun ? tr("Dry run") : tr("Commit"));
    setSubTitle(dryRun ? tr("What the server would do with every event, in the file's order for "
                            "each customer. Nothing is written.")
                       : tr("The events go to the server 1,000 at a time. Cancel stops after "
                            "the request in flight; run the wizard again on the same file to "
                            "resume."));
    if (dryRun)
        setButtonText(QWizard::NextButton, tr("Co&mmit"));
    else
        setCommitPage(true);
    m_summary->setWordWrap(true);
    m_again->hide();
    auto *row = new QHBoxLayout;
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    row->addWidget(m_again);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    if (dryRun) {
        splitter->addWidget(tableOf(m_changes, tr("Balances before and after"), splitter));
        m_noBalanceTable = tableOf(m_noBalance, tr("Recorded, drawing on no balance"), splitter);
        m_noBalanceTable->hide(); // until a dry run finds such events
        splitter->addWidget(m_noBalanceTable);
    }
    splitter->addWidget(tableOf(m_refusals, tr("Refused events"), splitter));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);

    connect(m_cancel, &QPushButton::clicked, session->backfill(), &models::UsageBackfill::cancel);
    connect(m_again, &QPushButton::clicked, this, &UsageRunPage::start);
}

void UsageRunPage::initializePage()
{
    start();
}

void UsageRunPage::cleanupPage()
{
    // Back: the run stops after the request in flight, and is not heard of again.
    m_session->backfill()->cancel();
    disconnect(m_session->backfill(), nullptr, this, nullptr);
    m_running = false;
}

void UsageRunPage::start()
{
    models::UsageBackfill *backfill = m_session->backfill();
    // Only this page's run is followed: both pages share the backfill.
    disconnect(backfill, nullptr, this, nullptr);
    connect(backfill, &models::UsageBackfill::progress, this, &UsageRunPage::progressed);
    connect(backfill, &models::UsageBackfill::finished, this, &UsageRunPage::finished);
    m_done = false;
    m_running = true;
    m_again->hide();
    m_cancel->show();
    m_cancel->setEnabled(true);
    m_summary->setText(m_mode == Mode::DryRun ? tr("Planning…") : tr("Committing…"));
    Q_EMIT completeChanged();
    if (m_mode == Mode::DryRun)
        backfill->startDryRun();
    else
        backfill->startCommit(m_session->resumeFrom());
}

void UsageRunPage::progressed(qint64 done, qint64 total)
{
    m_progress->setRange(0, int(std::min<qint64>(total, INT_MAX)));
    m_progress->setValue(int(std::min<qint64>(done, INT_MAX)));
    if (m_mode != Mode::Commit || done == 0)
        return;
    m_session->noteCommitted();
    // Where a later run resumes: the events answered so far, in order.
    const models::UsageJournal journal{m_session->target(),
                                       m_session->sourceHash(),
                                       m_session->orderHash(),
                                       done,
                                       total,
                                       QDateTime::currentMSecsSinceEpoch(),
                                       m_session->content().keyFormat};
    if (auto saved = journal.save(models::UsageJournal::pathFor(m_session->sourcePath())); !saved)
        m_summary->setText(saved.error().message);
}

void UsageRunPage::finished(bool cancelled, const QString &error)
{
    const models::UsageBackfill *backfill = m_session->backfill();
    m_running = false;
    m_cancel->hide();
    m_changes->reload();
    m_noBalance->reload();
    m_refusals->reload();
    const QLocale locale;
    QString text;
    if (m_mode == Mode::DryRun) {
        qint64 recorded = 0;
        for (const models::UsageBackfill::NoBalance &noted : backfill->noBalance())
            recorded += noted.events;
        text = tr("%Ln balance(s) change; ", "", int(backfill->changes().size()));
        if (recorded > 0)
            text += tr("%Ln event(s) would be recorded drawing on no balance; ", "", int(recorded));
        text += tr("%Ln event(s) would be refused.", "", int(backfill->refusals().size()));
        m_noBalanceTable->setVisible(recorded > 0);
    } else {
        text = tr("%Ln event(s) applied, ", "", int(backfill->applied())) +
               tr("%Ln recorded by an earlier run, ", "", int(backfill->alreadyRecorded())) +
               tr("%Ln refused.", "", int(backfill->refusals().size()));
    }
    if (!error.isEmpty())
        text = tr("Stopped: %1").arg(error) + u'\n' + text;
    else if (cancelled)
        text = tr("Cancelled after %1 of %2 events.")
                   .arg(locale.toString(backfill->committed()), locale.toString(backfill->size())) +
               u'\n' + text;
    m_summary->setText(text);
    // A dry run must run through before the commit; a stopped one can run again.
    m_done = m_mode == Mode::Commit || (!cancelled && error.isEmpty());
    m_again->setVisible(m_mode == Mode::DryRun && !m_done);
    Q_EMIT completeChanged();
}

bool UsageRunPage::isComplete() const
{
    return m_done && !m_running;
}

} // namespace md::views
