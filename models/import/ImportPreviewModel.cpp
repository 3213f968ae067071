#include "models/import/ImportPreviewModel.h"

#include "models/common/CsvText.h"

#include <QColor>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QColor outcomeColor(ImportOutcome outcome)
{
    switch (outcome) {
    case ImportOutcome::New:
        return QColor(60, 170, 90, 90);
    case ImportOutcome::Updated:
        return QColor(60, 120, 220, 90);
    case ImportOutcome::Expired:
        return QColor(230, 160, 40, 90);
    case ImportOutcome::Mismatch:
    case ImportOutcome::Error:
        return QColor(220, 50, 50, 90);
    case ImportOutcome::Pending:
    case ImportOutcome::Unchanged:
        break;
    }
    return {};
}

} // namespace

ImportPreviewModel::ImportPreviewModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void ImportPreviewModel::setItems(const QList<ImportBatch::Item> &items)
{
    beginResetModel();
    m_entries.clear();
    m_entries.reserve(items.size());
    for (const ImportBatch::Item &item : items) {
        ImportEntry entry;
        entry.line = item.line;
        entry.request = item.request;
        m_entries.append(std::move(entry));
    }
    recount();
    endResetModel();
    Q_EMIT countsChanged();
}

int ImportPreviewModel::rowOf(const QString &customerId) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (m_entries.at(r).request.customerId == customerId)
            return r;
    return -1;
}

void ImportPreviewModel::setDryRun(int row, ImportOutcome outcome, const QString &message,
                                   const ImportChanges &changes)
{
    ImportEntry &entry = m_entries[row];
    --m_outcomeCounts[int(entry.outcome)];
    ++m_outcomeCounts[int(outcome)];
    entry.outcome = outcome;
    entry.message = message;
    entry.changes = changes;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT countsChanged();
}

void ImportPreviewModel::setCommit(int row, CommitState state, ImportOutcome outcome,
                                   const QString &message)
{
    ImportEntry &entry = m_entries[row];
    --m_commitCounts[entry.commit];
    ++m_commitCounts[state];
    entry.commit = state;
    entry.committedAs = outcome;
    entry.commitMessage = message;
    Q_EMIT dataChanged(index(row, CommitColumn), index(row, CommitColumn));
    Q_EMIT countsChanged();
}

void ImportPreviewModel::clearResults()
{
    for (ImportEntry &entry : m_entries) {
        entry.outcome = ImportOutcome::Pending;
        entry.message.clear();
        entry.changes = {};
        entry.commit = CommitState::Waiting;
        entry.committedAs = ImportOutcome::Pending;
        entry.commitMessage.clear();
    }
    recount();
    if (!m_entries.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    Q_EMIT countsChanged();
}

void ImportPreviewModel::recount()
{
    m_outcomeCounts = QList<int>(ImportOutcomeCount, 0);
    m_commitCounts.clear();
    for (const ImportEntry &entry : std::as_const(m_entries)) {
        ++m_outcomeCounts[int(entry.outcome)];
        ++m_commitCounts[entry.commit];
    }
}

QString ImportPreviewModel::commitName(CommitState state, ImportOutcome outcome)
{
    switch (state) {
    case CommitState::Waiting:
        return tr("not yet");
    case CommitState::Committed:
        return tr("done: %1").arg(ImportChanges::outcomeName(outcome));
    case CommitState::Failed:
        return tr("failed");
    case CommitState::Earlier:
        return tr("done earlier");
    case CommitState::NotImported:
        return tr("left out");
    }
    return {};
}

QByteArray ImportPreviewModel::reportCsv() const
{
    QStringList lines{u"line,customer_id,dry_run,commit,message"_s};
    for (const ImportEntry &entry : m_entries) {
        const QString message = entry.commitMessage.isEmpty() ? entry.message : entry.commitMessage;
        lines.append(QStringList{
            QString::number(entry.line), CsvText::field(entry.request.customerId),
            ImportChanges::outcomeName(entry.outcome),
            CsvText::field(commitName(entry.commit, entry.committedAs)), CsvText::field(message)}
                         .join(u','));
    }
    return lines.join(u"\r\n"_s).toUtf8() + "\r\n";
}

int ImportPreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ImportPreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportPreviewModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ImportEntry &entry = m_entries.at(index.row());
    if (role == OutcomeRole)
        return int(entry.outcome);
    if (role == Qt::BackgroundRole && index.column() == OutcomeColumn) {
        const QColor color = outcomeColor(entry.outcome);
        return color.isValid() ? QVariant(color) : QVariant();
    }
    if (role == Qt::ToolTipRole)
        return entry.commitMessage.isEmpty() ? entry.message : entry.commitMessage;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case LineColumn:
        return entry.line;
    case CustomerColumn:
        return entry.request.customerId;
    case OutcomeColumn:
        return ImportChanges::outcomeName(entry.outcome);
    case ChangesColumn: {
        const QString changes = !entry.message.isEmpty()                  ? entry.message
                                : entry.outcome == ImportOutcome::Pending ? QString()
                                                                          : entry.changes.summary();
        const QString review = m_review.value(entry.request.customerId);
        return review.isEmpty() ? changes : tr("Review: %1. %2").arg(review, changes).trimmed();
    }
    case CommitColumn:
        return entry.commitMessage.isEmpty()
                   ? commitName(entry.commit, entry.committedAs)
                   : u"%1: %2"_s.arg(commitName(entry.commit, entry.committedAs),
                                     entry.commitMessage);
    }
    return {};
}

void ImportPreviewModel::setReview(const QHash<QString, QString> &review)
{
    m_review = review;
    if (!m_entries.isEmpty())
        Q_EMIT dataChanged(index(0, ChangesColumn), index(rowCount() - 1, ChangesColumn));
}

QVariant ImportPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LineColumn:
        return tr("Line");
    case CustomerColumn:
        return tr("Customer");
    case OutcomeColumn:
        return tr("Dry run");
    case ChangesColumn:
        return tr("What changes");
    case CommitColumn:
        return tr("Commit");
    }
    return {};
}

} // namespace md::models
