#include "models/import/ImportSession.h"

#include "models/common/WhenDone.h"
#include "models/connection/WorkspaceStatus.h"
#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/StripeSource.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

ImportSession::ImportSession(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_batch(new ImportBatch(this))
    , m_preview(new ImportPreviewModel(this))
    , m_runner(new ImportRunner(backend, m_preview, this))
    , m_stripe(new StripeSource(backend, this))
{
    WorkspaceStatus(backend).connection().then(
        this, [this](const api::Result<backend::ConnectionInfo> &info) {
            m_target = WorkspaceStatus::journalTarget(info);
            Q_EMIT targetKnown();
        });
    // The plans, asked for as the wizard opens, so that rows naming another
    // plan are flagged at validation; without them, the dry run says it.
    // A wizard closed at once goes before the answer comes (whenDone).
    whenDone(backend->listProducts(), this,
             [this](const api::Result<api::Page<api::Product>> &products) {
                 if (!products)
                     return;
                 QStringList plans;
                 for (const api::Product &product : products.value().list) {
                     if (!m_planNames.contains(product.id))
                         plans.append(product.id);
                     m_planNames.insert(product.id, product.name);
                 }
                 m_plans = plans;
                 m_batch->setKnownPlans(plans);
             });
}

ImportSession::~ImportSession() = default;

api::Result<api::Done> ImportSession::openJournal()
{
    m_journal = std::make_unique<ImportJournal>(
        ImportJournal::pathFor(m_batch->sourcePath(), m_batch->sourceData()));
    return m_journal->load();
}

bool ImportSession::committedAny() const
{
    return m_preview->commitCounts().value(CommitState::Committed) > 0;
}

} // namespace md::models
