// What the customer import wizard's pages share (views/import): the batch
// read from the source, the server's dry run as a preview, the runner that
// sends it, the journal beside the source, the connection the journal names
// and whether a run resumes it. The wizard owns it and hands it to each
// page, so a page never includes its wizard (docs/architecture.md, "Inside
// the console").
#pragma once

#include "services/api/Result.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <memory>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class ImportBatch;
class ImportJournal;
class ImportPreviewModel;
class ImportRunner;
class StripeSource;

class ImportSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportSession)

public:
    explicit ImportSession(backend::BillingBackend *backend, QObject *parent = nullptr);
    ~ImportSession() override;

    ImportBatch *batch() const { return m_batch; }
    ImportPreviewModel *preview() const { return m_preview; }
    ImportRunner *runner() const { return m_runner; }
    // The journal of the current source; null before there is one.
    ImportJournal *journal() const { return m_journal.get(); }
    // Reads the current source's journal (after the source changed); a
    // journal that cannot be read is said, and an empty one kept.
    api::Result<api::Done> openJournal();
    // The connection, as the journal names it; empty until it is known.
    const QString &target() const { return m_target; }
    bool resume() const { return m_resume; }
    void setResume(bool resume) { m_resume = resume; }
    // The workspace's plan ids, once listed (for the mapping of plan values).
    const QStringList &plans() const { return m_plans; }
    // The same with their names (id → name), for matching Stripe's products.
    const QHash<QString, QString> &planNames() const { return m_planNames; }
    // The Stripe source (docs/user-guide.md, "Importing from Stripe").
    StripeSource *stripe() const { return m_stripe; }
    // Customers were committed: the pages behind should refresh.
    bool committedAny() const;

Q_SIGNALS:
    void targetKnown();

private:
    ImportBatch *m_batch;
    ImportPreviewModel *m_preview;
    ImportRunner *m_runner;
    std::unique_ptr<ImportJournal> m_journal;
    QString m_target;
    QStringList m_plans;
    QHash<QString, QString> m_planNames;
    StripeSource *m_stripe;
    bool m_resume = false;
};

} // namespace md::models
