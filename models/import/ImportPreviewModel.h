// One row per customer the wizard imports: the server's dry-run outcome
// with what would change, then what the commit did. Counts per outcome feed
// the wizard's chips; OutcomeRole filters by outcome; the report is CSV.
#pragma once

#include "models/import/ImportBatch.h"
#include "models/import/ImportChanges.h"

#include <QAbstractTableModel>

namespace md::models {

enum class CommitState { Waiting, Committed, Failed, Earlier, NotImported };

struct ImportEntry
{
    int line = 0;
    api::ImportCustomerRequest request;
    ImportOutcome outcome = ImportOutcome::Pending; // of the dry run
    QString message;                                // why an error or mismatch
    ImportChanges changes;
    CommitState commit = CommitState::Waiting;
    ImportOutcome committedAs = ImportOutcome::Pending;
    QString commitMessage;
};

class ImportPreviewModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportPreviewModel)

public:
    enum Column {
        LineColumn,
        CustomerColumn,
        OutcomeColumn,
        ChangesColumn,
        CommitColumn,
        ColumnCount
    };
    // The dry-run outcome as an int (ImportOutcome), to filter on.
    static constexpr int OutcomeRole = Qt::UserRole + 1;

    explicit ImportPreviewModel(QObject *parent = nullptr);

    void setItems(const QList<ImportBatch::Item> &items);
    const ImportEntry &entry(int row) const { return m_entries.at(row); }
    // The first row of that customer, or -1 when the preview has none.
    int rowOf(const QString &customerId) const;
    void setDryRun(int row, ImportOutcome outcome, const QString &message,
                   const ImportChanges &changes);
    void setCommit(int row, CommitState state, ImportOutcome outcome, const QString &message);
    // Forgets dry-run and commit results (the batch is run again).
    void clearResults();

    // Kept as results arrive: the wizard reads them on every change.
    const QList<int> &outcomeCounts() const { return m_outcomeCounts; } // by ImportOutcome
    // Customers to look at before committing, with why (a Stripe source:
    // past due, ending, renewing soon, several plans); shown first in
    // "What changes".
    void setReview(const QHash<QString, QString> &review);
    QString reviewOf(const QString &customerId) const { return m_review.value(customerId); }
    const QMap<CommitState, int> &commitCounts() const { return m_commitCounts; }
    // Line, customer, dry run, commit result and message: the wizard's report.
    QByteArray reportCsv() const;
    static QString commitName(CommitState state, ImportOutcome outcome);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void countsChanged();

private:
    void recount();

    QList<ImportEntry> m_entries;
    QList<int> m_outcomeCounts = QList<int>(ImportOutcomeCount, 0);
    QHash<QString, QString> m_review;
    QMap<CommitState, int> m_commitCounts;
};

} // namespace md::models
