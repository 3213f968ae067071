// Usage ▸ Import usage… (docs/user-guide.md, "Importing past usage"): a file
// of past usage → Source (the file read in the background, its CSV columns
// mapped, saved profiles, every bad cell where it is) → Dry run (each
// balance before and after, every event the server would refuse) → Commit
// (1,000 events a request, with progress and Cancel, resumable from the
// journal beside the file). Same habits as File ▸ Import customers; works
// the same on an embedded workspace and a remote server.
#pragma once

#include <QWizard>

namespace md::backend {
class BillingBackend;
}

namespace md::models {
class UsageImportSession;
}

namespace md::views {

class UsageImportWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageImportWizard)

public:
    enum PageId { SourcePage, DryRunPage, CommitPage };

    explicit UsageImportWizard(backend::BillingBackend *backend, QWidget *parent = nullptr);

    // What the pages share: the backfill, the file as read, the journal's target.
    models::UsageImportSession *session() const { return m_session; }
    bool committedAny() const;

    // While a run is on, asks first and closes once the request in flight is answered.
    void reject() override;

private:
    models::UsageImportSession *m_session;
    bool m_closeWhenStopped = false;
};

} // namespace md::views
