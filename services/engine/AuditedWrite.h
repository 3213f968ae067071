// A write through the API recorded in the audit log (ledger/AuditTrail) in
// its own transaction, by the key that made it: the root's, because it
// needs the Engine and the key, which the rooms below never see.
#pragma once

#include "services/engine/Engine.h"
#include "services/engine/KeyContext.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <functional>

namespace md::engine {

// How AuditedWrite::run records a change.
struct AuditedWriteOptions
{
    // Recorded even when before and after are the same: a new secret is
    // a change the entry cannot show.
    bool recordUnchanged = false;
    // Runs after the commit, on the same connection: a cache to forget.
    std::function<void(const QSqlDatabase &)> afterCommit = {};
};

class AuditedWrite final
{
public:
    // Who acts: the calling key, or (no key: the console on its own
    // workspace, the command line) the operating-system user.
    static api::AuditActor actorOf(const KeyContext &key);
    // The webhook event an audited change is told as (docs/api.md,
    // "Webhooks"), if any: customer.imported, product.updated, ….
    static std::optional<QString> eventTypeOf(const QString &action);
    // Its data: the resource and its before and after, as the audit log has them.
    static api::JsonValue eventDataOf(const AuditTrail::Change &change);

    // Outside the class: a nested one's member initializers cannot serve
    // as the default argument below (clang refuses it).
    using Options = AuditedWriteOptions;

    // Runs `write` (db -> Result<T>) in a transaction that also records
    // `change`: `before` (db -> Result<JsonValue>) reads the resource first,
    // in the same transaction, and `after` (T -> JsonValue) describes the
    // answer (or gives the resource's id with it, as a pair, for a resource
    // the write made), and tells the webhooks subscribed to the change (eventTypeOf),
    // in the same transaction. A failed write records nothing, and nor does
    // one whose `before` and `after` are the same.
    template <typename T, typename Before, typename Write, typename After>
    static api::Result<T> run(Engine &engine, const KeyContext &key, AuditTrail::Change change,
                              Before before, Write write, After after, const Options &options = {})
    {
        return engine.withConnection([&](const QSqlDatabase &db) -> api::Result<T> {
            WriteTransaction transaction(db, engine.dialect());
            if (auto begun = transaction.begin(); !begun)
                return begun.error();
            api::Result<api::JsonValue> was = before(db);
            if (!was)
                return was.error();
            api::Result<T> result = write(db);
            if (!result)
                return result;
            change.before = std::move(was).value();
            if constexpr (std::is_same_v<decltype(after(result.value())),
                                         std::pair<QString, api::JsonValue>>)
                std::tie(change.resourceId, change.after) = after(result.value());
            else
                change.after = after(result.value());
            // Only real changes: a write that leaves the resource as it was
            // (an update sending what is stored) answers it but records nothing.
            if (options.recordUnchanged || change.before != change.after) {
                if (auto recorded = AuditTrail::record(db, engine.dialect(), key.scope,
                                                       actorOf(key), change, engine.now());
                    !recorded)
                    return recorded.error();
                if (const auto type = eventTypeOf(change.action))
                    if (auto told = WebhookOutbox::record(db, engine.dialect(), key.scope,
                                                          engine.now(key.scope), *type,
                                                          eventDataOf(change));
                        !told)
                        return told.error();
            }
            if (auto committed = transaction.commit(); !committed)
                return committed.error();
            if (options.afterCommit)
                options.afterCommit(db);
            return result;
        });
    }
};

} // namespace md::engine
