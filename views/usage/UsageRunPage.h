// The usage backfill wizard's dry run and commit pages (one class, two
// modes): the run starts as the page opens, with progress and Cancel; the
// dry run shows each balance before and after, the events that draw on no
// balance (when there are any) and every refused event, the
// commit what was applied, what earlier runs had recorded, and what was
// refused, and writes the journal after every request.
#pragma once

#include <QWizardPage>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace md::models {
class UsageImportSession;
class UsageChangeModel;
class UsageNoBalanceModel;
class UsageRefusalModel;
} // namespace md::models

namespace md::views {

class UsageRunPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageRunPage)

public:
    enum class Mode { DryRun, Commit };

    UsageRunPage(models::UsageImportSession *session, Mode mode);

    models::UsageChangeModel *changes() const { return m_changes; }
    models::UsageNoBalanceModel *noBalance() const { return m_noBalance; }
    models::UsageRefusalModel *refusals() const { return m_refusals; }
    QPushButton *cancelButton() const { return m_cancel; }
    QLabel *summary() const { return m_summary; }

    void initializePage() override;
    void cleanupPage() override;
    bool isComplete() const override;

private:
    void start();
    void progressed(qint64 done, qint64 total);
    void finished(bool cancelled, const QString &error);

    models::UsageImportSession *m_session;
    Mode m_mode;
    models::UsageChangeModel *m_changes;
    models::UsageNoBalanceModel *m_noBalance;
    models::UsageRefusalModel *m_refusals;
    QTableView *m_noBalanceTable = nullptr; // the dry run's
    QProgressBar *m_progress;
    QLabel *m_summary;
    QPushButton *m_cancel;
    QPushButton *m_again;
    bool m_done = false;
    bool m_running = false;
};

} // namespace md::views
