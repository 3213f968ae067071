#include "models/common/PagedTableModel.h"

namespace md::models {

PagedTableModel::PagedTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

int PagedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(storedRows());
}

bool PagedTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_hasMore && !m_loading && !m_error;
}

void PagedTableModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        requestPage();
}

void PagedTableModel::restart()
{
    ++m_generation; // answers to earlier requests are dropped
    const bool wasLoading = m_loading;
    m_loading = false;
    beginResetModel();
    clearRows();
    m_cursor.clear();
    m_hasMore = true;
    m_error.reset();
    endResetModel();
    // A view may already have asked for the first page while resetting.
    if (m_loading)
        return;
    if (wasLoading)
        Q_EMIT loadingChanged(false);
    requestPage();
}

void PagedTableModel::stopPaging()
{
    ++m_generation; // a page on its way is no longer wanted
    m_hasMore = false;
    if (std::exchange(m_loading, false))
        Q_EMIT loadingChanged(false);
}

void PagedTableModel::requestPage()
{
    if (m_loading || !m_hasMore)
        return;
    m_loading = true;
    Q_EMIT loadingChanged(true);
    // Asked from the event loop, never from inside a reset or an insertion a
    // view is handling: a backend may answer at once.
    QMetaObject::invokeMethod(
        this,
        [this, generation = m_generation] {
            if (generation == m_generation)
                sendRequest(m_cursor, generation);
        },
        Qt::QueuedConnection);
}

void PagedTableModel::pageDone(bool empty)
{
    // An empty page with more behind it is not for the view to notice.
    if (m_hasMore && empty) {
        sendRequest(m_cursor, m_generation);
        return;
    }
    m_loading = false;
    Q_EMIT loadingChanged(false);
    if (!m_hasMore)
        Q_EMIT complete();
}

void PagedTableModel::pageFailed(quint64 generation, const api::ApiError &error)
{
    if (generation != m_generation)
        return;
    m_loading = false;
    m_error = error;
    Q_EMIT loadingChanged(false);
    Q_EMIT failed(error);
}

} // namespace md::models
