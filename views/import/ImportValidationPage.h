// Step 3: every row checked locally. Bad cells are highlighted with their
// message beside them; rows are fixed in place (F2 or double-click) or
// excluded; Next waits until no included row has a problem.
#pragma once

#include <QWizardPage>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace md::models {
class ImportSession;
}

namespace md::views {

class ImportValidationPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportValidationPage)

public:
    explicit ImportValidationPage(models::ImportSession *session);

    bool isComplete() const override;
    QTableView *table() const { return m_table; }
    // The current row's problem: "Line 5: …".
    QLabel *problemLabel() const { return m_problem; }
    QLabel *countsLabel() const { return m_counts; }

private:
    void showCounts();
    void showCurrentProblem();

    models::ImportSession *m_session;
    QSortFilterProxyModel *m_filter;
    QTableView *m_table;
    QCheckBox *m_onlyProblems;
    QLabel *m_counts;
    QLabel *m_problem;
};

} // namespace md::views
