// The Products page's table: the newest version of every product, read with
// listProducts; reload() after a change.
#pragma once

#include "models/ListTableModel.h"
#include "services/api/Product.h"

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class ProductListModel final : public ListTableModel
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
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    backend::BillingBackend *m_backend;
    QList<api::Product> m_rows;
};

} // namespace md::models
