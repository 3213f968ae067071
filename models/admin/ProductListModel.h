// The Products page's table: the newest version of every product, read with
// listProducts; reload() after a change.
#pragma once

#include "models/common/EditableListModel.h"
#include "services/api/FeatureInfo.h"
#include "services/api/Page.h"
#include "services/api/Product.h"
#include "services/api/Result.h"
#include "services/api/UpdateProduct.h"

#include <QFuture>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class ProductListModel final : public EditableListModel
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

    void reload() override;
    // Saves a product's change (docs/api.md, "products update"); reload() after.
    QFuture<api::Result<api::Product>> save(const QString &productId,
                                            const api::UpdateProductRequest &request);
    // The product as that save would store it, nothing written (a dry run).
    QFuture<api::Result<api::Product>> preview(const QString &productId,
                                               api::UpdateProductRequest request);
    // The workspace's features, which a product's items must name.
    QFuture<api::Result<api::Page<api::FeatureInfo>>> features();
    // A save went through: `before` is what undoLast() writes back.
    void remember(const api::Product &before, const api::Product &after);
    // Refused, saying why, when the save added a version (customers were on
    // the one it changed): no route removes a version.
    QFuture<api::Result<QString>> undoLast() override;
    const api::Product &product(int row) const { return m_rows.at(row); }
    QString idAt(int row) const override { return m_rows.at(row).id; }
    // The row of that product id, or -1.
    int rowOf(const QString &id) const override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // Saves what undoes the remembered change.
    QFuture<api::Result<QString>> writeBack();

    backend::BillingBackend *m_backend;
    QList<api::Product> m_rows;
    std::optional<std::pair<api::Product, api::Product>> m_lastChange; // before, after
};

} // namespace md::models
