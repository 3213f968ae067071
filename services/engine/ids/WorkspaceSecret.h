// The workspace's secret (docs/storage.md, "Ids and cursors"): 32 random
// bytes made once by migration 8 and stored in the database, so that every
// server on one database makes and accepts the same ids and cursors
// (PublicIds, CursorSeal). A workspace file does not carry it.
#pragma once

#include "services/api/Result.h"

#include <QByteArray>
#include <QSqlDatabase>

#include <memory>

namespace md::engine {

class WorkspaceSecret final
{
public:
    static constexpr qsizetype Size = 32;

    // The secret of the connection's database, read on the connection's
    // first use and kept with the connection (the code that makes an id is
    // handed a connection, not the engine).
    static api::Result<WorkspaceSecret> of(const QSqlDatabase &db);
    // Migration 8: stores a fresh secret from the system's random source.
    // `nowMs` is when ids began to take their keyed form.
    static api::Result<api::Done> create(const QSqlDatabase &db, qint64 nowMs);

    // HMAC-SHA256 of `message` under the secret. Each use starts its
    // messages with a label of its own, so no use can forge another's value.
    // Thread-safe: copies share the keyed hash states, read only.
    QByteArray mac(const QByteArray &message) const;
    // When the secret was made: ids issued before then had the counter form.
    qint64 createdAt() const { return m_createdAt; }

private:
    // SHA-256 with the key's inner and outer blocks already hashed, once per
    // secret: a MAC then costs two short hashes (docs/storage.md).
    struct Keyed;

    WorkspaceSecret(const QByteArray &secret, qint64 createdAt);

    std::shared_ptr<const Keyed> m_keyed;
    qint64 m_createdAt = 0;
};

} // namespace md::engine
