// Customers (id, name, email) from the customers list, paged on demand and
// narrowed by a search text; stale answers are dropped when the search changes.
#pragma once

#include "services/backend/BillingBackend.h"

#include <QAbstractTableModel>

namespace md::models {

class CustomerListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerListModel)

public:
    enum Column { IdColumn, NameColumn, EmailColumn, CreatedColumn, ColumnCount };
    static constexpr int RawValueRole = Qt::UserRole;

    explicit CustomerListModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void setSearch(const QString &search);
    const QString &search() const { return m_search; }
    const api::CustomerSummary &customer(int row) const { return m_rows.at(row); }
    bool isLoading() const { return m_loading; }
    bool hasMore() const { return m_hasMore; }
    const std::optional<api::ApiError> &lastError() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void loadingChanged(bool loading);
    void failed(const md::api::ApiError &error);

private:
    void sendRequest();

    backend::BillingBackend *m_backend;
    QString m_search;
    QList<api::CustomerSummary> m_rows;
    QString m_cursor;
    bool m_hasMore = true;
    bool m_loading = false;
    quint64 m_generation = 0;
    std::optional<api::ApiError> m_error;
};

} // namespace md::models
