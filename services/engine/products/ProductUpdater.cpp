#include "services/engine/products/ProductUpdater.h"

#include "services/engine/products/ProductReads.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

QVariant trialValue(const std::optional<api::FreeTrial> &trial)
{
    return trial ? QVariant(storedText(*trial)) : QVariant();
}

api::Result<QList<api::ProductItem>> storedItems(const QVariant &text, const QString &productId)
{
    return decodeStored(text, u"items of product %1"_s.arg(productId),
                        &api::readList<api::ProductItem>);
}

// A version's row; `described` is its name, group_name, is_add_on,
// is_default and archived.
api::Result<api::Done> insertVersion(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                     const QString &id, qint64 version,
                                     const QVariantList &described, const QVariant &items,
                                     const QVariant &trial, qint64 nowMs)
{
    KeyAllocator keys(db, dialect);
    auto pk = keys.next(u"products"_s);
    if (!pk)
        return pk.error();
    return execute(
        db,
        u"INSERT INTO products (pk, org_pk, env, id, version, name, group_name, is_add_on,"
        " is_default, archived, items, free_trial, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
        QVariantList{pk.value(), scope.orgPk, scope.envWord(), id, version} + described +
            QVariantList{items, trial, nowMs});
}

// Every feature the items name exists in the scope.
api::Result<api::Done> checkFeatures(const QSqlDatabase &db, const Scope &scope,
                                     const QList<api::ProductItem> &items)
{
    for (qsizetype i = 0; i < items.size(); ++i) {
        const api::ProductItem &item = items.at(i);
        const std::optional<QString> feature =
            item.featureId.isEmpty() ? std::nullopt : std::optional(item.featureId);
        for (const auto &[field, id] : {std::pair{u"feature_id"_s, feature},
                                        std::pair{u"entity_feature_id"_s, item.entityFeatureId}}) {
            if (!id)
                continue;
            auto found =
                queryRows(db, u"SELECT 1 FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                          {scope.orgPk, scope.envWord(), *id});
            if (!found)
                return found.error();
            if (found.value().isEmpty())
                return ApiError::notFound(
                    api::ErrorCode::FeatureNotFound,
                    u"items[%1].%2: feature \"%3\" does not exist"_s.arg(i).arg(field, *id));
        }
    }
    return api::Done{};
}

// Coupons keep naming the product under its new id.
api::Result<api::Done> renameInCoupons(const QSqlDatabase &db, const Scope &scope,
                                       const QString &from, const QString &to)
{
    auto coupons = queryRows(
        db, u"SELECT pk, record FROM rewards WHERE org_pk = ? AND env = ? AND kind = 'coupon'"_s,
        {scope.orgPk, scope.envWord()});
    if (!coupons)
        return coupons.error();
    for (const QVariantList &coupon : coupons.value()) {
        auto record = decodeStored<api::CouponRecord>(coupon.at(1), u"coupon"_s);
        if (!record)
            return record.error();
        if (!record.value().planIds || !record.value().planIds->contains(from))
            continue;
        for (QString &plan : *record.value().planIds)
            if (plan == from)
                plan = to;
        if (auto updated = execute(db, u"UPDATE rewards SET record = ? WHERE pk = ?"_s,
                                   {storedText(record.value()), coupon.at(0)});
            !updated)
            return updated.error();
    }
    return api::Done{};
}

api::Result<api::Done> apply(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                             const QString &productId, const api::UpdateProductRequest &request,
                             qint64 nowMs)
{
    const QVariantList where{scope.orgPk, scope.envWord(), productId};
    auto latest =
        queryRows(db,
                  u"SELECT pk, version, name, group_name, is_add_on, is_default, archived,"
                  " items, free_trial FROM products WHERE org_pk = ? AND env = ? AND id = ?"
                  " ORDER BY version DESC LIMIT 1"_s,
                  where);
    if (!latest)
        return latest.error();
    if (latest.value().isEmpty())
        return ApiError::notFound(api::ErrorCode::ProductNotFound,
                                  u"product \"%1\" does not exist"_s.arg(productId));
    const QVariantList row = latest.value().first();
    const qint64 latestPk = row.at(0).toLongLong();
    const qint64 latestVersion = row.at(1).toLongLong();

    if (request.id && *request.id != productId) {
        auto taken =
            queryRows(db, u"SELECT 1 FROM products WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), *request.id});
        if (!taken)
            return taken.error();
        if (!taken.value().isEmpty())
            return ApiError{
                400, api::ErrorCode::InvalidRequest,
                u"id: a product \"%1\" exists already; choose another id"_s.arg(*request.id)};
    }
    if (request.items)
        if (auto checked = checkFeatures(db, scope, *request.items); !checked)
            return checked.error();
    auto items = storedItems(row.at(7), productId);
    if (!items)
        return items.error();
    const bool itemsChange = request.items && *request.items != items.value();
    auto inUse = queryRows(db, u"SELECT 1 FROM customer_products WHERE product_pk = ? LIMIT 1"_s,
                           {latestPk});
    if (!inUse)
        return inUse.error();
    const bool newVersion = itemsChange && !inUse.value().isEmpty();
    const qint64 version = request.version.value_or(newVersion ? latestVersion + 1 : latestVersion);
    if (newVersion && version <= latestVersion)
        return ApiError{400, api::ErrorCode::InvalidRequest,
                        u"version: customers are on version %1 of \"%2\"; changed items need a "
                        "later version"_s.arg(latestVersion)
                            .arg(productId)};
    if (version != latestVersion) {
        // The newest version stays the newest: renumbered below an older one,
        // the older would answer for the product.
        auto older = queryRows(db,
                               u"SELECT MAX(version) FROM products WHERE org_pk = ? AND env = ?"
                               " AND id = ? AND pk <> ?"_s,
                               where + QVariantList{latestPk});
        if (!older)
            return older.error();
        const QVariant highest = older.value().first().first();
        if (!highest.isNull() && version <= highest.toLongLong())
            return ApiError{400, api::ErrorCode::InvalidRequest,
                            u"version: \"%1\" has a version %2 already; the newest must stay "
                            "above it"_s.arg(productId)
                                .arg(highest.toLongLong())};
    }

    const QString newItems = request.items ? storedText(*request.items) : row.at(7).toString();
    const QVariant newTrial = request.freeTrial ? trialValue(*request.freeTrial) : row.at(8);
    if (newVersion) {
        if (auto inserted = insertVersion(db, dialect, scope, productId, version, row.mid(2, 5),
                                          newItems, newTrial, nowMs);
            !inserted)
            return inserted.error();
    } else if (auto updated = execute(
                   db, u"UPDATE products SET version = ?, items = ?, free_trial = ? WHERE pk = ?"_s,
                   {version, newItems, newTrial, latestPk});
               !updated) {
        return updated.error();
    }

    // What describes the product, on every version.
    QStringList sets;
    QVariantList binds;
    const auto set = [&](const QString &column, const QVariant &value) {
        sets.append(column + u" = ?"_s);
        binds.append(value);
    };
    if (request.name)
        set(u"name"_s, *request.name);
    if (request.group)
        set(u"group_name"_s, *request.group ? QVariant(**request.group) : QVariant());
    if (request.isAddOn)
        set(u"is_add_on"_s, int(*request.isAddOn));
    if (request.isDefault)
        set(u"is_default"_s, int(*request.isDefault));
    if (request.archived)
        set(u"archived"_s, int(*request.archived));
    if (request.id && *request.id != productId)
        set(u"id"_s, *request.id);
    if (!sets.isEmpty())
        if (auto updated =
                execute(db,
                        u"UPDATE products SET %1 WHERE org_pk = ? AND env = ? AND id = ?"_s.arg(
                            sets.join(u", "_s)),
                        binds + where);
            !updated)
            return updated.error();
    if (request.id && *request.id != productId)
        return renameInCoupons(db, scope, productId, *request.id);
    return api::Done{};
}

} // namespace

api::Result<api::Product> ProductUpdater::update(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope, const QString &productId,
                                                 const api::UpdateProductRequest &request,
                                                 qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    if (auto locked = lockProducts(db, dialect, scope.orgPk); !locked)
        return locked.error();
    if (auto applied = apply(db, dialect, scope, productId, request, nowMs); !applied)
        return applied.error();
    if (request.dryRun) // read inside the transaction, which then rolls back
        return newestOf(db, scope, request.id.value_or(productId));
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return newestOf(db, scope, request.id.value_or(productId));
}

api::Result<api::Product> ProductUpdater::create(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope, const api::Product &product,
                                                 qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    if (auto locked = lockProducts(db, dialect, scope.orgPk); !locked)
        return locked.error();
    if (auto checked = checkFeatures(db, scope, product.items); !checked)
        return checked.error();
    const QVariantList described{product.name,
                                 product.group ? QVariant(*product.group) : QVariant(),
                                 int(product.isAddOn), int(product.isDefault), 0};
    if (auto inserted =
            insertVersion(db, dialect, scope, product.id, 1, described, storedText(product.items),
                          trialValue(product.freeTrial), nowMs);
        !inserted)
        return inserted.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return newestOf(db, scope, product.id);
}

api::Result<api::Done> ProductUpdater::lockProducts(const QSqlDatabase &db, Dialect dialect,
                                                    qint64 orgPk)
{
    if (dialect != Dialect::Postgres)
        return api::Done{}; // SQLite's writes already take turns
    auto locked = queryRows(db, u"SELECT pk FROM organizations WHERE pk = ? FOR UPDATE"_s, {orgPk});
    if (!locked)
        return locked.error();
    return api::Done{};
}

api::Result<api::Product> ProductUpdater::newestOf(const QSqlDatabase &db, const Scope &scope,
                                                   const QString &id)
{
    auto products = ProductReads::products(db, scope);
    if (!products)
        return products.error();
    std::optional<api::Product> newest;
    for (const api::Product &product : products.value().list)
        if (product.id == id && (!newest || product.version > newest->version))
            newest = product;
    if (!newest)
        return ApiError::internal(u"product %1 vanished while it was written"_s.arg(id));
    return *newest;
}

} // namespace md::engine
