#include "views/ImportWizard.h"

#include "models/ImportBatch.h"
#include "models/ImportJournal.h"
#include "models/ImportPreviewModel.h"
#include "models/ImportRunner.h"
#include "models/WorkspaceStatus.h"
#include "views/ImportCommitPage.h"
#include "views/ImportMappingPage.h"
#include "views/ImportPreviewPage.h"
#include "views/ImportReportPage.h"
#include "views/ImportSourcePage.h"
#include "views/ImportValidationPage.h"

#include <QMessageBox>

namespace md::views {

ImportWizard::ImportWizard(backend::BillingBackend *backend, QWidget *parent)
    : QWizard(parent)
    , m_batch(new models::ImportBatch(this))
    , m_preview(new models::ImportPreviewModel(this))
    , m_runner(new models::ImportRunner(backend, m_preview, this))
{
    setWindowTitle(tr("Import customers"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(1120, 700);
    setPage(SourcePage, new ImportSourcePage(this));
    setPage(MappingPage, new ImportMappingPage(this));
    setPage(ValidationPage, new ImportValidationPage(this));
    setPage(PreviewPage, new ImportPreviewPage(this));
    setPage(CommitPage, new ImportCommitPage(this));
    setPage(ReportPage, new ImportReportPage(this));

    models::WorkspaceStatus(backend).connection().then(
        this, [this](const api::Result<backend::ConnectionInfo> &info) {
            m_target = models::WorkspaceStatus::journalTarget(info);
            Q_EMIT targetKnown();
        });
    connect(m_runner, &models::ImportRunner::finished, this, [this] {
        if (m_closeWhenStopped)
            QWizard::reject();
    });
}

ImportWizard::~ImportWizard() = default;

void ImportWizard::openJournal()
{
    m_journal = std::make_unique<models::ImportJournal>(
        models::ImportJournal::pathFor(m_batch->sourcePath(), m_batch->sourceData()));
    if (auto loaded = m_journal->load(); !loaded)
        QMessageBox::warning(this, windowTitle(), loaded.error().message);
}

bool ImportWizard::committedAny() const
{
    return m_preview->commitCounts().value(models::CommitState::Committed) > 0;
}

int ImportWizard::nextId() const
{
    if (currentId() == SourcePage && m_batch->format() != models::ImportFormat::Csv)
        return ValidationPage;
    return QWizard::nextId();
}

void ImportWizard::reject()
{
    if (!m_runner->isRunning()) {
        QWizard::reject();
        return;
    }
    const bool committing = currentId() == CommitPage;
    const QString question =
        committing ? tr("Stop the import after the customer in flight? Customers already "
                        "committed stay; the journal lets you resume later.")
                   : tr("Stop the dry run?");
    if (QMessageBox::question(this, windowTitle(), question) != QMessageBox::Yes)
        return;
    m_closeWhenStopped = true;
    m_runner->cancel();
}

} // namespace md::views
