#include "models/BalanceListModel.h"

#include "models/AmountFormat.h"
#include "services/api/WireCodec.h"

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
        m_backend->listBalances(request).then(
            this, [this, page, generation = m_pagesGeneration](
                      const api::Result<api::ListBalancesResponse> &result) {
                if (generation != m_pagesGeneration)
                    return;
                m_inFlight.remove(page);
                if (result) {
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
            pageArrived(generation, page.list.size(), page.hasMore, page.nextCursor, [&] {
                for (const api::BalanceRow &row : page.list)
                    m_rows.append(row);
            });
        });
}

QString BalanceListModel::intervalName(api::ResetInterval interval)
{
    switch (interval) {
    case api::ResetInterval::OneOff:
        return tr("once");
    case api::ResetInterval::Minute:
        return tr("every minute");
    case api::ResetInterval::Hour:
        return tr("hourly");
    case api::ResetInterval::Day:
        return tr("daily");
    case api::ResetInterval::Week:
        return tr("weekly");
    case api::ResetInterval::Month:
        return tr("monthly");
    case api::ResetInterval::Quarter:
        return tr("quarterly");
    case api::ResetInterval::SemiAnnual:
        return tr("half-yearly");
    case api::ResetInterval::Year:
        return tr("yearly");
    case api::ResetInterval::Multiple:
        return tr("several intervals");
    }
    return {};
}

QString BalanceListModel::rawText(const api::BalanceRow &row)
{
    return QString::fromUtf8(api::toJsonText(row, api::JsonWriter::Style::Indented));
}

QVariant BalanceListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case CustomerColumn:
        return tr("Customer");
    case FeatureColumn:
        return tr("Feature");
    case PlanColumn:
        return tr("Plan");
    case EntityColumn:
        return tr("Entity");
    case IncludedColumn:
        return tr("Included");
    case PrepaidColumn:
        return tr("Prepaid");
    case RemainingColumn:
        return tr("Remaining");
    case UsageColumn:
        return tr("Usage");
    case UnlimitedColumn:
        return tr("Unlimited");
    case IntervalColumn:
        return tr("Resets");
    case RolloversColumn:
        return tr("Rollovers");
    case StatusColumn:
        return tr("Status");
    case ResetColumn:
        return tr("Next reset");
    case ExpiresColumn:
        return tr("Expires");
    case CreatedColumn:
        return tr("Created");
    default:
        return {};
    }
}

QVariant BalanceListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::optional<api::BalanceRow> row = balanceAt(index.row());
    if (row)
        return cell(*row, index.column(), role);
    // Its page is on its way.
    if (role == Qt::DisplayRole && index.column() == CustomerColumn)
        return tr("…");
    if (role == Qt::ForegroundRole)
        return QColor(Qt::gray);
    return {};
}

QVariant BalanceListModel::cell(const api::BalanceRow &row, int column, int role) const
{
    const bool expired = row.status == api::BalanceStatus::Expired;
    const auto amount = [&](const api::Decimal &value) -> QVariant {
        if (role == RawValueRole)
            return value.toString();
        if (row.unlimited && (column == RemainingColumn || column == IncludedColumn))
            return tr("Unlimited");
        return formatAmount(value);
    };
    const auto time = [&](std::optional<qint64> ms) -> QVariant {
        if (!ms)
            return role == RawValueRole ? QVariant() : QVariant(QString());
        if (role == RawValueRole)
            return *ms;
        return role == Qt::ToolTipRole ? formatTimestamp(*ms) : formatDate(*ms);
    };

    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case RawValueRole:
        switch (column) {
        case CustomerColumn:
            return row.customerId;
        case FeatureColumn:
            return row.featureId;
        case PlanColumn:
            return row.planId.value_or(role == RawValueRole ? QString() : tr("—"));
        case EntityColumn:
            return row.entityId.value_or(QString());
        case IncludedColumn:
            return amount(row.includedGrant);
        case PrepaidColumn:
            return amount(row.prepaidGrant);
        case RemainingColumn:
            if (role == Qt::ToolTipRole && !row.rollovers.isEmpty())
                return tr("%n rollover(s) carried onto this balance", nullptr,
                          int(row.rollovers.size()));
            return amount(row.remaining);
        case UsageColumn:
            return amount(row.usage);
        case UnlimitedColumn:
            if (role == RawValueRole)
                return row.unlimited;
            return row.unlimited ? tr("Unlimited") : QString();
        case IntervalColumn:
            if (!row.reset)
                return QString();
            return role == RawValueRole ? QString(api::toWire(row.reset->interval))
                                        : intervalName(row.reset->interval);
        case RolloversColumn:
            if (role == RawValueRole)
                return int(row.rollovers.size());
            return row.rollovers.isEmpty() ? QString() : QString::number(row.rollovers.size());
        case StatusColumn:
            if (role == RawValueRole)
                return QString(api::toWire(row.status));
            return expired ? tr("expired") : tr("active");
        case ResetColumn:
            return time(row.reset ? row.reset->resetsAt : std::nullopt);
        case ExpiresColumn:
            return time(row.expiresAt);
        case CreatedColumn:
            return time(row.createdAt);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if ((column >= IncludedColumn && column <= UsageColumn) || column == RolloversColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Mid grey reads as "inactive" on light and dark palettes alike.
        return expired ? QVariant(QColor(Qt::gray)) : QVariant();
    default:
        return {};
    }
}

} // namespace md::models
