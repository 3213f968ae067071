// Step 4: the server's own dry run of every included customer, in the
// background with progress and Cancel. Chips count and filter the outcomes;
// the selected customer, named at the pane's top, has the identity fields
// the import changes, its plans and its balances shown before and after.
#pragma once

#include <QWizardPage>

class QButtonGroup;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace md::models {
class ImportSession;
}

namespace md::views {

class ImportPreviewPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportPreviewPage)

public:
    explicit ImportPreviewPage(models::ImportSession *session);

    void initializePage() override;
    void cleanupPage() override;
    bool isComplete() const override;
    QTableView *table() const { return m_table; }
    QTreeWidget *changes() const { return m_changes; }
    // The pane's heading: the customer whose changes it shows.
    QLabel *customerHeading() const { return m_customer; }
    // Shows only customers of that outcome (an ImportOutcome); all for Pending.
    void filterOutcome(int outcome);

private:
    void start();
    void showCounts();
    void showProgress(int done, int total);
    void finished(bool cancelled, const QString &error);
    // Resuming: how many customers the commit will not send again, or empty.
    QString resumeNote() const;
    void showChanges();
    void selectAfterReset();

    models::ImportSession *m_session;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QLabel *m_status;
    QButtonGroup *m_chips;
    QSortFilterProxyModel *m_filter;
    QTableView *m_table;
    QLabel *m_customer;
    QTreeWidget *m_changes;
    QString m_shownCustomer; // to select again once the rows are replaced
    bool m_startWhenIdle = false;
};

} // namespace md::views
