#include "services/engine/statements/StatementReads.h"

#include "services/engine/charges/Money.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using api::ApiError;
using namespace Qt::StringLiterals;

namespace {

constexpr char Tag[] = "statements";

const QString Columns = u"s.pk, s.period_start, c.id, s.period_end, s.currency, s.lines,"
                        " s.closed_at FROM statements s JOIN customers c ON c.pk = s.customer_pk"_s;

api::Result<api::Statement> statementOf(const PublicIds &ids, const QVariantList &row)
{
    api::Statement statement;
    statement.id = ids.make(PublicIds::Kind::Statement, row.at(0).toLongLong());
    statement.periodStart = row.at(1).toLongLong();
    statement.customerId = row.at(2).toString();
    statement.periodEnd = row.at(3).toLongLong();
    statement.currency = row.at(4).toString();
    auto lines = decodeStored(row.at(5), u"lines of statement %1"_s.arg(statement.id),
                              &api::readList<api::ChargeLine>);
    if (!lines)
        return lines.error();
    statement.lines = std::move(lines).value();
    auto total = Money::total(statement.lines);
    if (!total)
        return total.error();
    statement.total = total.value();
    statement.closedAt = row.at(6).toLongLong();
    return statement;
}

} // namespace

api::Result<api::Page<api::Statement>>
StatementReads::list(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request)
{
    auto after = decodeCursor(db, scope, Tag, request.startCursor, 2);
    if (!after)
        return after.error();
    QString where = u"s.org_pk = ? AND s.env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (request.customerId) {
        auto customer =
            queryRows(db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), *request.customerId});
        if (!customer)
            return customer.error();
        if (customer.value().isEmpty())
            return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                      u"customer \"%1\" does not exist"_s.arg(*request.customerId));
        where += u" AND s.customer_pk = ?"_s;
        binds.append(customer.value().first().first());
    }
    if (request.from) {
        where += u" AND s.period_start >= ?"_s;
        binds.append(*request.from);
    }
    if (request.to) {
        where += u" AND s.period_start < ?"_s;
        binds.append(*request.to);
    }
    if (after.value()) {
        where += u" AND (s.period_start < ? OR (s.period_start = ? AND s.pk < ?))"_s;
        binds << after.value()->at(0) << after.value()->at(0) << after.value()->at(1);
    }
    binds.append(request.limit + 1);
    auto rows = queryRows(db,
                          u"SELECT "_s + Columns + u" WHERE "_s + where +
                              u" ORDER BY s.period_start DESC, s.pk DESC LIMIT ?"_s,
                          binds);
    if (!rows)
        return rows.error();
    auto ids = PublicIds::of(db);
    if (!ids)
        return ids.error();
    api::Page<api::Statement> page;
    for (const QVariantList &row : std::as_const(rows.value())) {
        if (page.list.size() == request.limit) {
            const QVariantList &last = rows.value().at(page.list.size() - 1);
            auto cursor =
                encodeCursor(db, scope, Tag, {last.at(1).toLongLong(), last.at(0).toLongLong()});
            if (!cursor)
                return cursor.error();
            page.hasMore = true;
            page.nextCursor = std::move(cursor).value();
            break;
        }
        auto statement = statementOf(ids.value(), row);
        if (!statement)
            return statement.error();
        page.list.append(std::move(statement).value());
    }
    return page;
}

api::Result<api::Statement> StatementReads::get(const QSqlDatabase &db, const Scope &scope,
                                                const QString &id)
{
    const auto missing = ApiError::notFound(api::ErrorCode::StatementNotFound,
                                            u"statement \"%1\" does not exist"_s.arg(id));
    auto ids = PublicIds::of(db);
    if (!ids)
        return ids.error();
    // An id of another scope reads as no statement, telling nothing.
    const auto row = ids.value().parse(PublicIds::Kind::Statement, id);
    if (!row)
        return missing;
    auto rows =
        queryRows(db, u"SELECT "_s + Columns + u" WHERE s.pk = ? AND s.org_pk = ? AND s.env = ?"_s,
                  {row->pk, scope.orgPk, scope.envWord()});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return missing;
    return statementOf(ids.value(), rows.value().first());
}

} // namespace md::engine
