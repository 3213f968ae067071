// File ▸ Import customers…: Source → Mapping (CSV) → Validation → Preview
// (the server's dry run) → Commit → Report (docs/user-guide.md). The wizard owns the
// batch, the preview, the runner and the journal its pages share; it works
// the same on an embedded workspace and a remote server.
#pragma once

#include <QWizard>

#include <memory>

namespace md::backend {
class BillingBackend;
}

namespace md::models {
class ImportBatch;
class ImportJournal;
class ImportPreviewModel;
class ImportRunner;
} // namespace md::models

namespace md::views {

class ImportWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportWizard)

public:
    enum PageId { SourcePage, MappingPage, ValidationPage, PreviewPage, CommitPage, ReportPage };

    explicit ImportWizard(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~ImportWizard() override;

    models::ImportBatch *batch() const { return m_batch; }
    models::ImportPreviewModel *preview() const { return m_preview; }
    models::ImportRunner *runner() const { return m_runner; }
    // The journal of the current source; null before there is one.
    models::ImportJournal *journal() const { return m_journal.get(); }
    // Reads the current source's journal (after the source changed).
    void openJournal();
    // The connection, as the journal names it; empty until it is known.
    const QString &target() const { return m_target; }
    bool resume() const { return m_resume; }
    void setResume(bool resume) { m_resume = resume; }
    // Customers were committed: the pages behind should refresh.
    bool committedAny() const;

    int nextId() const override;
    // While a run is on, asks first and closes once the customer in flight is done.
    void reject() override;

Q_SIGNALS:
    void targetKnown();

private:
    models::ImportBatch *m_batch;
    models::ImportPreviewModel *m_preview;
    models::ImportRunner *m_runner;
    std::unique_ptr<models::ImportJournal> m_journal;
    QString m_target;
    bool m_resume = false;
    bool m_closeWhenStopped = false;
};

} // namespace md::views
