// Step 6: what the commit did, counted per outcome, the customers that were
// not imported with the reason, and the whole report exported as CSV.
#pragma once

#include <QWizardPage>

class QLabel;
class QTreeWidget;

namespace md::models {
class ImportSession;
}

namespace md::views {

class ImportReportPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportReportPage)

public:
    explicit ImportReportPage(models::ImportSession *session);

    void initializePage() override;
    // Writes the report; false with a message shown when it cannot.
    bool exportTo(const QString &path);
    QTreeWidget *failures() const { return m_failures; }
    // Customers imported by outcome, those not imported, the journal.
    QLabel *counts() const { return m_counts; }

private:
    models::ImportSession *m_session;
    QLabel *m_counts;
    QTreeWidget *m_failures;
};

} // namespace md::views
