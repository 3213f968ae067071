#include "views/usage/UsageImportWizard.h"

#include "models/usage/UsageBackfill.h"
#include "models/usage/UsageImportSession.h"
#include "views/usage/UsageRunPage.h"
#include "views/usage/UsageSourcePage.h"

#include <QMessageBox>

namespace md::views {

UsageImportWizard::UsageImportWizard(backend::BillingBackend *backend, QWidget *parent)
    : QWizard(parent)
    , m_session(new models::UsageImportSession(backend, this))
{
    setWindowTitle(tr("Import usage"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(1120, 700);
    setPage(SourcePage, new UsageSourcePage(m_session));
    setPage(DryRunPage, new UsageRunPage(m_session, UsageRunPage::Mode::DryRun));
    setPage(CommitPage, new UsageRunPage(m_session, UsageRunPage::Mode::Commit));
    connect(m_session->backfill(), &models::UsageBackfill::finished, this, [this] {
        if (m_closeWhenStopped)
            QWizard::reject();
    });
}

bool UsageImportWizard::committedAny() const
{
    return m_session->committedAny();
}

void UsageImportWizard::reject()
{
    if (!m_session->backfill()->isRunning()) {
        QWizard::reject();
        return;
    }
    const QString question =
        currentId() == CommitPage
            ? tr("Stop after the request in flight? What was committed stays, and the journal "
                 "beside the file lets you resume later.")
            : tr("Stop the dry run?");
    if (QMessageBox::question(this, windowTitle(), question) != QMessageBox::Yes)
        return;
    m_closeWhenStopped = true;
    m_session->backfill()->cancel();
}

} // namespace md::views
