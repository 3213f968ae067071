#include "views/import/ImportValidationPage.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportSession.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

ImportValidationPage::ImportValidationPage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_filter(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_onlyProblems(new QCheckBox(tr("Show &only rows with problems"), this))
    , m_counts(new QLabel(this))
    , m_problem(new QLabel(this))
{
    setTitle(tr("Validation"));
    setSubTitle(tr("Every row is checked as the server would. Fix a cell in place (F2 or "
                   "double-click), or untick a row to leave it out."));
    models::ImportBatch *batch = session->batch();
    m_filter->setSourceModel(batch);
    m_filter->setFilterRole(models::ImportBatch::ProblemRole);
    // Rows stay where they are while they are being fixed.
    m_filter->setDynamicSortFilter(false);
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *exclude = new QPushButton(tr("&Exclude rows with problems"), this);
    auto *includeAll = new QPushButton(tr("&Include all"), this);
    auto *row = new QHBoxLayout;
    row->addWidget(m_counts, 1);
    row->addWidget(m_onlyProblems);
    row->addWidget(exclude);
    row->addWidget(includeAll);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_problem);

    connect(m_onlyProblems, &QCheckBox::toggled, this,
            [this](bool only) { m_filter->setFilterFixedString(only ? u"true"_s : QString()); });
    connect(exclude, &QPushButton::clicked, batch, &models::ImportBatch::excludeProblems);
    connect(includeAll, &QPushButton::clicked, batch, &models::ImportBatch::includeAll);
    connect(batch, &models::ImportBatch::countsChanged, this, &ImportValidationPage::showCounts);
    connect(batch, &models::ImportBatch::readingStarted, this,
            &ImportValidationPage::completeChanged);
    connect(batch, &models::ImportBatch::modelReset, this, [this] {
        m_table->resizeColumnsToContents();
        showCounts();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ImportValidationPage::showCurrentProblem);
    connect(batch, &models::ImportBatch::dataChanged, this,
            &ImportValidationPage::showCurrentProblem);
}

void ImportValidationPage::showCounts()
{
    const models::ImportBatch *batch = m_session->batch();
    const int rows = batch->rowCount();
    const int included = batch->includedCount();
    const int problems = batch->problemCount();
    m_counts->setText(tr("%n row(s): ", nullptr, rows) +
                      tr("%n ready", nullptr, included - problems) + u", "_s +
                      tr("%n with problems", nullptr, problems) + u", "_s +
                      tr("%n left out", nullptr, rows - included) +
                      (batch->unknownPlanCount() > 0
                           ? u"; "_s + tr("%n naming a plan this workspace does not have (the "
                                          "import would refuse them)",
                                          nullptr, batch->unknownPlanCount())
                           : QString()));
    Q_EMIT completeChanged();
}

void ImportValidationPage::showCurrentProblem()
{
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    if (!current.isValid()) {
        m_problem->clear();
        return;
    }
    const models::ImportBatch *batch = m_session->batch();
    const QString problem = batch->index(current.row(), batch->columnCount() - 1).data().toString();
    m_problem->setText(problem.isEmpty()
                           ? QString()
                           : tr("Line %1: %2").arg(batch->row(current.row()).line).arg(problem));
}

bool ImportValidationPage::isComplete() const
{
    const models::ImportBatch *batch = m_session->batch();
    return !batch->isReading() && batch->problemCount() == 0 && batch->includedCount() > 0;
}

} // namespace md::views
