// ApiOperations' usage routes for any feature (docs/api.md, "Usage of any
// feature"): balances.track goes the way of track_tokens (the writer, or the
// queue with the async flag), balances.check reads on the calling thread,
// and usage.batch hands its events over together (UsageBatchRun), or plans
// them without writing (UsageDryRun).
#include "services/engine/ApiOperations.h"

#include "services/engine/track/UsageBatchRun.h"
#include "services/engine/track/UsageCheck.h"
#include "services/engine/track/UsageDryRun.h"

#include <future>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString ReadScope = u"balances:read"_s;
const QString WriteScope = u"balances:write"_s;

} // namespace

api::Result<api::TrackTokensResponse>
ApiOperations::track(const KeyContext &key, const api::TrackRequest &request,
                     const std::optional<QString> &idempotencyKey)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return m_engine.trackTokens(key.scope, request.asCall(), idempotencyKey);
}

void ApiOperations::track(const KeyContext &key, const api::TrackRequest &request,
                          const std::optional<QString> &idempotencyKey, TrackWriter::Answer answer)
{
    if (const auto denied = key.missingScope(WriteScope))
        return answer(*denied);
    m_engine.trackTokens(key.scope, request.asCall(), idempotencyKey, std::move(answer));
}

api::Result<api::CheckResponse> ApiOperations::check(const KeyContext &key,
                                                     const api::CheckRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    if (auto current = upToDate(key, request.customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return UsageCheck::check(db, m_engine.dialect(), key.scope, request,
                                 m_engine.now(key.scope));
    });
}

void ApiOperations::usageBatch(const KeyContext &key, const api::UsageBatchRequest &request,
                               BatchAnswer answer)
{
    if (const auto denied = key.missingScope(WriteScope))
        return answer(*denied);
    if (request.dryRun) {
        // Planned against balances the billing clock has brought up to
        // date, as the writer's batches are (they catch up as they go).
        if (auto current = upToDate(key, std::nullopt); !current)
            return answer(current.error());
        return answer(m_engine.withConnection([&](const QSqlDatabase &db) {
            return UsageDryRun::plan(db, m_engine.dialect(), key.scope, request,
                                     m_engine.now(key.scope), *m_engine.catalogue());
        }));
    }
    UsageBatchRun::start(m_engine.trackWriter(), m_engine.trackQueue(), key.scope, request,
                         [answer = std::move(answer)](api::UsageBatchResponse response) {
                             answer(std::move(response));
                         });
}

api::Result<api::UsageBatchResponse>
ApiOperations::usageBatch(const KeyContext &key, const api::UsageBatchRequest &request)
{
    std::promise<api::Result<api::UsageBatchResponse>> promise;
    usageBatch(key, request, [&promise](api::Result<api::UsageBatchResponse> answer) {
        promise.set_value(std::move(answer));
    });
    return promise.get_future().get();
}

} // namespace md::engine
