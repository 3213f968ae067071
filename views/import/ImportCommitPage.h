// Step 5: the real imports, one customer at a time, with progress and a
// Cancel that stops after the customer in flight; each is written to the
// journal beside the source as it returns, so a stopped or crashed commit
// resumes where it stopped.
#pragma once

#include <QWizardPage>

class QLabel;
class QProgressBar;
class QPushButton;

namespace md::models {
class ImportSession;
}

namespace md::views {

class ImportCommitPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportCommitPage)

public:
    explicit ImportCommitPage(models::ImportSession *session);

    void initializePage() override;
    bool isComplete() const override;
    QPushButton *cancelButton() const { return m_cancel; }
    // How many customers go where, and the journal (and an earlier one set aside).
    QLabel *summary() const { return m_summary; }

private:
    void start();
    void showProgress(int done, int total);
    void finished(bool cancelled, const QString &error);

    models::ImportSession *m_session;
    QLabel *m_summary;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QLabel *m_status;
};

} // namespace md::views
