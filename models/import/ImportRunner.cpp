#include "models/import/ImportRunner.h"

#include "services/backend/BillingBackend.h"

namespace md::models {

using namespace Qt::StringLiterals;

ImportRunner::ImportRunner(backend::BillingBackend *backend, ImportPreviewModel *model,
                           QObject *parent)
    : QObject(parent)
    , m_backend(backend)
    , m_model(model)
{}

void ImportRunner::startDryRun()
{
    Q_ASSERT(!m_running);
    QList<int> queue;
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->entry(r).outcome == ImportOutcome::Pending)
            queue.append(r);
    m_committing = false;
    if (m_productsLoaded) {
        start(queue);
        return;
    }
    // Plans' grants, for the balances after; read once per runner.
    m_running = true;
    m_backend->listProducts().then(
        this, [this, queue](const api::Result<api::Page<api::Product>> &products) {
            m_running = false;
            if (!products) {
                Q_EMIT finished(false, products.error().message);
                return;
            }
            for (const api::Product &product : products.value().list)
                m_products.insert(product.id, product);
            m_productsLoaded = true;
            start(queue);
        });
}

void ImportRunner::startCommit(ImportJournal *journal)
{
    Q_ASSERT(!m_running);
    QList<int> queue;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const CommitState state = m_model->entry(r).commit;
        if (state == CommitState::Waiting || state == CommitState::Failed)
            queue.append(r);
    }
    m_journal = journal;
    m_committing = true;
    start(queue);
}

void ImportRunner::cancel()
{
    m_cancelled = true;
}

void ImportRunner::pause()
{
    m_paused = true;
}

void ImportRunner::resume()
{
    if (!m_paused)
        return;
    m_paused = false;
    if (m_running)
        pump();
}

void ImportRunner::start(QList<int> queue)
{
    m_queue = std::move(queue);
    m_next = 0;
    m_done = 0;
    m_inFlight = 0;
    m_cancelled = false;
    m_paused = false;
    m_error.clear();
    m_running = true;
    Q_EMIT progress(0, int(m_queue.size()));
    pump();
}

void ImportRunner::pump()
{
    const int window = m_committing ? 1 : DryRunWindow;
    while (!m_cancelled && !m_paused && m_inFlight < window && m_next < m_queue.size()) {
        const int row = m_queue.at(m_next++);
        if (m_committing && settleWithoutCall(row)) {
            ++m_done;
            continue;
        }
        ++m_inFlight;
        if (m_committing)
            commit(row);
        else
            dryRun(row);
    }
    Q_EMIT progress(m_done, int(m_queue.size()));
    if (m_inFlight > 0 || (!m_cancelled && m_next < m_queue.size()))
        return; // more to come, or paused with more to come
    m_running = false;
    const bool complete = !m_cancelled && m_error.isEmpty();
    if (m_committing && complete && !m_model->commitCounts().value(CommitState::Failed)) {
        if (auto finished = m_journal->finish(); !finished)
            m_error = finished.error().message;
    }
    Q_EMIT finished(m_cancelled, m_error);
}

void ImportRunner::rowDone()
{
    // Queued: a reply that was ready before its continuation was attached
    // arrives inside the pump that sent it, which must not count it yet.
    QMetaObject::invokeMethod(
        this,
        [this] {
            --m_inFlight;
            ++m_done;
            pump();
        },
        Qt::QueuedConnection);
}

void ImportRunner::stop(const QString &error)
{
    m_error = error;
    m_cancelled = true;
}

void ImportRunner::dryRun(int row)
{
    const QString customerId = m_model->entry(row).request.customerId;
    m_backend->customer(customerId)
        .then(this, [this, row](const api::Result<api::Customer> &customer) {
            std::optional<api::Customer> before;
            if (customer) {
                before = customer.value();
            } else if (customer.error().code != "customer_not_found"_L1) {
                m_model->setDryRun(row, ImportOutcome::Error, customer.error().message, {});
                rowDone();
                return;
            }
            api::ImportCustomerRequest request = m_model->entry(row).request;
            request.dryRun = true;
            m_backend->importCustomer(request).then(
                this, [this, row, request,
                       before](const api::Result<api::ImportCustomerResponse> &response) {
                    if (!response) {
                        m_model->setDryRun(row, ImportOutcome::Error, response.error().message, {});
                    } else {
                        const ImportChanges changes =
                            ImportChanges::project(before, request, response.value(), m_products);
                        const ImportOutcome outcome =
                            ImportChanges::classify(before.has_value(), response.value(), changes);
                        QString message;
                        if (outcome == ImportOutcome::Mismatch)
                            message = ImportChanges::mismatchInWords(response.value());
                        m_model->setDryRun(row, outcome, message, changes);
                    }
                    rowDone();
                });
        });
}

bool ImportRunner::settleWithoutCall(int row)
{
    const ImportEntry &entry = m_model->entry(row);
    if (const auto done = m_journal->earlier().constFind(entry.request.customerId);
        done != m_journal->earlier().cend()) {
        m_model->setCommit(row, CommitState::Earlier, *done, {});
        return true;
    }
    if (entry.outcome == ImportOutcome::Error) {
        m_model->setCommit(row, CommitState::NotImported, ImportOutcome::Error,
                           tr("the dry run failed: %1").arg(entry.message));
        return true;
    }
    return false;
}

void ImportRunner::commit(int row)
{
    const ImportEntry &entry = m_model->entry(row);
    api::ImportCustomerRequest request = entry.request;
    request.dryRun = false;
    const bool existed = entry.outcome != ImportOutcome::New;
    m_backend->importCustomer(request).then(
        this, [this, row, existed](const api::Result<api::ImportCustomerResponse> &response) {
            const ImportEntry &done = m_model->entry(row);
            if (response) {
                const ImportOutcome outcome =
                    ImportChanges::classify(existed, response.value(), done.changes);
                if (auto recorded =
                        m_journal->record(done.request.customerId, done.line, outcome, {});
                    !recorded)
                    stop(recorded.error().message);
                m_model->setCommit(row, CommitState::Committed, outcome, {});
            } else {
                const QString message = response.error().message;
                if (auto recorded = m_journal->record(done.request.customerId, done.line,
                                                      std::nullopt, message);
                    !recorded)
                    stop(recorded.error().message);
                m_model->setCommit(row, CommitState::Failed, ImportOutcome::Error, message);
            }
            rowDone();
        });
}

} // namespace md::models
