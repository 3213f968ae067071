// The paging every cursor-paged table shares: canFetchMore/fetchMore, one
// request in flight at most, pages that come back empty with more behind
// them followed at once, answers to an earlier restart dropped, errors kept
// as values. Subclasses ask the backend for a page and store its rows.
#pragma once

#include "services/api/ApiError.h"

#include <QAbstractTableModel>

#include <optional>

namespace md::models {

class PagedTableModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PagedTableModel)

public:
    bool isLoading() const { return m_loading; }
    bool hasMore() const { return m_hasMore; }
    const std::optional<api::ApiError> &lastError() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void loadingChanged(bool loading);
    // A page failed; the model keeps what it had and can be asked again.
    void failed(const md::api::ApiError &error);
    // Every page has been fetched (the count is final).
    void complete();

protected:
    explicit PagedTableModel(QObject *parent = nullptr);

    // Drops every row and starts again from the first page.
    void restart();
    // No more pages: the rows are complete by other means (a windowed table).
    void stopPaging();

    virtual qsizetype storedRows() const = 0;
    virtual void clearRows() = 0;
    // Asks for the page at `cursor` and answers with pageArrived or pageFailed,
    // passing `generation` back.
    virtual void sendRequest(const QString &cursor, quint64 generation) = 0;

    // `append` stores the page's `count` rows; it runs between beginInsertRows
    // and endInsertRows. Answers of an earlier generation are ignored.
    template <typename Append>
    void pageArrived(quint64 generation, qsizetype count, bool hasMore,
                     const std::optional<QString> &next, Append &&append)
    {
        if (generation != m_generation)
            return;
        // The position moves before rows are announced and loading ends after,
        // so a view asking for more while rows are inserted gets the next page.
        m_hasMore = hasMore;
        m_cursor = next.value_or(QString());
        if (count > 0) {
            beginInsertRows({}, int(storedRows()), int(storedRows() + count - 1));
            append();
            endInsertRows();
        }
        pageDone(count == 0);
    }
    void pageFailed(quint64 generation, const api::ApiError &error);

private:
    void requestPage();
    void pageDone(bool empty);

    QString m_cursor;
    bool m_hasMore = true;
    bool m_loading = false;
    quint64 m_generation = 0;
    std::optional<api::ApiError> m_error;
};

} // namespace md::models
