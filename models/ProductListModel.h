// The Products page's table: the newest version of every product, read with
// listProducts; reload() after a change.
#pragma once

#include "services/api/ApiError.h"
#include "services/api/Product.h"

#include <QAbstractTableModel>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class ProductListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductListModel)

public:
    enum Column {
        NameColumn,
        IdColumn,
        GroupColumn,
        VersionColumn,
        AddOnColumn,
        DefaultColumn,
        ArchivedColumn,
        EnvColumn,
        ColumnCount
    };

    explicit ProductListModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload();
    const api::Product &product(int row) const { return m_rows.at(row); }
    // The row of that product id, or -1.
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void loaded();
    void failed(const md::api::ApiError &error);

private:
    backend::BillingBackend *m_backend;
    QList<api::Product> m_rows;
    quint64 m_generation = 0;
};

} // namespace md::models
