// The commit's journal, a JSON Lines file beside the import source: a header
// naming the connection and the source's SHA-256, then one line per customer
// as its import returns, flushed at once, and a last line when the commit
// has run through. Reopening the source reads it back so an interrupted or
// crashed commit resumes after the customers it recorded, and a finished one
// tells the wizard the source was imported already. A customer whose import
// committed just before a crash, unrecorded, is imported again and comes back
// unchanged (its plans skipped, already_active): never twice.
#pragma once

#include "models/import/ImportChanges.h"
#include "services/api/Result.h"

#include <QFile>
#include <QHash>

namespace md::models {

class ImportJournal final
{
    Q_DECLARE_TR_FUNCTIONS(ImportJournal)

public:
    // Beside the source file; pasted text's in the data folder, named by its hash.
    static QString pathFor(const QString &sourcePath, const QByteArray &data);

    explicit ImportJournal(const QString &path);
    const QString &path() const { return m_path; }
    // Where a new run sets this journal aside.
    QString previousPath() const { return m_path + QStringLiteral(".previous"); }

    // Reads what an earlier commit recorded; an error when the file exists
    // but cannot be read.
    api::Result<api::Done> load();
    bool exists() const { return m_exists; }
    bool finished() const { return m_finished; }
    const QString &target() const { return m_target; }
    const QByteArray &sourceHash() const { return m_sourceHash; }
    qint64 startedAt() const { return m_startedAt; }
    qint64 finishedAt() const { return m_finishedAt; }
    // Customers recorded as committed, with their outcome.
    const QHash<QString, ImportOutcome> &done() const { return m_done; }
    // Those of them an earlier run recorded (as loaded): only these are not
    // sent again, so a customer on two lines of one run is never taken as done.
    const QHash<QString, ImportOutcome> &earlier() const { return m_earlier; }

    // Starts writing for `target`. Resuming appends; otherwise an earlier
    // journal is kept as "<path>.previous" and a new one begun.
    api::Result<api::Done> begin(const QString &target, const QByteArray &sourceHash, bool resume);
    // `outcome` nullopt: the import failed with `message`.
    api::Result<api::Done> record(const QString &customerId, int line,
                                  std::optional<ImportOutcome> outcome, const QString &message);
    api::Result<api::Done> finish();

    static QByteArray hash(const QByteArray &data);

private:
    api::Result<api::Done> write(const QJsonObject &line);

    QString m_path;
    QFile m_file;
    bool m_exists = false;
    bool m_finished = false;
    QString m_target;
    QByteArray m_sourceHash;
    qint64 m_startedAt = 0;
    qint64 m_finishedAt = 0;
    QHash<QString, ImportOutcome> m_done;
    QHash<QString, ImportOutcome> m_earlier;
};

} // namespace md::models
