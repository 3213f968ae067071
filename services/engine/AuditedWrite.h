// A write through the API recorded in the audit log (ledger/AuditTrail) in
// its own transaction, by the key that made it: the root's, because it
// needs the Engine and the key, which the rooms below never see.
#pragma once

#include "services/engine/Engine.h"
#include "services/engine/KeyContext.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

class AuditedWrite final
{
public:
    // Who acts: the calling key, or (no key: the console on its own
    // workspace, the command line) the operating-system user.
    static api::AuditActor actorOf(const KeyContext &key);

    // Runs `write` (db -> Result<T>) in a transaction that also records
    // `change`: `before` (db -> Result<JsonValue>) reads the resource first,
    // in the same transaction, and `after` (T -> JsonValue) describes the
    // answer. A failed write records nothing, and nor does one whose
    // `before` and `after` are the same.
    template <typename T, typename Before, typename Write, typename After>
    static api::Result<T> run(Engine &engine, const KeyContext &key, AuditTrail::Change change,
                              Before before, Write write, After after)
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
            change.after = after(result.value());
            // Only real changes: a write that leaves the resource as it was
            // (an update sending what is stored) answers it but records nothing.
            if (change.before != change.after)
                if (auto recorded = AuditTrail::record(db, engine.dialect(), key.scope,
                                                       actorOf(key), change, engine.now());
                    !recorded)
                    return recorded.error();
            if (auto committed = transaction.commit(); !committed)
                return committed.error();
            return result;
        });
    }
};

} // namespace md::engine
