// products update in the engine (docs/api.md, products update), in
// one write transaction. Omitted fields keep their value. Name, group,
// add-on, default and archived describe the product and apply to every
// version; items, free trial and the version number belong to the newest
// version. Changing the items of a version that customers are on adds a new
// version (the next number, or the one given) so their history stays as it
// was; otherwise the newest version is changed in place. Renaming moves
// every version and the coupons that name the product. A dry run answers
// what would be stored and keeps nothing (a version it would add has its
// own created_at, now). create() adds a product the scope has no version
// of (a promotion from the sandbox).
#pragma once

#include "services/api/UpdateProduct.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class ProductUpdater final
{
public:
    static api::Result<api::Product> update(const QSqlDatabase &db, Dialect dialect,
                                            const Scope &scope, const QString &productId,
                                            const api::UpdateProductRequest &request, qint64 nowMs);
    // `product` as version 1 of a new id; its items' features must exist.
    static api::Result<api::Product> create(const QSqlDatabase &db, Dialect dialect,
                                            const Scope &scope, const api::Product &product,
                                            qint64 nowMs);
    // One writer of an organization's products at a time, until the
    // transaction ends: two updates that both read version 1 would both
    // write version 2. On PostgreSQL the organization's row is locked.
    static api::Result<api::Done> lockProducts(const QSqlDatabase &db, Dialect dialect,
                                               qint64 orgPk);
    // The newest version of `id` in the scope.
    static api::Result<api::Product> newestOf(const QSqlDatabase &db, const Scope &scope,
                                              const QString &id);
};

} // namespace md::engine
