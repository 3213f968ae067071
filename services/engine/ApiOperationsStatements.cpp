// ApiOperations' routes of money closed (docs/billing.md, "Statements" and
// "Revenue"): statements.list, statements.get and revenue.summary.
#include "services/engine/ApiOperations.h"

#include "services/engine/statements/OpenRevenue.h"
#include "services/engine/statements/RevenueTotals.h"
#include "services/engine/statements/StatementReads.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {
const QString ReadScope = u"balances:read"_s;
} // namespace

api::Result<api::Page<api::Statement>>
ApiOperations::listStatements(const KeyContext &key, const api::PageRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    // A customer's periods that ended are closed before the list is read.
    if (request.customerId)
        if (auto current = upToDate(key, request.customerId); !current)
            return current.error();
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return StatementReads::list(db, key.scope, request); });
}

api::Result<api::Statement> ApiOperations::statement(const KeyContext &key,
                                                     const api::StatementGetRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return StatementReads::get(db, key.scope, request.id); });
}

api::Result<api::RevenueSummary>
ApiOperations::revenueSummary(const KeyContext &key, const api::RevenueSummaryRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    const qint64 now = m_engine.now(key.scope);
    return m_engine.withConnection([&](const QSqlDatabase &db) -> api::Result<api::RevenueSummary> {
        std::shared_ptr<const OpenFigures> open;
        if (request.includeOpen) {
            auto figures = m_engine.openRevenue().figures(db, key.scope, now, request.openMaxAgeMs);
            if (!figures)
                return figures.error();
            open = figures.value();
        }
        return RevenueTotals::summary(db, m_engine.dialect(), key.scope, request, now, open.get());
    });
}

} // namespace md::engine
