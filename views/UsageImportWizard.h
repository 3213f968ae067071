// Usage ▸ Import usage… (docs/user-guide.md, "Importing past usage"): a file
// of past usage → Source (the file read in the background, its CSV columns
// mapped, saved profiles, every bad cell where it is) → Dry run (each
// balance before and after, every event the server would refuse) → Commit
// (1,000 events a request, with progress and Cancel, resumable from the
// journal beside the file). Same habits as File ▸ Import customers; works
// the same on an embedded workspace and a remote server.
#pragma once

#include "models/UsageFile.h"

#include <QWizard>

namespace md::backend {
class BillingBackend;
}

namespace md::models {
class UsageBackfill;
}

namespace md::views {

class UsageImportWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageImportWizard)

public:
    enum PageId { SourcePage, DryRunPage, CommitPage };

    explicit UsageImportWizard(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::UsageBackfill *backfill() const { return m_backfill; }
    // The file as read, and where it came from.
    const models::UsageFileContent &content() const { return m_content; }
    void setContent(models::UsageFileContent content, const QString &path, const QByteArray &hash);
    models::UsageFileContent &editableContent() { return m_content; }
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

    // While a run is on, asks first and closes once the request in flight is answered.
    void reject() override;

Q_SIGNALS:
    void targetKnown();

private:
    models::UsageBackfill *m_backfill;
    models::UsageFileContent m_content;
    QString m_path;
    QByteArray m_hash;
    QByteArray m_orderHash;
    QString m_target;
    qint64 m_resumeFrom = 0;
    bool m_committedAny = false;
    bool m_closeWhenStopped = false;
};

} // namespace md::views
