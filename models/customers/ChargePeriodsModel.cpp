#include "models/customers/ChargePeriodsModel.h"

#include "models/common/WhenDone.h"

#include "models/common/AmountFormat.h"

namespace md::models {

ChargePeriodsModel::ChargePeriodsModel(backend::BillingBackend *backend, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backend(backend)
{}

QString ChargePeriodsModel::periodInWords(qint64 start, qint64 end)
{
    // The last day held is the one before the end (an end at midnight).
    return tr("%1 – %2").arg(formatDate(start), formatDate(end - 1));
}

void ChargePeriodsModel::setCustomer(const QString &customerId)
{
    const quint64 generation = ++m_generation;
    beginResetModel();
    m_customer = customerId;
    m_open.reset();
    m_closed.clear();
    m_periods.clear();
    endResetModel();
    if (customerId.isEmpty())
        return;
    whenFinished(m_backend->chargesPreview({customerId}), this,
                 [this, generation](const api::Result<api::ChargesPreview> &preview) {
                     if (generation != m_generation)
                         return;
                     if (!preview) {
                         Q_EMIT failed(preview.error());
                         return;
                     }
                     const api::ChargesPreview &p = preview.value();
                     m_open = Period{p.periodStart, p.periodEnd, std::nullopt, QString(),
                                     p.currency,    p.lines,     p.total};
                     readStatements(QString(), generation);
                 });
}

void ChargePeriodsModel::readStatements(const QString &cursor, quint64 generation)
{
    api::PageRequest request;
    request.customerId = m_customer;
    request.limit = 200;
    request.startCursor = cursor;
    whenFinished(m_backend->listStatements(request), this,
                 [this, generation](const api::Result<api::Page<api::Statement>> &page) {
                     if (generation != m_generation)
                         return;
                     if (!page) {
                         Q_EMIT failed(page.error());
                         return;
                     }
                     for (const api::Statement &s : page.value().list)
                         m_closed.append({s.periodStart, s.periodEnd, s.closedAt, s.id, s.currency,
                                          s.lines, s.total});
                     if (page.value().hasMore && m_closed.size() < MaxStatements) {
                         readStatements(*page.value().nextCursor, generation);
                         return;
                     }
                     beginResetModel();
                     m_periods.clear();
                     if (m_open)
                         m_periods.append(*m_open);
                     m_periods += m_closed.mid(0, MaxStatements);
                     endResetModel();
                     Q_EMIT loaded();
                 });
}

int ChargePeriodsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_periods.size());
}

int ChargePeriodsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChargePeriodsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_periods.size())
        return {};
    const Period &p = m_periods.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() == TotalColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case PeriodColumn:
        return periodInWords(p.start, p.end);
    case StateColumn:
        return p.closedAt ? tr("closed %1").arg(formatDate(*p.closedAt)) : tr("open, so far");
    case TotalColumn:
        return formatAmount(p.total);
    default:
        return {};
    }
}

QVariant ChargePeriodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PeriodColumn:
        return tr("Period");
    case StateColumn:
        return tr("Statement");
    case TotalColumn:
        return tr("Total");
    default:
        return {};
    }
}

} // namespace md::models
