// File ▸ Import customers…: Source → Mapping (CSV) → Validation → Preview
// (the server's dry run) → Commit → Report (docs/user-guide.md). The wizard owns the
// session its pages share (models::ImportSession: the batch, the preview,
// the runner and the journal); it works the same on an embedded workspace
// and a remote server.
#pragma once

#include <QWizard>

namespace md::backend {
class BillingBackend;
}

namespace md::models {
class ImportSession;
}

namespace md::views {

class ImportWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportWizard)

public:
    enum PageId { SourcePage, MappingPage, ValidationPage, PreviewPage, CommitPage, ReportPage };

    explicit ImportWizard(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~ImportWizard() override;

    // What the pages share: the batch, preview, runner and journal.
    models::ImportSession *session() const { return m_session; }
    // Customers were committed: the pages behind should refresh.
    bool committedAny() const;

    int nextId() const override;
    // While a run is on, asks first and closes once the customer in flight is done.
    void reject() override;

private:
    models::ImportSession *m_session;
    bool m_closeWhenStopped = false;
};

} // namespace md::views
