// Customers (id, name, email) from the customers list, paged on demand and
// narrowed by a search text; stale answers are dropped when the search changes.
#pragma once

#include "services/backend/BillingBackend.h"

#include "models/common/ExportRow.h"
#include "models/common/PagedTableModel.h"

namespace md::models {

class CustomerListModel final : public PagedTableModel
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
    // What an export writes of a customer (docs/export.md).
    static ExportColumns columns();
    static ExportRow cells(const api::CustomerSummary &customer);
    // One customer whole (balances, subscriptions, controls), for the detail pane.
    backend::Reply<api::Customer> details(const QString &customerId);
    // A link to the customer's billing portal.
    backend::Reply<api::BillingPortalResponse> portalLink(const QString &customerId);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    QString m_search;
    QList<api::CustomerSummary> m_rows;
};

} // namespace md::models
