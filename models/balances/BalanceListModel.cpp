#include "models/balances/BalanceListModel.h"

#include "models/common/WhenDone.h"

#include <QColor>

namespace md::models {

BalanceListModel::BalanceListModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{
    m_request.limit = api::ListBalancesRequest::MaxLimit;
}

BalanceListModel::~BalanceListModel()
{
    stopAskingPages(); // nobody waits for the answer now
}

void BalanceListModel::stopAskingPages()
{
    // Only a reply still running: Qt 6.4 crashes cancelling the shared
    // "cancelled" state a default-made QFuture holds.
    if (!m_pagesReply.isFinished())
        m_pagesReply.cancel();
}

std::optional<api::BalanceOrder> BalanceListModel::orderOf(int column)
{
    switch (column) {
    case CustomerColumn:
        return api::BalanceOrder::Customer;
    case RemainingColumn:
        return api::BalanceOrder::Remaining;
    case UsageColumn:
        return api::BalanceOrder::Usage;
    case ResetColumn:
        return api::BalanceOrder::NextReset;
    default:
        return std::nullopt;
    }
}

int BalanceListModel::columnOf(api::BalanceOrder order)
{
    for (int column = 0; column < ColumnCount; ++column)
        if (orderOf(column) == order)
            return column;
    return CustomerColumn;
}

void BalanceListModel::setRequest(const api::ListBalancesRequest &request)
{
    m_request = request;
    refresh();
}

void BalanceListModel::refresh()
{
    restart();
    askPages();
}

void BalanceListModel::clearRows()
{
    m_rows.clear();
    m_windowed = false;
    m_count = 0;
    m_starts.clear();
    m_window.clear();
    m_seen.clear();
    m_wanted.clear();
    m_inFlight.clear();
}

int BalanceListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int BalanceListModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_windowed ? int(m_count) : PagedTableModel::rowCount(parent);
}

bool BalanceListModel::canFetchMore(const QModelIndex &parent) const
{
    return !m_windowed && PagedTableModel::canFetchMore(parent);
}

void BalanceListModel::askPages()
{
    const quint64 generation = ++m_pagesGeneration;
    m_askingPages = true;
    stopAskingPages(); // its answer would be dropped
    m_pagesReply = m_backend->balancePages({m_request, m_request.limit});
    m_pagesReply.then(this, [this, generation](const api::Result<api::BalancePages> &pages) {
        if (generation == m_pagesGeneration)
            m_askingPages = false;
        // Without the count (a server that does not know the route, say)
        // the table goes on growing as it is scrolled.
        if (generation == m_pagesGeneration && pages)
            useWindows(pages.value());
    });
}

void BalanceListModel::useWindows(const api::BalancePages &pages)
{
    const int before = rowCount();
    stopPaging();
    // The rows so far become the first pages, while the view is told.
    const auto windowed = [&] {
        const qsizetype pageSize = m_request.limit;
        for (qsizetype i = 0; i < m_rows.size(); ++i) {
            m_window[i / pageSize].append(m_rows.at(i));
            m_seen[i / pageSize] = ++m_tick;
        }
        m_rows.clear();
        m_windowed = true;
        m_count = pages.count;
        m_starts = pages.cursors;
    };
    if (pages.count > before) {
        beginInsertRows({}, before, int(pages.count - 1));
        windowed();
        endInsertRows();
    } else if (pages.count < before) { // rows went while the first ones came
        beginRemoveRows({}, int(pages.count), before - 1);
        windowed();
        endRemoveRows();
    } else {
        windowed();
    }
    keepWithinLimit();
    Q_EMIT complete();
}

void BalanceListModel::applyAdjustment(const api::LedgerEntry &entry)
{
    const auto changed = [this](qsizetype row) {
        Q_EMIT dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
    };
    if (!m_windowed) {
        if (const qsizetype row = m_rows.addToRemaining(entry.balanceId, entry.amount); row >= 0)
            changed(row);
        return;
    }
    for (auto page = m_window.begin(); page != m_window.end(); ++page)
        if (const qsizetype offset = page->addToRemaining(entry.balanceId, entry.amount);
            offset >= 0)
            return changed(page.key() * m_request.limit + offset);
}

std::optional<api::BalanceRow> BalanceListModel::balanceAt(int row) const
{
    if (!m_windowed)
        return row >= 0 && row < m_rows.size() ? std::optional(m_rows.at(row)) : std::nullopt;
    const qsizetype page = row / m_request.limit;
    const qsizetype offset = row % m_request.limit;
    if (const auto held = m_window.constFind(page);
        held != m_window.cend() && offset < held->size()) {
        m_seen[page] = ++m_tick;
        return held->at(offset);
    }
    want(page);
    return std::nullopt;
}

bool BalanceListModel::isLoaded(int row) const
{
    if (!m_windowed)
        return row >= 0 && row < m_rows.size();
    const auto held = m_window.constFind(row / m_request.limit);
    return held != m_window.cend() && row % m_request.limit < held->size();
}

void BalanceListModel::want(qsizetype page) const
{
    if (m_inFlight.contains(page) || page >= m_starts.size())
        return;
    // Only the newest few: dragging the scrollbar asks for every page it
    // passes, and only where it stops matters.
    m_wanted.removeAll(page);
    m_wanted.append(page);
    if (m_wanted.size() > 8)
        m_wanted.removeFirst();
    if (!std::exchange(m_fetchQueued, true))
        QMetaObject::invokeMethod(const_cast<BalanceListModel *>(this),
                                  &BalanceListModel::fetchWanted, Qt::QueuedConnection);
}

void BalanceListModel::fetchWanted()
{
    m_fetchQueued = false;
    while (m_inFlight.size() < 2 && !m_wanted.isEmpty()) {
        const qsizetype page = m_wanted.takeLast();
        if (m_window.contains(page) || m_inFlight.contains(page))
            continue;
        m_inFlight.insert(page);
        api::ListBalancesRequest request = m_request;
        request.startCursor = m_starts.at(page);
        whenDone(m_backend->listBalances(request), this,
                 [this, page, generation = m_pagesGeneration](
                     const api::Result<api::ListBalancesResponse> &result) {
                     if (generation != m_pagesGeneration)
                         return;
                     m_inFlight.remove(page);
                     if (result) {
                         noteDecimals(result.value().list);
                         BalanceRowStore &rows = m_window[page];
                         for (const api::BalanceRow &row : result.value().list)
                             rows.append(row);
                         m_seen[page] = ++m_tick;
                         keepWithinLimit();
                         const int first = int(page * m_request.limit);
                         const int last = std::min(int(m_count), first + int(m_request.limit)) - 1;
                         if (first <= last)
                             Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
                     } else {
                         Q_EMIT failed(result.error());
                     }
                     fetchWanted();
                 });
    }
}

void BalanceListModel::noteDecimals(const QList<api::BalanceRow> &rows)
{
    bool grew = false;
    for (const api::BalanceRow &row : rows) {
        int needs = 2;
        for (const api::Decimal &amount :
             {row.includedGrant, row.prepaidGrant, row.remaining, row.usage}) {
            const QString text = amount.toString();
            const qsizetype point = text.indexOf(u'.');
            if (point >= 0)
                needs = std::max(needs, int(text.size() - point - 1));
        }
        if (needs > m_decimals.value(row.featureId, 2)) {
            m_decimals.insert(row.featureId, needs);
            grew = true;
        }
    }
    if (grew && rowCount() > 0)
        Q_EMIT dataChanged(index(0, IncludedColumn), index(rowCount() - 1, UsageColumn),
                           {Qt::DisplayRole});
}

void BalanceListModel::keepWithinLimit()
{
    while (m_window.size() > MaxWindowPages) {
        auto oldest = m_seen.cbegin();
        for (auto it = m_seen.cbegin(); it != m_seen.cend(); ++it)
            if (it.value() < oldest.value())
                oldest = it;
        m_window.remove(oldest.key());
        m_seen.erase(oldest);
    }
}

void BalanceListModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::ListBalancesRequest request = m_request;
    request.startCursor = cursor;
    m_backend->listBalances(request).then(
        this, [this, generation](const api::Result<api::ListBalancesResponse> &result) {
            if (!result) {
                pageFailed(generation, result.error());
                return;
            }
            const api::ListBalancesResponse &page = result.value();
            noteDecimals(page.list);
            pageArrived(generation, page.list.size(), page.hasMore, page.nextCursor, [&] {
                for (const api::BalanceRow &row : page.list)
                    m_rows.append(row);
            });
        });
}

QVariant BalanceListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::optional<api::BalanceRow> row = balanceAt(index.row());
    if (row)
        return cell(*row, index.column(), role, decimalsOf(row->featureId));
    // Its page is on its way.
    if (role == Qt::DisplayRole && index.column() == CustomerColumn)
        return tr("…");
    if (role == Qt::ForegroundRole)
        return QColor(Qt::gray);
    return {};
}

} // namespace md::models
