#include "views/import/ImportWizard.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "views/import/ImportCommitPage.h"
#include "views/import/ImportMappingPage.h"
#include "views/import/ImportPreviewPage.h"
#include "views/import/ImportReportPage.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportValidationPage.h"

#include <QMessageBox>

namespace md::views {

ImportWizard::ImportWizard(backend::BillingBackend *backend, QWidget *parent)
    : QWizard(parent)
    , m_session(new models::ImportSession(backend, this))
{
    setWindowTitle(tr("Import customers"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(1120, 700);
    setPage(SourcePage, new ImportSourcePage(m_session));
    setPage(MappingPage, new ImportMappingPage(m_session));
    setPage(ValidationPage, new ImportValidationPage(m_session));
    setPage(PreviewPage, new ImportPreviewPage(m_session));
    setPage(CommitPage, new ImportCommitPage(m_session));
    setPage(ReportPage, new ImportReportPage(m_session));
    connect(m_session->runner(), &models::ImportRunner::finished, this, [this] {
        if (m_closeWhenStopped)
            QWizard::reject();
    });
}

ImportWizard::~ImportWizard() = default;

bool ImportWizard::committedAny() const
{
    return m_session->committedAny();
}

int ImportWizard::nextId() const
{
    if (currentId() == SourcePage && m_session->batch()->format() != models::ImportFormat::Csv)
        return ValidationPage;
    return QWizard::nextId();
}

void ImportWizard::reject()
{
    if (!m_session->runner()->isRunning()) {
        QWizard::reject();
        return;
    }
    // Nothing more is sent while the person decides; the customer in
    // flight finishes either way.
    models::ImportRunner *runner = m_session->runner();
    runner->pause();
    const bool committing = currentId() == CommitPage;
    const QString question =
        committing ? tr("The import is paused. Stop it after the customer in flight? Customers "
                        "already committed stay; the journal lets you resume later.")
                   : tr("The dry run is paused. Stop it?");
    if (QMessageBox::question(this, windowTitle(), question) != QMessageBox::Yes) {
        runner->resume();
        return;
    }
    m_closeWhenStopped = true;
    runner->cancel();
    runner->resume(); // lets the run end with what is in flight
}

} // namespace md::views
