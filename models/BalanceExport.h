// Writes the whole filtered result of balances.list (every page, not only the
// rows a view has loaded) to a CSV file in the background, page by page.
// The file appears only when complete (QSaveFile); Cancel leaves nothing.
#pragma once

#include "services/api/ListBalances.h"
#include "services/backend/BillingBackend.h"

#include <QObject>
#include <QSaveFile>

#include <memory>

namespace md::models {

class BalanceExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceExport)

public:
    explicit BalanceExport(backend::BillingBackend *backend, QObject *parent = nullptr);
    ~BalanceExport() override;

    // Refused (with the reason) when the file cannot be opened or an export runs.
    api::Result<api::Done> start(const api::ListBalancesRequest &request, const QString &path);
    void cancel();
    bool isRunning() const { return m_file != nullptr; }

    static QString csvHeader();
    static QString csvLine(const api::BalanceRow &row);

Q_SIGNALS:
    void progress(qint64 rows);
    void finished(qint64 rows);
    void failed(const QString &message);
    void canceled();

private:
    void requestPage();
    void stop();

    backend::BillingBackend *m_backend;
    api::ListBalancesRequest m_request;
    std::unique_ptr<QSaveFile> m_file;
    qint64 m_rows = 0;
    bool m_cancelRequested = false;
};

} // namespace md::models
