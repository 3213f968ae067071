#include "models/revenue/RevenueTableModel.h"

#include "models/common/WhenDone.h"

#include "models/common/AmountFormat.h"
#include "models/common/Workbook.h"
#include "models/revenue/RevenueHistory.h"

namespace md::models {

using namespace Qt::StringLiterals;

RevenueTableModel::RevenueTableModel(backend::BillingBackend *backend, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backend(backend)
{}

void RevenueTableModel::load(qint64 from, qint64 to, api::RevenueGroupBy groupBy, bool open)
{
    const quint64 generation = ++m_generation;
    api::RevenueSummaryRequest request;
    request.from = from;
    request.to = to;
    request.groupBy = groupBy;
    request.includeOpen = open;
    request.openMaxAgeMs = open ? RevenueHistory::OpenMaxAgeMs : 0;
    whenFinished(m_backend->revenueSummary(request), this,
                 [this, generation, groupBy](const api::Result<api::RevenueSummary> &summary) {
                     if (generation != m_generation)
                         return;
                     if (!summary) {
                         Q_EMIT failed(summary.error());
                         return;
                     }
                     beginResetModel();
                     m_groupBy = groupBy;
                     m_summary = summary.value();
                     endResetModel();
                     Q_EMIT loaded();
                 });
}

QString RevenueTableModel::keyInWords(const QString &key)
{
    if (key == api::RevenueSummary::NoKey)
        return tr("(none)");
    if (key == api::RevenueSummary::OtherCustomers)
        return tr("(all other customers)");
    return key;
}

ExportColumns RevenueTableModel::exportColumns() const
{
    return {{u"key"_s, headerData(KeyColumn, Qt::Horizontal).toString()},
            {u"fixed"_s, headerData(FixedColumn, Qt::Horizontal).toString()},
            {u"usage"_s, headerData(UsageColumn, Qt::Horizontal).toString()},
            {u"prepaid"_s, headerData(PrepaidColumn, Qt::Horizontal).toString()},
            {u"credits"_s, headerData(CreditsColumn, Qt::Horizontal).toString()},
            {u"total"_s, headerData(TotalColumn, Qt::Horizontal).toString()}};
}

ExportRow RevenueTableModel::exportRow(int row) const
{
    const api::RevenueGroup &g = m_summary.groups.at(row);
    return {ExportWord{g.key, keyInWords(g.key)}, g.fixed, g.usage, g.prepaid, g.credits, g.total};
}

api::Result<api::Done> RevenueTableModel::writeWorkbook(const QString &path) const
{
    auto book = Workbook::create(path, {{tr("Revenue"), exportColumns()}});
    if (!book)
        return book.error();
    for (int row = 0; row < m_summary.groups.size(); ++row)
        book.value()->append(0, exportRow(row));
    ExportRow total(exportColumns().size());
    total[0] = tr("Total (%1)").arg(m_summary.currency.toUpper());
    total[5] = m_summary.total;
    book.value()->append(0, total);
    return book.value()->save();
}

int RevenueTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_summary.groups.size());
}

int RevenueTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RevenueTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_summary.groups.size())
        return {};
    const api::RevenueGroup &g = m_summary.groups.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() != KeyColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case KeyColumn:
        return keyInWords(g.key);
    case FixedColumn:
        return formatAmount(g.fixed);
    case UsageColumn:
        return formatAmount(g.usage);
    case PrepaidColumn:
        return formatAmount(g.prepaid);
    case CreditsColumn:
        return formatAmount(g.credits);
    case TotalColumn:
        return formatAmount(g.total);
    default:
        return {};
    }
}

QVariant RevenueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return m_groupBy == api::RevenueGroupBy::Customer  ? tr("Customer")
               : m_groupBy == api::RevenueGroupBy::Feature ? tr("Feature")
                                                           : tr("Product");
    case FixedColumn:
        return tr("Fixed prices");
    case UsageColumn:
        return tr("Usage");
    case PrepaidColumn:
        return tr("Prepaid");
    case CreditsColumn:
        return tr("Credits");
    case TotalColumn:
        return tr("Total");
    default:
        return {};
    }
}

} // namespace md::models
