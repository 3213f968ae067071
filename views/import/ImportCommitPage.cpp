#include "views/import/ImportCommitPage.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

ImportCommitPage::ImportCommitPage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_summary(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(this))
    , m_status(new QLabel(this))
{
    setTitle(tr("Commit"));
    setSubTitle(tr("Each customer is imported in one transaction and written to the journal."));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    auto *row = new QHBoxLayout;
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addStretch(1);

    models::ImportRunner *runner = session->runner();
    connect(m_cancel, &QPushButton::clicked, this, [this, runner] {
        if (runner->isRunning()) {
            runner->cancel();
            m_cancel->setEnabled(false);
            m_status->setText(tr("Stopping after the customer in flight…"));
        } else {
            start();
            runner->startCommit(m_session->journal());
        }
    });
    connect(runner, &models::ImportRunner::progress, this, &ImportCommitPage::showProgress);
    connect(runner, &models::ImportRunner::finished, this, &ImportCommitPage::finished);
}

void ImportCommitPage::initializePage()
{
    models::ImportJournal *journal = m_session->journal();
    QString summary = tr("Importing %n customer(s) into %1.\nJournal: %2", nullptr,
                         m_session->preview()->rowCount())
                          .arg(m_session->target(), QDir::toNativeSeparators(journal->path()));
    // Said before it happens: the earlier journal is set aside, not lost.
    if (!m_session->resume() && journal->exists())
        summary += u'\n' + tr("The earlier journal is kept as %1.")
                               .arg(QDir::toNativeSeparators(journal->previousPath()));
    m_summary->setText(summary);
    if (auto begun = journal->begin(m_session->target(), m_session->batch()->sourceHash(),
                                    m_session->resume());
        !begun) {
        m_status->setText(tr("Nothing was imported: %1").arg(begun.error().message));
        m_cancel->hide();
        return;
    }
    start();
    m_session->runner()->startCommit(journal);
}

void ImportCommitPage::start()
{
    m_cancel->setText(tr("Ca&ncel"));
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_status->setText(tr("Committing…"));
    Q_EMIT completeChanged();
}

void ImportCommitPage::showProgress(int done, int total)
{
    if (!m_session->runner()->isCommitting())
        return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
}

void ImportCommitPage::finished(bool cancelled, const QString &error)
{
    if (!m_session->runner()->isCommitting())
        return;
    const auto counts = m_session->preview()->commitCounts();
    const int waiting = counts.value(models::CommitState::Waiting);
    if (!error.isEmpty())
        m_status->setText(tr("Stopped: %1").arg(error));
    else if (cancelled)
        m_status->setText(tr("Stopped with %n customer(s) not imported yet. Continue now, or "
                             "open the same source later to resume.",
                             nullptr, waiting));
    else
        m_status->setText(tr("Done."));
    m_cancel->setText(tr("C&ontinue"));
    m_cancel->setEnabled(true);
    m_cancel->setVisible(waiting > 0 || counts.value(models::CommitState::Failed) > 0);
    Q_EMIT completeChanged();
}

bool ImportCommitPage::isComplete() const
{
    return !m_session->runner()->isRunning();
}

} // namespace md::views
