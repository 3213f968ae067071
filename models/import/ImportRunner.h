// Runs the wizard's batch against the backend: the dry run of every
// customer (eight at a time; each first looks the customer up, for the
// before/after) and then the commit, one customer at a time so Cancel stops
// after the one in flight, each recorded in the journal as it returns.
// Everything arrives on the thread the runner lives in; nothing blocks it.
#pragma once

#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"

#include <QObject>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class ImportRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportRunner)

public:
    static constexpr int DryRunWindow = 8;

    ImportRunner(backend::BillingBackend *backend, ImportPreviewModel *model,
                 QObject *parent = nullptr);

    // Dry-runs every customer whose outcome is still pending.
    void startDryRun();
    // Imports every customer not committed yet whose dry run did not fail;
    // customers an earlier run recorded in `journal` are not sent again. The journal has begun.
    void startCommit(ImportJournal *journal);
    // No customer is started after this; the ones in flight finish.
    void cancel();
    // No customer is started until resume(); the ones in flight finish.
    // While a person is asked whether to stop, nothing more is imported.
    void pause();
    void resume();
    bool isPaused() const { return m_paused; }
    bool isRunning() const { return m_running; }
    bool isCancelling() const { return m_running && m_cancelled; }
    // The run under way, or the last one, is a commit.
    bool isCommitting() const { return m_committing; }

Q_SIGNALS:
    void progress(int done, int total);
    // `error`: why the run could not go on (the products could not be read,
    // the journal could not be written).
    void finished(bool cancelled, const QString &error);

private:
    void start(QList<int> queue);
    void pump();
    void dryRun(int row);
    void commit(int row);
    // Settles a row done without a call; false when the row needs one.
    bool settleWithoutCall(int row);
    void rowDone();
    void stop(const QString &error);

    backend::BillingBackend *m_backend;
    ImportPreviewModel *m_model;
    ImportJournal *m_journal = nullptr;
    QHash<QString, api::Product> m_products;
    bool m_productsLoaded = false;
    bool m_committing = false;
    bool m_running = false;
    bool m_cancelled = false;
    bool m_paused = false;
    QString m_error;
    QList<int> m_queue;
    qsizetype m_next = 0;
    int m_inFlight = 0;
    int m_done = 0;
};

} // namespace md::models
