// What WorkspaceDumper and its helpers share to write rows out: nullable
// columns, exact amounts, stored JSON, and a query walked row by row.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/JsonValue.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine::dump {

using api::JsonValue;
using namespace Qt::StringLiterals;

inline JsonValue nullableInteger(const QVariant &value)
{
    return value.isNull() ? JsonValue::null() : JsonValue(value.toLongLong());
}

inline JsonValue nullableText(const QVariant &value)
{
    return value.isNull() ? JsonValue::null() : JsonValue(value.toString());
}

// Amounts are stored as exact decimal text and written from it.
inline JsonValue amount(const QVariant &value)
{
    return JsonValue(api::Decimal::parse(value.toString()).value_or(api::Decimal()));
}

// Stored JSON as held; a damaged value (never written by the engine) dumps as null.
inline JsonValue stored(const QVariant &value)
{
    auto json = storedJson(value);
    return json ? json.value() : JsonValue::null();
}

// Runs a query and hands each row to `row`; stops at the first error.
template <typename F>
api::Result<api::Done> eachRow(const QSqlDatabase &db, const QString &sql,
                               const QVariantList &binds, F &&row)
{
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    while (query.value().next())
        row(query.value());
    return api::Done{};
}

#define MD_TRY(expression)                                                                         \
    if (auto result = (expression); !result)                                                       \
        return result.error();

} // namespace md::engine::dump
