#include "views/UsageImportWizard.h"

#include "models/UsageBackfill.h"
#include "models/WorkspaceStatus.h"
#include "views/UsageRunPage.h"
#include "views/UsageSourcePage.h"

#include <QMessageBox>

namespace md::views {

UsageImportWizard::UsageImportWizard(backend::BillingBackend *backend, QWidget *parent)
    : QWizard(parent)
    , m_backfill(new models::UsageBackfill(backend, this))
{
    setWindowTitle(tr("Import usage"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(1120, 700);
    setPage(SourcePage, new UsageSourcePage(this));
    setPage(DryRunPage, new UsageRunPage(this, UsageRunPage::Mode::DryRun));
    setPage(CommitPage, new UsageRunPage(this, UsageRunPage::Mode::Commit));
    models::WorkspaceStatus(backend).connection().then(
        this, [this](const api::Result<backend::ConnectionInfo> &info) {
            m_target = models::WorkspaceStatus::journalTarget(info);
            Q_EMIT targetKnown();
        });
    connect(m_backfill, &models::UsageBackfill::finished, this, [this] {
        if (m_closeWhenStopped)
            QWizard::reject();
    });
}

void UsageImportWizard::setContent(models::UsageFileContent content, const QString &path,
                                   const QByteArray &hash)
{
    m_content = std::move(content);
    m_path = path;
    m_hash = hash;
}

void UsageImportWizard::reject()
{
    if (!m_backfill->isRunning()) {
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
    m_backfill->cancel();
}

} // namespace md::views
