// Where a usage backfill's commit got to, beside its file
// ("<file>.usage-journal.json"): the connection it went to, the file's
// SHA-256, the order of its events and how many of them were committed.
// Written after every request, so a crash or a Cancel resumes after them;
// the events' Idempotency-Keys make a request sent again count nothing twice.
#pragma once

#include "models/usage/UsageFile.h"
#include "services/api/Result.h"

#include <QString>

namespace md::models {

struct UsageJournal
{
    QString target;
    QByteArray sourceHash;
    // The events' keys in the order sent (UsageBackfill::orderHash): another
    // mapping of the same file sends other events in other places.
    QByteArray orderHash;
    qint64 committed = 0;
    qint64 total = 0;
    qint64 savedAt = 0; // ms since 1970
    // How the keys of rows without one were made; a journal without it is
    // the first build's (EventOnly).
    UsageKeyFormat keyFormat = UsageKeyFormat::ByCustomer;

    static QString pathFor(const QString &sourcePath);
    // The key format to read the file at `sourcePath` with: its journal's,
    // so a file committed before keeps its keys; else the current one.
    static UsageKeyFormat keyFormatFor(const QString &sourcePath);
    // Nullopt when there is none (or it cannot be read as one).
    static std::optional<UsageJournal> load(const QString &path);
    api::Result<api::Done> save(const QString &path) const;
};

} // namespace md::models
