// What the usage import wizard's pages share (views/usage): the backfill
// that sends the file, the file as read and where it came from, the order
// its events go in, the connection the journal names and where an earlier
// commit stopped. The wizard owns it and hands it to each page, so a page
// never includes its wizard (docs/architecture.md, "Inside the console").
#pragma once

#include "models/usage/UsageFile.h"

#include <QObject>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class UsageBackfill;

class UsageImportSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageImportSession)

public:
    explicit UsageImportSession(backend::BillingBackend *backend, QObject *parent = nullptr);

    UsageBackfill *backfill() const { return m_backfill; }
    // The file as read, and where it came from.
    const UsageFileContent &content() const { return m_content; }
    void setContent(UsageFileContent content, const QString &path, const QByteArray &hash);
    const QString &sourcePath() const { return m_path; }
    const QByteArray &sourceHash() const { return m_hash; }
    // The order the events go in (UsageBackfill::orderHash), for the journal.
    const QByteArray &orderHash() const { return m_orderHash; }
    void setOrderHash(const QByteArray &hash) { m_orderHash = hash; }
    // The connection, as the journal names it; empty until it is known.
    const QString &target() const { return m_target; }
    // Where an earlier commit of this file to this connection stopped.
    qint64 resumeFrom() const { return m_resumeFrom; }
    void setResumeFrom(qint64 events) { m_resumeFrom = events; }
    bool committedAny() const { return m_committedAny; }
    void noteCommitted() { m_committedAny = true; }

Q_SIGNALS:
    void targetKnown();

private:
    UsageBackfill *m_backfill;
    UsageFileContent m_content;
    QString m_path;
    QByteArray m_hash;
    QByteArray m_orderHash;
    QString m_target;
    qint64 m_resumeFrom = 0;
    bool m_committedAny = false;
};

} // namespace md::models
